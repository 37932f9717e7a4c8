"""The exact odds of an expression, and the one-line preview the table and Discord show.

``odds`` plans the whole computation first (``planner``); when the estimate stays within
the caps it runs it and answers ``Odds`` (integer weights, made into ``Fraction``s only when
read), else ``NotComputed`` with the reason, and the roll goes ahead without odds. The
total is truncated toward zero, as d20 reports totals (``15/2`` is 7).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from rulebound.core.dice.counts import Weights, mapped
from rulebound.core.dice.limits import DEFAULT_LIMITS, DiceLimits
from rulebound.core.dice.nodes import COMPARATORS, Binary, Count, Expression, unwrap
from rulebound.core.dice.planner import OverBudget, Planner

MAX_SHOWN_DIGITS = 12
"""A fraction is shown whole in a preview line only up to this many digits."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Every total an expression can give, with its exact chance."""

    expression: Expression
    kind: str
    """"total"; "count" (success counting: the total is how many dice met the target);
    "comparison" (the total is 1 for a success, 0 for a failure)."""
    weights: Weights
    notes: tuple[str, ...] = ()
    """Where a tail was cut (explosions stop at their cap, as the roll does)."""

    def items(self) -> Iterator[tuple[int, int]]:
        """(total, weight) from the lowest total; the weights add up to ``denominator``."""
        return ((int(v), w) for v, w in self.weights.items())

    @property
    def denominator(self) -> int:
        return self.weights.total

    def distribution(self) -> dict[int, Fraction]:
        total = self.weights.total
        return {value: Fraction(weight, total) for value, weight in self.items()}

    def probability(self, total: int) -> Fraction:
        return Fraction(dict(self.items()).get(total, 0), self.weights.total)

    def at_least(self, total: int) -> Fraction:
        return Fraction(sum(w for v, w in self.items() if v >= total), self.weights.total)

    def mean(self) -> Fraction:
        return self.weights.mean()

    def bounds(self) -> tuple[int, int]:
        low, high = self.weights.bounds()
        return int(low), int(high)

    def line(self) -> str:
        """The odds in one line: the success chance of a comparison, else the average, the
        range and P(total >= the average, rounded up); then any notes."""
        each = " (each roll)" if self.expression.repeat > 1 else ""
        notes = "".join(f"; {note}" for note in self.notes)
        return f"{self.expression.text()}: {self._summary()}{each}{notes}"

    def _summary(self) -> str:
        low, high = self.bounds()
        if self.kind == "comparison" or (self.kind == "count" and high <= 1):
            return f"P(success) = {chance(self.at_least(1))}"
        mean = self.mean()
        target = math.ceil(mean)
        if self.kind == "count":
            tail = f"P(at least 1 success) = {chance(self.at_least(1))}"
            if target > 1:
                tail += f", P(at least {target}) = {chance(self.at_least(target))}"
            return f"average {float(mean):.2f} successes, {low} to {high}; {tail}"
        tail = f"P(total ≥ {target}) = {chance(self.at_least(target))}"
        return f"average {float(mean):.2f}, {low} to {high}; {tail}"


@dataclass(frozen=True, slots=True)
class NotComputed:
    """An expression that rolls, but whose exact odds would cost more than the caps allow."""

    expression: Expression
    reason: str

    def line(self) -> str:
        return f"{self.expression.text()}: odds not computed: {self.reason}"


def chance(p: Fraction) -> str:
    """A chance as a fraction (when short enough to read) and a percentage."""
    if len(str(p.denominator)) <= MAX_SHOWN_DIGITS:
        return f"{p.numerator}/{p.denominator} ({float(p):.1%})"
    return f"{float(p):.3%}"


def kind_of(expression: Expression) -> str:
    root = unwrap(expression.root)
    if isinstance(root, Count):
        return "count"
    if isinstance(root, Binary) and root.op in COMPARATORS:
        return "comparison"
    return "total"


class _Recent:
    """The odds of the last expressions asked for (a table previews an expression as it is
    typed, then rolls it), kept up to ``MAX_OUTCOMES`` outcomes in all, so the memory they
    take stays bounded (a few tens of megabytes at most)."""

    MAX_OUTCOMES = 200_000
    MAX_ONE = 20_000

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[Expression, DiceLimits], Odds | NotComputed] = OrderedDict()
        self.outcomes = 0
        self.lock = threading.Lock()

    def get(self, key: tuple[Expression, DiceLimits]) -> Odds | NotComputed | None:
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
            return found

    def put(self, key: tuple[Expression, DiceLimits], found: Odds | NotComputed) -> None:
        size = _size(found)
        if size > self.MAX_ONE:
            return
        with self.lock:
            if key in self.kept:
                return
            self.kept[key] = found
            self.outcomes += size
            while self.outcomes > self.MAX_OUTCOMES:
                _, dropped = self.kept.popitem(last=False)
                self.outcomes -= _size(dropped)


def _size(found: Odds | NotComputed) -> int:
    return found.weights.support() if isinstance(found, Odds) else 1


_RECENT = _Recent()


def odds(expression: Expression, limits: DiceLimits = DEFAULT_LIMITS) -> Odds | NotComputed:
    """The exact distribution of one roll of ``expression`` (each repeat has the same), or
    why it was not worked out. Nothing is computed unless the estimate fits the caps."""
    key = (expression, limits)
    found = _RECENT.get(key)
    if found is None:
        found = _odds(expression, limits)
        _RECENT.put(key, found)
    return found


def _odds(expression: Expression, limits: DiceLimits) -> Odds | NotComputed:
    planner = Planner(limits)
    try:
        plan = planner.finish(planner.plan(expression.root))
    except OverBudget as exc:
        return NotComputed(expression, str(exc))
    weights = plan.run()
    if not plan.integral:
        weights = mapped(weights, math.trunc)
    return Odds(expression, kind_of(expression), weights, tuple(dict.fromkeys(plan.notes)))


def preview(expression: Expression, limits: DiceLimits = DEFAULT_LIMITS) -> str:
    """The odds line a table shows before a roll (or why there is none)."""
    return odds(expression, limits).line()
