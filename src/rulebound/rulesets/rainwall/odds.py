"""Exact odds of a check, without enumerating the 10^n rolls.

The greedy spend only cares how many dice show each face, so the engine walks
the faces in ascending order (which is also cheapest-failure-first order),
choosing how many of the remaining dice show each face (a binomial weight)
and spending points on them as the greedy would. Faces the spend treats alike
are walked as one class of ``w`` faces (weight ``comb(left, k) * w**k``): every
success face below 10, and every failure below 10 that the bonus can never
fix. Face 10 is its own class wherever the flub rule can count it. Once the
points left cannot buy the next class (prices only rise), the remaining dice
are placed in one step. The state is small (dice left, raw successes, points
left, dice fixed, tens), so n = 10 is instant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from types import MappingProxyType

from rulebound.core.distribution import Distribution
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Degree, Options

Outcome = tuple[int, int, int]
"""(successes as rolled, successes after the optimal spend, dice showing 10)."""


State = tuple[int, int, int, int, int]
"""(dice left, raw successes, points left, dice fixed, dice showing 10)."""

FaceClass = tuple[int, int | None, bool]
"""(how many faces, the price to fix one (0 a success, None never), whether they are 10s)."""


@cache
def face_classes(
    skill: int, bonus: int, options: Options, count_tens: bool = True
) -> tuple[FaceClass, ...]:
    """The faces in ascending order, merged where the greedy spend cannot tell them apart.

    Face 10 keeps a class of its own when ``count_tens`` (the outcome reports it);
    otherwise it joins its like, being the dearest face, so the order still holds.
    """
    free = unfixable = 0
    fixable: list[FaceClass] = []
    last = rules.DIE_SIDES - 1 if count_tens else rules.DIE_SIDES
    for face in range(1, last + 1):
        price = rules.cost(face, skill, options)
        if price == 0:
            free += 1
        elif price is None or price > bonus:
            unfixable += 1
        else:
            fixable.append((1, price, False))
    classes = [(free, 0, False), *fixable, (unfixable, None, False)]
    if count_tens:
        classes.append((1, rules.cost(rules.FLUB_FACE, skill, options), True))
    return tuple(c for c in classes if c[0])


@cache
def outcome_weights(
    dice: int,
    skill: int,
    bonus: int,
    options: Options,
    count_tens: bool = True,
    split_raw: bool = True,
) -> Mapping[Outcome, int]:
    """How many of the 10^dice rolls give each outcome.

    Tens are reported as 0 unless ``count_tens``; without ``split_raw`` the rolled
    successes are not told apart from the bought ones (raw is reported as 0),
    which is all P(success) needs and leaves fewer states to walk.
    """
    states: dict[State, int] = {(dice, 0, bonus, 0, 0): 1}
    classes = face_classes(skill, bonus, options, count_tens)
    for index, (width, price, tens_class) in enumerate(classes):
        last = index == len(classes) - 1
        rest = sum(c[0] for c in classes[index:])
        following: dict[State, int] = {}
        for (left, raw, points, fixed, tens), weight in states.items():
            if price and left and points < price and not count_tens:
                # the points left buy nothing from here on (prices only rise): the
                # remaining dice fall anywhere in the remaining faces, all alike
                state = (0, raw, points, fixed, tens)
                following[state] = following.get(state, 0) + weight * rest**left
                continue
            # the last class takes every die still unassigned
            for count in (left,) if last else range(left + 1):
                if price == 0:
                    if split_raw:
                        raw_next, points_next, fixed_next = raw + count, points, fixed
                    else:
                        raw_next, points_next, fixed_next = raw, points, fixed + count
                elif price is None:  # no number of points fixes these dice
                    raw_next, points_next, fixed_next = raw, points, fixed
                else:
                    bought = min(count, points // price)
                    raw_next, points_next, fixed_next = raw, points - bought * price, fixed + bought
                tens_next = count if tens_class else tens
                state = (left - count, raw_next, points_next, fixed_next, tens_next)
                ways = comb(left, count) * width**count
                following[state] = following.get(state, 0) + weight * ways
        states = following
    weights: dict[Outcome, int] = {}
    for (_, raw, _, fixed, tens), weight in states.items():
        outcome = (raw, raw + fixed, tens)
        weights[outcome] = weights.get(outcome, 0) + weight
    return MappingProxyType(weights)  # cached, so read-only


@cache
def outcome_distribution(
    dice: int, skill: int, bonus: int, options: Options
) -> Distribution[Outcome]:
    return Distribution(outcome_weights(dice, skill, bonus, options))


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


def success_chance(request: RainwallRequest) -> Fraction:
    """P(success) alone, in one pass (what a designer table needs).

    Only the final count and, where the flub rule can read them, the tens matter:
    any count that reaches the DR succeeds, bought or rolled.
    """
    dice, skill, dr, opts = request.dice, request.skill, request.dr, request.options
    flub_possible = dice == rules.FLUB_TRAIT and skill == rules.FLUB_SKILL
    weights = outcome_weights(dice, skill, request.bonus, opts, flub_possible, split_raw=False)
    hits = 0
    for (_, after, tens), weight in weights.items():
        flubbed = rules.is_flub(dice, skill, tens)
        if rules.degree(after, after, dr, flubbed, opts).succeeded:
            hits += weight
    return Fraction(hits, rules.DIE_SIDES**dice)
