"""The figures of one line of the ledger (a member, a character, a session, the table).

Everything is worked out from the line's checks, in log order, exactly: the expected
successes are the sum of the chances, ``luckier_than`` is where the actual count lands in
the Poisson-binomial of those chances (``poisson``), and a run's chance is that of a streak
at least as long given the same checks (``runs``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

from rulebound.ledger.checks import Check, Choice
from rulebound.ledger.poisson import standing
from rulebound.ledger.runs import chance_of_run, longest
from rulebound.rulesets.contract import Decision, Outcome

T = TypeVar("T")

BUCKETS = 10
"""Calibration groups checks by chance in steps of a tenth: 0-10%, 10-20%, ..., 90-100%."""


@dataclass(frozen=True, slots=True)
class Bucket:
    """Checks whose chance fell in one tenth: how many succeeded against how many were expected."""

    low: int
    """The chance from (a percentage, included)."""
    high: int
    """The chance to (excluded, but for 100%)."""
    checks: int
    successes: int
    expected: Fraction


@dataclass(frozen=True, slots=True)
class Run:
    """The longest streak of successes (or of failures), and how likely so long a streak was."""

    longest: int
    chance: Fraction
    """P(a run at least ``longest`` long, given these checks in this order)."""


@dataclass(frozen=True, slots=True)
class Tally:
    """One of the game's outcomes: how often it came up against how often it was expected."""

    key: str
    label: str
    success: bool
    critical: bool
    expected: Fraction
    actual: int


@dataclass(frozen=True, slots=True)
class Figure:
    """A game's own named figure (``Chances.extras``) summed over the checks that had it."""

    key: str
    label: str
    kind: str
    total: Fraction
    checks: int


@dataclass(frozen=True, slots=True)
class Bought:
    """What one kind of decision bought, over a line."""

    action: str
    label: str
    taken: int
    measured: int
    """How many of them the game gave the odds of (the rest: unknown)."""
    raised: Fraction
    """The sum over them of (chance after - chance before): expected successes bought."""
    paid: tuple[tuple[str, int], ...]
    successes: int


@dataclass(frozen=True, slots=True)
class Line:
    name: str
    checks: int
    expected: Fraction
    actual: int
    luckier_than: Fraction
    calibration: tuple[Bucket, ...]
    successes: Run
    failures: Run
    outcomes: tuple[Tally, ...]
    figures: tuple[Figure, ...]
    bought: tuple[Bought, ...]
    decisions: tuple[Choice, ...]
    """Each decision that could bear on success, in log order (``bought`` sums them)."""
    curve: tuple[tuple[float, int], ...]
    """After each check, in order: (expected so far, actual so far), for a chart (a float
    is plenty: the exact figures are ``expected`` and ``actual``)."""

    @property
    def criticals(self) -> tuple[Tally, ...]:
        return tuple(t for t in self.outcomes if t.critical)


def line(
    name: str, checks: Sequence[Check], choices: Sequence[Choice] = (), *, curve: bool = False
) -> Line:
    """The figures of ``checks`` (in log order) and ``choices``; ``curve``: with the running
    expected and actual successes, check by check (a session's chart)."""
    chances = [c.chance for c in checks]
    results = [c.succeeded for c in checks]
    actual = sum(results)
    return Line(
        name=name,
        checks=len(checks),
        expected=total(chances),
        actual=actual,
        luckier_than=standing(chances, actual).luckier_than,
        calibration=calibration(checks),
        successes=_run(chances, results, True),
        failures=_run(chances, results, False),
        outcomes=tallies(checks),
        figures=figures(checks),
        bought=bought(choices),
        decisions=tuple(weighed(choices)),
        curve=_curve(checks) if curve else (),
    )


def total(chances: Iterable[Fraction], times: int = 1) -> Fraction:
    """The exact sum (each ``times``), the numerators added per denominator first: a table
    rolls a few checks all night, so there are few denominators and no gcd per term."""
    by_denominator: dict[int, int] = {}
    for p in chances:
        q = p.denominator
        by_denominator[q] = by_denominator.get(q, 0) + p.numerator
    return sum((Fraction(a * times, q) for q, a in by_denominator.items()), Fraction(0))


