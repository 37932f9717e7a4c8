"""Fate advice: the exact odds of spending a fate point, before the player decides.

A fate reroll rolls the same check again and the new result stands, for better
or worse; a luck swap replaces the test with an unmodified LCK test. Either way
the question is how the fresh roll compares with the result showing, so both
advisors read the same exact distribution of (outcome, margin) the roller's
rules produce.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType

from rulebound.core.distribution import Distribution
from rulebound.rulesets.legacy.checks import LegacyResult, luck_request, resolve
from rulebound.rulesets.legacy.odds import kept_face
from rulebound.rulesets.legacy.rules import OUTCOMES, Edge, Outcome, Thresholds, classify, margin

Standing = tuple[int, int]
"""How good a result is: (outcome rank, 0 the worst; margin). Larger is better."""


def standing(outcome: Outcome, signed_margin: int) -> Standing:
    return (len(OUTCOMES) - 1 - OUTCOMES.index(outcome), signed_margin)


@dataclass(frozen=True, slots=True)
class FateAdvice:
    """A fresh roll against the result showing. ``p_better`` counts outcomes only."""

    action: str
    current: Outcome
    current_margin: int
    p_better: Fraction
    """The fresh roll lands on a strictly better outcome (failure -> partial, success -> crit)."""
    p_same: Fraction
    p_worse: Fraction
    p_better_margin: Fraction
    """A better outcome, or the same outcome by a larger margin (for opposed rolls, initiative)."""
    p_success: Fraction
    """The fresh roll passes (a critical success included)."""
    outcomes: Mapping[Outcome, Fraction]

    @property
    def worth_it(self) -> bool:
        """More likely to improve the outcome than to make it worse."""
        return self.p_better > self.p_worse


@cache
def _standings(t: Thresholds, edge: Edge) -> Distribution[Standing]:
    """The exact (outcome rank, margin) of one roll, kept per thresholds and edge as
    ``kept_face`` is per die and edge."""

    def judged(face: int) -> Standing:
        outcome = classify(face, t)
        return standing(outcome, margin(face, t, outcome))

    return kept_face(t.die, edge).map(judged)


@cache
def _against(action: str, t: Thresholds, edge: Edge, current: Outcome, by: int) -> FateAdvice:
    """A fresh roll of ``t`` and ``edge`` against the result showing (``current`` by ``by``),
    kept per the few thresholds a table rolls against: every card of a check that offers a
    fate spend asks again."""
    now = standing(current, by)
    dist = _standings(t, edge)
    by_outcome = dist.map(lambda s: OUTCOMES[len(OUTCOMES) - 1 - s[0]])
    return FateAdvice(
        action=action,
        current=current,
        current_margin=by,
        p_better=dist.probability_where(lambda s: s[0] > now[0]),
        p_same=dist.probability_where(lambda s: s[0] == now[0]),
        p_worse=dist.probability_where(lambda s: s[0] < now[0]),
        p_better_margin=dist.probability_where(lambda s: s > now),
        p_success=by_outcome.probability_where(lambda o: o.passed),
        outcomes=MappingProxyType({o: by_outcome.probability(o) for o in OUTCOMES}),
    )


def fate_reroll_advice(result: LegacyResult) -> FateAdvice:
    """Spend a fate point to reroll this check: the new result replaces this one."""
    return _against("fate reroll", result.thresholds, result.edge, result.outcome, result.margin)


def luck_swap_advice(result: LegacyResult, lck: int) -> FateAdvice:
    """Spend a fate point to take an unmodified LCK test (same scale) instead of this result."""
    test = resolve(luck_request(lck, result.request.scale))
    return _against("luck swap", test.thresholds, test.edge, result.outcome, result.margin)
