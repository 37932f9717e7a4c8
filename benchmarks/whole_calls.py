"""The whole calls of issue 16: whole processes, large pools, extended checks, roll rates.

Each row is a question a user asks whole, answered by rulebound and by a peer, with
the answers compared as exact ``Fraction``s before anything is timed (a disagreement
stops the run). Every timing is a ratio: rulebound's time over the peer's (under 1 is
faster), or, for the roll rates, rulebound's rate over ``d20.roll('7d10')``'s.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Row:
    measure: str
    ours: str
    peer: str
    ratio: float | None
    goal: str
    met: bool

    def cells(self) -> list[str]:
        ratio = "" if self.ratio is None else f"{self.ratio:.2g}"
        return [
            self.measure,
            self.ours,
            self.peer,
            ratio,
            self.goal,
            "met" if self.met else "missed",
        ]


HEAD = ["measure", "rulebound", "peer", "ratio", "goal", "goal met"]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


# --- whole processes ---------------------------------------------------------------------


def _processes(commands: list[list[str]], runs: int) -> list[tuple[float, str]]:
    """Median wall time of ``runs`` fresh processes of each command, and its last output.

    The commands take turns, so the machine's load (other work on the same cores)
    falls on each of them alike."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    samples: list[list[float]] = [[] for _ in commands]
    outputs = [""] * len(commands)
    for _ in range(runs):
        for i, argv in enumerate(commands):
            begun = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
            samples[i].append(time.perf_counter() - begun)
            outputs[i] = done.stdout
    return [(statistics.median(s), out) for s, out in zip(samples, outputs, strict=True)]


IMPORT_TIMER = (
    "import time; t = time.perf_counter(); import {modules}; print(time.perf_counter() - t)"
)


def import_row(runs: int) -> Row:
    """Seconds to import each in a fresh interpreter, as the interpreter itself times it
    (its start-up aside), median of ``runs`` interleaved pairs."""
    timer = [sys.executable, "-c"]
    ours_s, floor_s = [], []
    for _ in range(runs):  # interleaved, as in ``_processes``
        (_, ours_out), (_, floor_out) = _processes(
            [
                [*timer, IMPORT_TIMER.format(modules="rulebound.cli.app")],
                [*timer, IMPORT_TIMER.format(modules="typer, pydantic")],
            ],
            1,
        )
        ours_s.append(float(ours_out))
        floor_s.append(float(floor_out))
    ours, floor = statistics.median(ours_s), statistics.median(floor_s)
    return Row(
        "`import rulebound.cli.app` vs `import typer, pydantic`",
        ms(ours),
        ms(floor),
        ours / floor,
        "at most 1.3",
        ours / floor <= 1.3,
    )


ICEPOOL_EMPTY_REACH = """
import json
from fractions import Fraction
import icepool
def hits(f):
    return 2 if f >= 10 else 1 if f >= 6 else 0
d = icepool.map(lambda a, b: hits(a) + hits(b), icepool.d8, icepool.d10)
n = d.denominator()
print(json.dumps({
    "p_success": str(Fraction(d.probability(">=", 1))),
    "successes": {str(k): str(Fraction(q, n)) for k, q in d.items()},
    "expected_successes": str(Fraction(d.mean())),
}))
"""
CLI_ARGS = ["odds", "empty-reach", "--attribute", "D8", "--skill", "D10", "--json"]


def _rulebound_command() -> list[str]:
    script = Path(sys.executable).with_name("rulebound")
    if script.exists():
        return [str(script)]
    found = shutil.which("rulebound")
    return [found] if found else [sys.executable, "-m", "rulebound.cli"]


def _fractions(answer: Mapping[str, Any]) -> tuple[Fraction, dict[int, Fraction], Fraction]:
    successes = {int(k): Fraction(v) for k, v in answer["successes"].items() if Fraction(v)}
    return Fraction(answer["p_success"]), successes, Fraction(answer["expected_successes"])


def process_row(runs: int) -> Row:
    (ours, ours_out), (peer, peer_out) = _processes(
        [[*_rulebound_command(), *CLI_ARGS], [sys.executable, "-c", ICEPOOL_EMPTY_REACH]], runs
    )
    if _fractions(json.loads(ours_out)) != _fractions(json.loads(peer_out)):
        raise SystemExit("whole process: rulebound odds empty-reach disagrees with icepool")
    ratio = ours / peer
    return Row(
        "`rulebound " + " ".join(CLI_ARGS) + "`, whole process vs icepool's whole process",
        ms(ours),
        ms(peer),
        ratio,
        "at most 2 (stretch 1)",
        ratio <= 2,
    )


