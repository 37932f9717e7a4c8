"""Free dice: rulebound's exact odds against icepool's on the same expressions, and the
slowest odds any accepted expression can ask of the server.

Run from the repository root (the bench extra installed):

    python benchmarks/free_dice.py [--cold-runs 3] [--icepool-timeout 120] [--markdown]

Each expression's two distributions are checked equal (exact fractions) before anything is
timed. *Cold* is the first call in a fresh ``python`` process, the library imported and
nothing computed yet (the median over ``--cold-runs`` processes); *warm* is ``timeit``'s
best per call in this process, icepool's caches and all. The ratio is icepool's time over
rulebound's (goal: at least 1 on each row).

Then the ceiling: the accepted expressions whose planned odds cost the most (a grid of
sums, keeps, explosions and counts up to the caps, plus hand-picked heavy shapes), each
timed cold for the whole of the server's work on a preview (``odds(...).line()``); the
goal is at most 100 ms for the slowest.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

PEERS: dict[str, str] = {
    # keep-highest pools
    "4d6kh3": "d(6).pool(4).highest(3).sum()",
    "2d20kh1+5": "d(20).pool(2).highest(1).sum() + 5",
    "8d10kh3": "d(10).pool(8).highest(3).sum()",
    "20d6kh5": "d(6).pool(20).highest(5).sum()",
    "12d10kl4": "d(10).pool(12).lowest(4).sum()",
    # large sums
    "100d6": "100 @ d(6)",
    "25d100": "25 @ d(100)",
    "100d199": "100 @ d(199)",
    "3d6+2d8+5d10+7d12": "3 @ d(6) + 2 @ d(8) + 5 @ d(10) + 7 @ d(12)",
    # rerolls
    "4d6rr1": "4 @ d(6).reroll([1], depth='inf')",
    "10d10ro<3": "10 @ d(10).reroll([1, 2], depth=1)",
    "8d6ro1kh3": "d(6).reroll([1], depth=1).pool(8).highest(3).sum()",
    # explosions (each extra die's face added, as icepool's explode sums them)
    "10d6e6": "10 @ d(6).explode([6], depth=10)",
    "5d10e>8": "5 @ d(10).explode([9, 10], depth=10)",
    # counts of successes
    "10d10>=7": "10 @ (d(10) >= 7)",
    "20d6==6": "20 @ (d(6) == 6)",
}
HEAVY_EXTRA = (
    "100d199",
    "99d1000+1d1000",
    "40d20kh10",
    "10d100kh5",
    "30d6e6",
    "(1d100, 1d100, 1d100)kh2",
    "20#5d6e6",
    "1d20rr<20",
    "3d20rol1",
    "1d1000*1d100",
    "4*(3d8kh2+9 [fire]+(9d2e2+3 [cold])/2)",
)


def rulebound_solve(text: str) -> Callable[[], Any]:
    from rulebound.core.dice import odds, parse

    expression = parse(text)
    return lambda: odds(expression)


def icepool_solve(text: str) -> Callable[[], Any]:
    import icepool

    code = PEERS[text]
    return lambda: eval(code, {"d": icepool.d})


def distribution(library: str, text: str) -> dict[int, Fraction]:
    if library == "rulebound":
        found = rulebound_solve(text)()
        return found.distribution()  # type: ignore[no-any-return]
    die = icepool_solve(text)()
    total = die.denominator()
    return {int(k): Fraction(v, total) for k, v in die.items()}


def child(library: str, text: str, whole: bool) -> None:
    """In a fresh process: import, then time the first call. Prints one JSON line."""
    if library == "rulebound":
        import rulebound.core.dice.exact  # noqa: F401  (the odds engine, imported up front)

        solve = rulebound_solve(text)
        run: Callable[[], Any] = (lambda: solve().line()) if whole else solve
    else:
        import icepool  # noqa: F401

        run = icepool_solve(text)
    begun = time.perf_counter()
    run()
    print(json.dumps({"cold_s": time.perf_counter() - begun}))


def cold(library: str, text: str, runs: int, timeout: float, whole: bool = False) -> float | None:
    """Median first-call seconds over ``runs`` fresh processes (None: over ``timeout``)."""
    samples = []
    for _ in range(runs):
        args = [sys.executable, str(Path(__file__).resolve()), "--child", library, text]
        try:
            out = subprocess.run(
                [*args, *(["--whole"] if whole else [])],
                capture_output=True,
                text=True,
                check=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return None
        samples.append(json.loads(out.stdout.strip().splitlines()[-1])["cold_s"])
    return statistics.median(samples)


def warm(solve: Callable[[], object], repeat: int = 3, budget: float = 0.3) -> float:
    begun = time.perf_counter()
    solve()
    once = max(time.perf_counter() - begun, 1e-7)
    number = max(1, int(budget / once))
    return min(timeit.Timer(solve).repeat(repeat=repeat, number=number)) / number


def heaviest(count: int) -> list[str]:
    """The accepted expressions whose planned odds cost the most, among a grid up to the
    caps (each plan is costed without computing anything)."""
    from rulebound.core.dice import DEFAULT_LIMITS, parse
    from rulebound.core.dice.planner import OverBudget, Planner
    from rulebound.core.errors import InvalidInput

    grid = [f"100d{s}" for s in (6, 20, 100, 199, 300, 400, 500, 600, 700, 800, 1000)]
    grid += [
        f"{n}d{s}kh{k}" for n in (10, 20, 40, 60, 100) for s in (6, 20, 100) for k in (1, 5, 10, 20)
    ]
    grid += [f"{n}d{s}e{s}" for n in (10, 30, 60, 100) for s in (6, 10, 20)]
    grid += [f"{n}d10e10>=8" for n in (20, 50, 100)]
    grid += [f"{n}d{s}rr1" for n in (50, 100) for s in (20, 100, 1000)]
    grid += [f"({', '.join(['1d20'] * n)})kh2" for n in (3, 4, 5)]
    costs: list[tuple[int, str]] = []
    for text in (*grid, *HEAVY_EXTRA):
        try:
            expression = parse(text)
            planner = Planner(DEFAULT_LIMITS)
            planner.finish(planner.plan(expression.root))
        except (InvalidInput, OverBudget):
            continue
        costs.append((planner.spent, text))
    chosen = [text for _, text in sorted(costs, reverse=True)[:count]]
    return list(dict.fromkeys([*chosen, *HEAVY_EXTRA]))


def table(rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows
    )


def ms(seconds: float | None, timeout: float) -> str:
    if seconds is None:
        return f"> {timeout:.0f} s"
    return f"{seconds * 1e6:.0f} µs" if seconds < 0.001 else f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "EXPR"))
    parser.add_argument("--whole", action="store_true")
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--icepool-timeout", type=float, default=120.0)
    parser.add_argument("--heavy", type=int, default=14)
    parser.add_argument("--quick", action="store_true", help="a few rows, one run each")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(*args.child, whole=args.whole)
        return
    peers = list(PEERS)[:3] if args.quick else list(PEERS)
    runs = 1 if args.quick else args.cold_runs
    print(f"# Free dice: exact odds, rulebound against icepool ({platform.python_version()})\n")
    rows = [
        [
            "expression",
            "rulebound cold",
            "icepool cold",
            "ratio",
            "rulebound warm",
            "icepool warm",
            "ratio",
        ]
    ]
    for text in peers:
        ours = cold("rulebound", text, runs, args.icepool_timeout)
        theirs = cold("icepool", text, runs, args.icepool_timeout)
        if theirs is not None and distribution("rulebound", text) != distribution("icepool", text):
            raise SystemExit(f"{text}: icepool and rulebound disagree")
        warm_ours = warm(rulebound_solve(text))
        warm_theirs = None if theirs is None else warm(icepool_solve(text), repeat=2)
        rows.append(
            [
                f"`{text}`" if args.markdown else text,
                ms(ours, args.icepool_timeout),
                ms(theirs, args.icepool_timeout),
                "-"
                if ours is None
                else (
                    f"> {args.icepool_timeout / ours:.0f}x"
                    if theirs is None
                    else f"{theirs / ours:.1f}x"
                ),
                ms(warm_ours, args.icepool_timeout),
                ms(warm_theirs, args.icepool_timeout),
                "-" if warm_theirs is None else f"{warm_theirs / warm_ours:.1f}x",
            ]
        )
        print(f"  {text}: done", file=sys.stderr)
    print(table(rows, args.markdown))
    print(
        "\nWarm repeats hit rulebound's bounded cache of recent odds, as icepool's hit its"
        " caches; cold is the first call in a fresh process, what a new expression costs."
    )
    print("\n## The slowest accepted expressions (the server's whole preview, cold)\n")
    heavy = heaviest(3 if args.quick else args.heavy)
    rows = [["expression", "odds", "cold (whole preview)"]]
    slowest = 0.0
    from rulebound.core.dice import NotComputed, odds, parse

    for text in heavy:
        found = odds(parse(text))
        took = cold("rulebound", text, runs, args.icepool_timeout, whole=True) or 0.0
        slowest = max(slowest, took)
        what = "not computed (over the cap)" if isinstance(found, NotComputed) else "exact"
        rows.append([f"`{text}`" if args.markdown else text, what, f"{took * 1000:.1f} ms"])
    print(table(rows, args.markdown))
    verdict = "met" if slowest <= 0.1 else "MISSED"
    print(f"\nslowest: {slowest * 1000:.1f} ms (goal: at most 100 ms): {verdict}")


if __name__ == "__main__":
    main()
