"""Fate advice: the exact odds of spending a fate point, before the player decides.

A fate reroll rolls the same check again and the new result stands, for better
or worse; a luck swap replaces the test with an unmodified LCK test. Either way
the question is how the fresh roll compares with the result showing, so both
advisors read the same exact distribution of (outcome, margin) the roller's
rules produce.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulebound.core.distribution import Distribution
from rulebound.rulesets.legacy.checks import CheckRequest, LegacyResult, luck_request, resolve
from rulebound.rulesets.legacy.odds import kept_face
from rulebound.rulesets.legacy.rules import OUTCOMES, Outcome, classify, margin

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
    outcomes: dict[Outcome, Fraction]

    @property
    def worth_it(self) -> bool:
        """More likely to improve the outcome than to make it worse."""
        return self.p_better > self.p_worse


def fresh_roll(req: CheckRequest) -> Distribution[Standing]:
    """The exact (outcome rank, margin) of one roll of ``req``."""
    res = resolve(req)
    t = res.thresholds

    def judged(face: int) -> Standing:
        outcome = classify(face, t)
        return standing(outcome, margin(face, t, outcome))

    return kept_face(t.die, res.edge).map(judged)


def _advice(action: str, result: LegacyResult, req: CheckRequest) -> FateAdvice:
    now = standing(result.outcome, result.margin)
    dist = fresh_roll(req)
    by_outcome = dist.map(lambda s: OUTCOMES[len(OUTCOMES) - 1 - s[0]])
    return FateAdvice(
        action=action,
        current=result.outcome,
        current_margin=result.margin,
        p_better=dist.probability_where(lambda s: s[0] > now[0]),
        p_same=dist.probability_where(lambda s: s[0] == now[0]),
        p_worse=dist.probability_where(lambda s: s[0] < now[0]),
        p_better_margin=dist.probability_where(lambda s: s > now),
        p_success=by_outcome.probability_where(lambda o: o.passed),
        outcomes={o: by_outcome.probability(o) for o in OUTCOMES},
    )


def fate_reroll_advice(result: LegacyResult) -> FateAdvice:
    """Spend a fate point to reroll this check: the new result replaces this one."""
    return _advice("fate reroll", result, result.request)


def luck_swap_advice(result: LegacyResult, lck: int) -> FateAdvice:
    """Spend a fate point to take an unmodified LCK test (same scale) instead of this result."""
    return _advice("luck swap", result, luck_request(lck, result.request.scale))
