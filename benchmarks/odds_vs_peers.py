"""rulebound against icepool and dyce on the issue-6 odds questions, and rolls against d20.

Run from the repository root (the bench extra installed):

    python benchmarks/odds_vs_peers.py [--cold-runs 5] [--warm-repeat 5] [--markdown]

Every answer is computed by all three libraries in this process and compared
exactly before anything is timed. *Cold* is the first call in a fresh
``python`` process with the libraries imported but nothing computed (imports
are timed apart); it is the median over ``--cold-runs`` processes. *Warm* is
``timeit``'s best per call in this process, caches and all. Speed-ups are the
faster peer's time divided by rulebound's (goal: 10x cold).

Then the whole-call rows of issue 16 (``whole_calls.py``): import cost, a whole
``rulebound odds`` process against icepool's, Rainwall pools of 80/160/320 dice,
Legacy extended checks, the Ghostburn gear cap and every game's roll rate from the
raw form, each checked against icepool and printed as a ratio with its goal.
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
import warnings
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import whole_calls  # noqa: E402
from questions import QUESTIONS, rulebound_q1_request  # noqa: E402

LIBRARIES = ("rulebound", "icepool", "dyce")
IMPORTS = {
    "rulebound": (
        "rulebound.rulesets.empty_reach.odds",
        "rulebound.rulesets.rainwall.odds",
        "rulebound.rulesets.rainwall.tables",
        "rulebound.rulesets.legacy.odds",
    ),
    "icepool": ("icepool",),
    "dyce": ("dyce",),
}


def child(library: str, question: int) -> None:
    """In a fresh process: import, then time the first call. Prints one JSON line."""
    import importlib

    warnings.simplefilter("ignore")  # dyce flags ``expand`` as experimental
    started = time.perf_counter()
    for module in IMPORTS[library]:
        importlib.import_module(module)
    imported = time.perf_counter()
    solve = list(QUESTIONS.values())[question][library]
    begun = time.perf_counter()
    solve()
    cold = time.perf_counter() - begun
    print(json.dumps({"import_s": imported - started, "cold_s": cold}))


def cold(library: str, question: int, runs: int) -> tuple[float, float]:
    """Median (cold seconds, import seconds) over ``runs`` fresh processes."""
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", library, str(question)],
            capture_output=True,
            text=True,
            check=True,
        )
        samples.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return (
        statistics.median(s["cold_s"] for s in samples),
        statistics.median(s["import_s"] for s in samples),
    )


def warm(solve: Callable[[], object], repeat: int, budget: float) -> float:
    """Best seconds per call after one warming call; ``number`` sized to ``budget`` per repeat."""
    begun = time.perf_counter()
    solve()
    once = max(time.perf_counter() - begun, 1e-7)
    number = max(1, int(budget / once))
    return min(timeit.Timer(solve).repeat(repeat=repeat, number=number)) / number


def check_agreement(chosen: list[int]) -> None:
    for name, solvers in (list(QUESTIONS.items())[i] for i in chosen):
        answers = {lib: solvers[lib]() for lib in LIBRARIES}
        if name.startswith("Q1") and rulebound_q1_request() != answers["rulebound"]:
            raise SystemExit(f"{name}: the request path disagrees with the pool entry point")
        for lib in LIBRARIES[1:]:
            if answers[lib] != answers["rulebound"]:
                raise SystemExit(f"{name}: {lib} disagrees with rulebound")


def rates(seconds: float) -> dict[str, float]:
    """Checks per second for the rules-aware rolls and for d20's bare 7d10."""
    import d20

    from rulebound.core.random_source import SeededSource
    from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
    from rulebound.rulesets.empty_reach.roll import push, roll_check
    from rulebound.rulesets.rainwall.request import RainwallRequest
    from rulebound.rulesets.rainwall.roll import roll_check as rain_roll

    source = SeededSource(2024)

    def rainwall() -> None:
        rain_roll(RainwallRequest(dice=7, skill=5, dr=4, bonus=3), source)

    def empty_reach() -> None:
        result = roll_check(prepare(CheckRequest(attribute_die="D8", skill_die="D10")), source)
        chosen = result.default_reroll() or result.rerollable()
        if chosen:
            push(result, source, chosen)

    def bare() -> None:
        d20.roll("7d10")

    out = {}
    for name, roll in (
        ("Rainwall 7-die check, full trace", rainwall),
        ("Empty Reach D8+D10 check + push, full trace", empty_reach),
        ("d20.roll('7d10')", bare),
    ):
        best = warm(roll, repeat=3, budget=seconds / 3)  # timeit's best of 3
        out[name] = 1 / best
    return out