def bytecode_row(runs: int) -> Row:
    """The same command with rulebound's bytecode compiled (``scripts/install``) against a
    copy of the package with none, never written (what a fresh ``pip install -e`` pays on
    every call until something compiles it; the dependencies are compiled either way)."""
    import tempfile

    package = Path(__import__("rulebound").__file__).resolve().parent
    main = [sys.executable, "-c", "import rulebound.cli.app as a; a.main()", *CLI_ARGS]
    with tempfile.TemporaryDirectory() as bare:
        shutil.copytree(package, Path(bare) / "rulebound", ignore=shutil.ignore_patterns("*.pyc"))
        bare_env = {**os.environ, "PYTHONPATH": bare, "PYTHONDONTWRITEBYTECODE": "1"}
        samples: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(runs):  # interleaved, so that the machine's load hits both alike
            for built, env in ((True, dict(os.environ)), (False, bare_env)):
                begun = time.perf_counter()
                subprocess.run(main, capture_output=True, check=True, env=env)
                samples[built].append(time.perf_counter() - begun)
    compiled, uncompiled = (statistics.median(samples[b]) for b in (True, False))
    return Row(
        "the same process, rulebound's bytecode compiled at install vs none",
        ms(compiled),
        ms(uncompiled),
        compiled / uncompiled,
        "compiled at install",
        compiled < uncompiled,
    )


# --- Rainwall pools ----------------------------------------------------------------------

POOL_SKILL, POOL_BONUS = 5, 3


