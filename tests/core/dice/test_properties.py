"""Properties over random expressions from the grammar: every input parses or is refused by
our own error; what parses prints back to itself; every roll lands in the exact odds'
support; and the exact odds equal brute force over every draw the roller can make (so
their mean does too)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from rulebound.core.dice import DiceLimits, Odds, odds, parse, roll
from rulebound.core.dice.planner import OverBudget, Planner
from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import SeededSource

from ...hunt import examples
from .oracle import TooMany, by_draws
from .strategies import expressions

CHEAP = DiceLimits(max_odds_work=DiceLimits().max_odds_work // 10)
SMALL = DiceLimits(max_explosions=2)
"""Explosions capped at two extra dice, so brute force over the draws stays small."""


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_every_expression_parses_or_is_refused_by_our_own_error(text: str) -> None:
    try:
        parsed = parse(text)
    except RuleboundError:
        return
    assert parse(parsed.text()) == parsed
    assert parse(parsed.text()).text() == parsed.text()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), st.integers(0, 2**32))
def test_rolls_fall_in_the_support_of_the_exact_odds(text: str, seed: int) -> None:
    try:
        parsed = parse(text)
    except RuleboundError:
        assume(False)
        return
    found = odds(parsed)
    assume(isinstance(found, Odds))
    assert isinstance(found, Odds)
    rolled = roll(parsed, SeededSource(seed))
    support = found.distribution()
    assert all(total in support for total in rolled.totals)
    assert sum(support.values()) == 1


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(expressions(small=True))
@example("1d6/2 + 1d6/3")  # sums of fractions, convolved on a grid of sixths
@example("(1d4 + 0.5) * 2 - 1d6/4 + 2d6kh1")
def test_exact_odds_equal_brute_force_over_every_draw(text: str) -> None:
    try:
        parsed = parse(text, limits=SMALL)
    except RuleboundError:
        assume(False)
        return
    found = odds(parsed, SMALL)
    # Refused as too costly to work out (``max_odds_work``): small caps on explosions still
    # let products of pools past it, and the caps' refusals are tested on their own.
    assume(isinstance(found, Odds))
    assert isinstance(found, Odds)
    try:
        brute = by_draws(parsed, SMALL)
    except TooMany:
        assume(False)
        return
    assert found.distribution() == brute
    assert found.mean() == sum((k * p for k, p in brute.items()), Fraction(0))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
@example("4d6kh3")
@example("(2d6kh1, 1d4)kl1 * 2")
def test_a_plan_never_counts_fewer_totals_than_it_yields(text: str) -> None:
    """The cost of what is built on a term is estimated from its count of totals: counted
    short, a product of two kept dice (``2d1000kh1*2d1000kh1``) passed for cheap and ran for
    seconds."""
    try:
        parsed = parse(text)
    except RuleboundError:
        assume(False)
        return
    try:  # the plans a tenth of the cap allows: the invariant, at a tenth of the work
        plan = Planner(CHEAP).plan(parsed.root)
    except OverBudget:
        assume(False)
        return
    assert plan.support >= sum(1 for _, weight in plan.run().items() if weight)