def table(rows: list[list[str]], markdown: bool) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    if markdown:
        lines = ["| " + " | ".join(r) + " |" for r in rows]
        lines.insert(1, "|" + "|".join("---" for _ in widths) + "|")
        return "\n".join(lines)
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--warm-repeat", type=int, default=5)
    parser.add_argument("--warm-budget", type=float, default=0.2, help="seconds per repeat")
    parser.add_argument("--roll-seconds", type=float, default=3.0)
    parser.add_argument("--questions", default="1,2,3,4", help="which questions, e.g. 2,4")
    parser.add_argument("--process-runs", type=int, default=9, help="fresh processes, median")
    parser.add_argument("--pools", default="80,160,320", help="Rainwall pool sizes")
    parser.add_argument("--no-whole", action="store_true", help="skip the issue-16 rows")
    parser.add_argument("--quick", action="store_true", help="one tiny run of everything")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "QUESTION"))
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    warnings.filterwarnings("ignore", message=".*experimental")  # dyce's ``expand``
    extended = ((10_000, 10_000, 50), (40, 30, 50))
    if args.quick:
        args.cold_runs, args.warm_repeat, args.warm_budget, args.roll_seconds = 1, 1, 1e-3, 0.03
        args.process_runs, args.pools, extended = 1, "12,24", ((10_000, 10_000, 50), (12, 10, 8))
    chosen = [int(q) - 1 for q in args.questions.split(",")]
    check_agreement(chosen)
    print(f"Questions {args.questions}: rulebound, icepool and dyce agree exactly.\n")
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.system()}\n")
    head = ["question", "library", "cold ms", "import ms", "warm ms"]
    rows = [head]
    ratios = [
        ["question", "cold speed-up", "warm speed-up", "cold ratio", "10x cold goal (ratio 0.10)"]
    ]
    for index, (name, solvers) in enumerate(QUESTIONS.items()):
        if index not in chosen:
            continue
        timing = {}
        for lib in LIBRARIES:
            cold_s, import_s = cold(lib, index, args.cold_runs)
            warm_s = warm(solvers[lib], args.warm_repeat, args.warm_budget)
            timing[lib] = (cold_s, warm_s)
            rows.append([name, lib, ms(cold_s), ms(import_s), ms(warm_s)])
        peer_cold = min(timing[p][0] for p in LIBRARIES[1:])
        peer_warm = min(timing[p][1] for p in LIBRARIES[1:])
        cold_x = peer_cold / timing["rulebound"][0]
        warm_x = peer_warm / timing["rulebound"][1]
        met = "met" if cold_x >= 10 else "missed"
        ratios.append([name, f"{cold_x:.1f}x", f"{warm_x:.1f}x", f"{1 / cold_x:.3f}", met])
    print(table(rows, args.markdown) + "\n")
    print(table(ratios, args.markdown) + "\n")
    roll_rows = [["roll", "per second"]]
    roll_rows += [[k, f"{v:,.0f}"] for k, v in rates(args.roll_seconds).items()]
    print(table(roll_rows, args.markdown) + "\n")
    if not args.no_whole:
        print(whole_table(args, extended, args.markdown))


def whole_table(
    args: argparse.Namespace, extended: tuple[tuple[int, int, int], ...], markdown: bool
) -> str:
    """The issue-16 rows: each answer checked against icepool, then timed as a ratio."""
    whole_calls.brute_force_check()
    rows = [whole_calls.import_row(args.process_runs), whole_calls.process_row(args.process_runs)]
    rows.append(whole_calls.bytecode_row(max(1, args.process_runs // 3)))
    rows += whole_calls.pool_rows(tuple(int(n) for n in args.pools.split(",")), 3)
    rows += whole_calls.extended_rows(extended, 3)
    rows.append(whole_calls.gear_row())
    rows += whole_calls.rate_rows(args.roll_seconds)
    head = "Whole calls (issue 16): every answer equal to icepool's as exact fractions.\n\n"
    return head + table([whole_calls.HEAD, *(r.cells() for r in rows)], markdown)


if __name__ == "__main__":
    main()