def _icepool_pool(dice: int) -> dict[int, Fraction]:
    import icepool

    class Spend(icepool.MultisetEvaluator):  # type: ignore[misc]
        """Rainwall's greedy spend over the sorted faces (the Q2 evaluator)."""

        def next_state(self, state: Any, order: Any, face: int, count: int) -> Any:
            if order != icepool.Order.Ascending:
                raise icepool.UnsupportedOrder()
            total, left = state or (0, POOL_BONUS)
            if face <= POOL_SKILL:
                return (total + count, left)
            fixed = min(count, left // (face - POOL_SKILL))
            return (total + fixed, left - fixed * (face - POOL_SKILL))

        def final_outcome(self, state: Any, *_: Any) -> int:
            return int(state[0])

    totals = Spend().evaluate(icepool.d10.pool(dice))
    return {k: Fraction(q, totals.denominator()) for k, q in totals.items()}


def _rulebound_pool(dice: int) -> dict[int, Fraction]:
    from rulebound.rulesets.rainwall.odds import pool_odds

    odds = pool_odds(dice, POOL_SKILL, max(dice // 2, 1), POOL_BONUS)
    return {k: p for k, p in odds.successes.items() if p}


def best_of(solve: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        begun = time.perf_counter()
        solve()
        times.append(time.perf_counter() - begun)
    return min(times)


def pool_rows(sizes: tuple[int, ...], repeat: int) -> list[Row]:
    rows = []
    for dice in sizes:
        begun = time.perf_counter()
        theirs = _icepool_pool(dice)  # once: icepool grows about n^3 (35 s at 320 dice)
        peer = time.perf_counter() - begun
        if _rulebound_pool(dice) != theirs:
            raise SystemExit(f"Rainwall pool of {dice}: rulebound disagrees with icepool")
        ours = best_of(lambda d=dice: _rulebound_pool(d), repeat)  # type: ignore[misc]
        rows.append(
            Row(
                f"Rainwall pool of {dice} dice (skill {POOL_SKILL}, bonus {POOL_BONUS}), "
                "successes after the spend",
                ms(ours),
                ms(peer),
                ours / peer,
                "under 0.2",
                ours / peer < 0.2,
            )
        )
    return rows


# --- Legacy extended checks --------------------------------------------------------------

EXTENDED_TARGET, EXTENDED_BONUS = 10, 1


def _legacy_setup() -> tuple[Any, Callable[[int], tuple[int, int]]]:
    from rulebound.rulesets.legacy.checks import CheckRequest, resolve
    from rulebound.rulesets.legacy.rules import classify, weighted_margin

    req = CheckRequest(target=EXTENDED_TARGET, bonus=EXTENDED_BONUS)
    t = resolve(req).thresholds

    def tally(face: int) -> tuple[int, int]:
        o = classify(face, t)
        m = weighted_margin(face, t, o)
        return (m, 0) if o.passed else (0, -m)

    return req, tally


def _rulebound_extended(success: int, failure: int, rolls: int) -> dict[str, Fraction]:
    from rulebound.rulesets.legacy.extended import ExtendedSpec
    from rulebound.rulesets.legacy.odds import extended_chances

    req, _ = _legacy_setup()
    spec = ExtendedSpec(success_threshold=success, failure_threshold=failure, max_rolls=rolls)
    return {k.value: v for k, v in extended_chances(req, spec).items()}


def _icepool_extended(success: int, failure: int, rolls: int) -> dict[str, Fraction]:
    """icepool's answer: a state machine of the two tallies, ``map(..., repeat=rolls)``.

    Where neither threshold can be reached in ``rolls`` rolls (threshold 10,000), the
    states would be every pair of sums; only the difference decides then, and icepool
    sums ``rolls`` copies of the one-roll difference instead.
    """
    import icepool

    _, tally = _legacy_setup()
    steps = [tally(face) for face in range(1, 21)]
    if rolls * max(u for u, _ in steps) < success and rolls * max(d for _, d in steps) < failure:
        diff = rolls @ icepool.d20.map(lambda f: steps[f - 1][0] - steps[f - 1][1])
        ahead = Fraction(diff.probability(">", 0))
        return {
            "succeeded": Fraction(0),
            "failed": Fraction(0),
            "partial success available": ahead,
            "ran out of rolls": 1 - ahead,
        }

    def step(state: tuple[int, int], face: int) -> tuple[int, int]:
        s, f = state
        if s >= success or f >= failure:
            return state
        up, down = steps[face - 1]
        return (min(s + up, success), min(f + down, failure))

    end = icepool.map(step, (0, 0), icepool.d20, repeat=rolls)
    n = end.denominator()

    def share(test: Callable[[int, int], bool]) -> Fraction:
        return Fraction(sum(q for (s, f), q in end.items() if test(s, f)), n)

    return {
        "succeeded": share(lambda s, f: s >= success),
        "failed": share(lambda s, f: s < success and f >= failure),
        "partial success available": share(lambda s, f: s < success and f < failure and s > f),
        "ran out of rolls": share(lambda s, f: s < success and f < failure and s <= f),
    }


def extended_rows(cases: tuple[tuple[int, int, int], ...], repeat: int) -> list[Row]:
    rows = []
    for success, failure, rolls in cases:
        begun = time.perf_counter()
        theirs = _icepool_extended(success, failure, rolls)
        peer = time.perf_counter() - begun
        if _rulebound_extended(success, failure, rolls) != theirs:
            raise SystemExit(f"Legacy extended {success}/{failure}: rulebound disagrees")
        case = (success, failure, rolls)
        ours = best_of(lambda case=case: _rulebound_extended(*case), repeat)  # type: ignore[misc]
        rows.append(
            Row(
                f"Legacy extended check, thresholds {success:,}/{failure:,}, {rolls} rolls "
                f"(target {EXTENDED_TARGET}, bonus {EXTENDED_BONUS})",
                ms(ours),
                ms(peer),
                ours / peer,
                "under 100 ms",
                ours < 0.1,
            )
        )
    return rows


# --- Ghostburn gear cap ------------------------------------------------------------------


def _ghostburn_gear(count: int) -> Any:
    from rulebound.rulesets import forms
    from rulebound.rulesets.registry import get_game
    from rulebound.rulesets.variants import resolve

    game = get_game("ghostburn")
    raw = {"dl": 12, "ability_score": 2, "gear": [f"item{i}={1 + i % 5}" for i in range(count)]}
    return game.chances(game.request(forms.read(game.fields, raw), resolve(game.variants, {})))


def gear_row() -> Row:
    """The largest list the cap accepts, answered and checked; one more item is refused."""
    import icepool

    from rulebound.core.errors import InvalidInput
    from rulebound.core.limits import DEFAULT_LIMITS

    cap = DEFAULT_LIMITS.max_list_items
    chances = _ghostburn_gear(cap)  # the first call loads the game's content
    ours = best_of(lambda: _ghostburn_gear(cap), 3)
    dl = 12
    total = 2 @ icepool.d10 + 2 + 5  # the best gear bonus applies (gear does not stack)
    if chances.success != Fraction(total.probability(">=", dl)):
        raise SystemExit("Ghostburn gear: rulebound disagrees with icepool")
    try:
        _ghostburn_gear(cap + 1)
    except InvalidInput as exc:
        refused = str(exc)
    else:
        raise SystemExit(f"Ghostburn gear: {cap + 1} items were not refused")
    return Row(
        f"Ghostburn odds with {cap} gear items (the cap); {cap + 1} refused: `{refused}`",
        ms(ours),
        "",
        None,
        "K capped, clear error",
        "gear" in refused and str(cap) in refused,
    )


# --- roll rates --------------------------------------------------------------------------

RAW_CHECKS: dict[str, dict[str, Any]] = {
    "rainwall": {"dice": 7, "skill": 5, "dr": 4, "bonus": 3},
    "ghostburn": {"dl": 12, "ability_score": 3, "skill_bonus": 2, "gear": ["scope=2"]},
    "legacy": {"target": 12, "bonus": 1},
    "empty-reach": {"attribute_die": "D8", "skill_die": "D10"},
}


def _per_second(roll: Callable[[], object], seconds: float) -> float:
    roll()
    begun = time.perf_counter()
    roll()
    once = max(time.perf_counter() - begun, 1e-7)
    number = max(1, int(seconds / 3 / once))
    return number / min(timeit.Timer(roll).repeat(repeat=3, number=number))


def _paired_per_second(
    ours: Callable[[], object], peer: Callable[[], object], seconds: float, rounds: int = 3
) -> tuple[float, float]:
    """Each one's best rate over ``rounds`` turns, the two taking turns, so that the
    machine's load (other work on the same cores) falls on both alike."""
    best_ours = best_peer = 0.0
    for _ in range(rounds):
        best_peer = max(best_peer, _per_second(peer, seconds / rounds / 2))
        best_ours = max(best_ours, _per_second(ours, seconds / rounds / 2))
    return best_ours, best_peer


def rate_rows(seconds: float) -> list[Row]:
    """Checks per second, from the raw form to the result with its full trace, vs d20
    (measured in turns with each game's checks)."""
    import d20

    from rulebound.core.random_source import SeededSource
    from rulebound.rulesets import forms
    from rulebound.rulesets.registry import get_game
    from rulebound.rulesets.variants import resolve

    def bare() -> object:
        return d20.roll("7d10")

    source = SeededSource(2024)
    rows = []
    for key, raw in RAW_CHECKS.items():
        game = get_game(key)
        variants = resolve(game.variants, {})

        def check(game: Any = game, raw: dict[str, Any] = raw, variants: Any = variants) -> None:
            result = game.roll(game.request(forms.read(game.fields, raw), variants), source)
            if game.key == "empty-reach":  # push when the rules allow it
                chosen = result.default_reroll() or result.rerollable()
                if chosen:
                    game.follow(result, "push", {"reroll": chosen}, source)

        rate, peer = _paired_per_second(check, bare, 2 * seconds)
        what = " + push" if key == "empty-reach" else ""
        rows.append(
            Row(
                f"{game.title}{what}: form parsed, rolled, full trace, per second "
                "vs `d20.roll('7d10')`",
                f"{rate:,.0f}/s",
                f"{peer:,.0f}/s",
                rate / peer,
                "at least 1.0",
                rate >= peer,
            )
        )
    return rows


def brute_force_check() -> None:
    """A small pool and extended check by brute force, so the engines stay honest here too."""
    from questions import greedy_total
    from rulebound.rulesets.rainwall.odds import pool_odds

    dice = 4
    counts: dict[int, int] = {}
    for faces in product(range(1, 11), repeat=dice):
        total = greedy_total(tuple(sorted(faces)), POOL_SKILL, POOL_BONUS)
        counts[total] = counts.get(total, 0) + 1
    want = {k: Fraction(v, 10**dice) for k, v in counts.items()}
    got = {k: p for k, p in pool_odds(dice, POOL_SKILL, 2, POOL_BONUS).successes.items() if p}
    if got != want:
        raise SystemExit("Rainwall pool of 4: rulebound disagrees with brute force")
