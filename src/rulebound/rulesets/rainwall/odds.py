"""Exact odds of a check, without enumerating the 10^n rolls.

The greedy spend only cares how many dice show each face, so the engine walks
the faces 1 to 10 in order (which is also cheapest-failure-first order),
choosing how many of the remaining dice show each face (a binomial weight)
and spending points on them as the greedy would. The state is small (dice
left, raw successes, points left, dice fixed), so n = 10 is instant.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from rulebound.core.distribution import Distribution
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Degree, Options

Outcome = tuple[int, int, int]
"""(successes as rolled, successes after the optimal spend, dice showing 10)."""


State = tuple[int, int, int, int, int]
"""(dice left, raw successes, points left, dice fixed, dice showing 10)."""


@cache
def outcome_distribution(
    dice: int, skill: int, bonus: int, options: Options
) -> Distribution[Outcome]:
    states: dict[State, int] = {(dice, 0, bonus, 0, 0): 1}
    for face in range(1, rules.DIE_SIDES + 1):
        price = rules.cost(face, skill, options)
        following: dict[State, int] = {}
        for (left, raw, points, fixed, tens), weight in states.items():
            # the last face takes every die still unassigned
            for count in range(left + 1) if face < rules.DIE_SIDES else (left,):
                if price == 0:
                    raw_next, points_next, fixed_next = raw + count, points, fixed
                elif price is None:  # no success face exists to move these dice to
                    raw_next, points_next, fixed_next = raw, points, fixed
                else:
                    bought = min(count, points // price)
                    raw_next, points_next, fixed_next = raw, points - bought * price, fixed + bought
                tens_next = count if face == rules.FLUB_FACE else tens
                state = (left - count, raw_next, points_next, fixed_next, tens_next)
                following[state] = following.get(state, 0) + weight * comb(left, count)
        states = following
    weights: dict[Outcome, int] = {}
    for (_, raw, _, fixed, tens), weight in states.items():
        outcome = (raw, raw + fixed, tens)
        weights[outcome] = weights.get(outcome, 0) + weight
    return Distribution(weights)


@dataclass(frozen=True, slots=True)
class RainwallOdds:
    """Exact odds of one request: counts before and after the spend, IoS and degrees."""

    request: RainwallRequest
    raw_successes: dict[int, Fraction]
    successes: dict[int, Fraction]
    ios: dict[int, Fraction]
    degrees: dict[Degree, Fraction]
    p_success: Fraction


def degree_of(request: RainwallRequest, outcome: Outcome) -> Degree:
    raw, after, ten_count = outcome
    flubbed = rules.is_flub(request.dice, request.skill, ten_count)
    return rules.degree(raw, after, request.dr, flubbed, request.options)


def check_odds(request: RainwallRequest) -> RainwallOdds:
    outcomes = outcome_distribution(request.dice, request.skill, request.bonus, request.options)
    opts, dr = request.options, request.dr
    degrees = outcomes.map(lambda o: degree_of(request, o)).probabilities()
    every_degree = {d: degrees.get(d, Fraction(0)) for d in Degree}
    return RainwallOdds(
        request=request,
        raw_successes=outcomes.map(lambda o: o[0]).probabilities(),
        successes=outcomes.map(lambda o: o[1]).probabilities(),
        ios=outcomes.map(lambda o: rules.ios(o[1], dr, opts)).probabilities(),
        degrees=every_degree,
        p_success=sum((p for d, p in every_degree.items() if d.succeeded), Fraction(0)),
    )