def _curve(checks: Sequence[Check]) -> tuple[tuple[float, int], ...]:
    expected, actual, out = 0.0, 0, []
    for check in checks:
        expected += float(check.chance)
        actual += check.succeeded
        out.append((expected, actual))
    return tuple(out)


def _run(chances: list[Fraction], results: list[bool], of: bool) -> Run:
    length = longest(results, of)
    return Run(length, chance_of_run(chances, length, of))


def bucket_of(chance: Fraction) -> int:
    return min(int(chance * BUCKETS), BUCKETS - 1)


def calibration(checks: Sequence[Check]) -> tuple[Bucket, ...]:
    counts = [0] * BUCKETS
    hits = [0] * BUCKETS
    chances: list[list[Fraction]] = [[] for _ in range(BUCKETS)]
    for check in checks:
        at = bucket_of(check.chance)
        counts[at] += 1
        hits[at] += check.succeeded
        chances[at].append(check.chance)
    step = 100 // BUCKETS
    return tuple(
        Bucket(i * step, (i + 1) * step, counts[i], hits[i], total(chances[i]))
        for i in range(BUCKETS)
    )


def tallies(checks: Sequence[Check]) -> tuple[Tally, ...]:
    """Each outcome of the game's odds, over the rolls whose card landed on one of them."""
    landed = Counter(check.landed for check in checks if check.outcomes)
    named: dict[tuple[str, str], Outcome] = {}
    sums: dict[tuple[str, str], dict[int, int]] = {}
    for outcomes, times in _per_request(check.outcomes for check in checks):
        for o in outcomes:
            named.setdefault((o.key, o.label), o)
            per = sums.setdefault((o.key, o.label), {})
            q = o.probability.denominator
            per[q] = per.get(q, 0) + o.probability.numerator * times
    return tuple(
        Tally(
            o.key,
            o.label,
            o.success,
            o.critical,
            sum((Fraction(a, q) for q, a in sums[name].items()), Fraction(0)),
            landed[o.key],
        )
        for name, o in named.items()
    )


def _per_request(found: Iterable[tuple[T, ...]]) -> list[tuple[tuple[T, ...], int]]:
    """Each non-empty tuple once, with how many times it came: the checks of one request
    share its tuple (the same object), so a table's few requests are summed once each."""
    rolled: dict[int, tuple[tuple[T, ...], int]] = {}
    for items in found:
        if items:
            seen = rolled.get(id(items))
            rolled[id(items)] = (items, (seen[1] if seen else 0) + 1)
    return list(rolled.values())


def figures(checks: Sequence[Check]) -> tuple[Figure, ...]:
    found: dict[str, Figure] = {}
    for extras, times in _per_request(check.extras for check in checks):
        for extra in extras:
            empty = Figure(extra.key, extra.label, extra.kind, Fraction(0), 0)
            sum_ = found.get(extra.key) or empty
            found[extra.key] = replace(
                sum_, total=sum_.total + extra.value * times, checks=sum_.checks + times
            )
    return tuple(found.values())


def about_success(decision: Decision) -> bool:
    """Whether a decision could bear on success: it rolls, moves the chance, or costs."""
    return decision.rolls or decision.before != decision.after or bool(decision.paid)


def weighed(choices: Sequence[Choice]) -> list[Choice]:
    """The decisions that could bear on success (or whose effect the game does not give)."""
    return [c for c in choices if c.decision is None or about_success(c.decision)]


def bought(choices: Sequence[Choice]) -> tuple[Bought, ...]:
    """Per kind of decision: how many, what they did to the expected successes, the price."""
    groups: dict[str, list[Choice]] = {}
    for choice in weighed(choices):
        groups.setdefault(choice.action, []).append(choice)
    out = []
    for action, taken in groups.items():
        known = [c.decision for c in taken if c.decision is not None]
        paid: dict[str, int] = {}
        for decision in known:
            for what, amount in decision.paid:
                paid[what] = paid.get(what, 0) + amount
        out.append(
            Bought(
                action=action,
                label=taken[0].label,
                taken=len(taken),
                measured=len(known),
                raised=sum((d.after - d.before for d in known), Fraction(0)),
                paid=tuple(paid.items()),
                successes=sum(1 for d in known if d.succeeded),
            )
        )
    return tuple(out)
