"""Exact odds of a check, without enumerating the 10^n rolls.

The greedy spend only cares how many dice show each face, and it buys the
cheapest failures first, so what a roll scores depends on three counts: the
dice showing a success face (``raw``), the dice it fixes with the bonus
(``fixed``, never more than the bonus), and, for the flub rule only, the tens.

**Pools** (``pool_weights``, any number of dice). The ``r`` dice on success
faces weigh ``comb(n, r) * free**r``; the other ``m = n - r`` dice fall on the
failure faces, and how many of those the greedy fixes is counted once for
every ``m`` at the same time (``_fixed_counts``): walk the fixable faces in
price order with ``L`` dice left and ``P`` points left, putting ``x`` of the
``L`` dice on the face; once a face holds more dice than ``P`` buys, or ``P``
buys nothing more, the dice left fall anywhere in one step. The tables are
indexed by ``(face, P)`` and hold every ``L``, so the whole pool costs about
``n * bonus**2`` big-integer steps plus ``n * bonus`` to combine: 320 dice in
milliseconds, where enumerating counts per face grows like ``n**3``.

**Tens** (``outcome_weights``, a request's ten dice at most). Where the flub
rule can count tens, the engine walks classes of faces in ascending order
with the tens kept apart: every success face below 10 is one class of ``w``
faces (weight ``comb(left, k) * w**k``), every failure the bonus can never fix
another, and face 10 its own; once the points left cannot buy the next class,
the remaining dice are placed in one step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from types import MappingProxyType

from rulebound.core.distribution import Distribution, exact
from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.rulesets.contract import Breakdown, Chances, Extra
from rulebound.rulesets.contract import Outcome as Named
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Degree, Options

Outcome = tuple[int, int, int]
"""(successes as rolled, successes after the optimal spend, dice showing 10)."""


State = tuple[int, int, int, int, int]
"""(dice left, raw successes, points left, dice fixed, dice showing 10)."""

FaceClass = tuple[int, int | None, bool]
"""(how many faces, the price to fix one (0 a success, None never), whether they are 10s)."""


def _sort_faces(
    skill: int, bonus: int, options: Options, last: int
) -> tuple[int, tuple[int, ...], int]:
    """Faces 1 to ``last`` by ``rules.cost``: how many succeed as rolled, the price of each
    one that ``bonus`` points can fix (in face order), and how many they never can."""
    free = unfixable = 0
    prices: list[int] = []
    for face in range(1, last + 1):
        price = rules.cost(face, skill, options)
        if price == 0:
            free += 1
        elif price is None or price > bonus:
            unfixable += 1
        else:
            prices.append(price)
    return free, tuple(prices), unfixable


@cache
def face_classes(
    skill: int, bonus: int, options: Options, count_tens: bool = True
) -> tuple[FaceClass, ...]:
    """The faces in ascending order, merged where the greedy spend cannot tell them apart.

    Face 10 keeps a class of its own when ``count_tens`` (the outcome reports it);
    otherwise it joins its like, being the dearest face, so the order still holds.
    """
    last = rules.DIE_SIDES - 1 if count_tens else rules.DIE_SIDES
    free, prices, unfixable = _sort_faces(skill, bonus, options, last)
    fixable = [(1, price, False) for price in prices]
    classes: list[FaceClass] = [(free, 0, False), *fixable, (unfixable, None, False)]
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


# pools ---------------------------------------------------------------------------------

Pair = tuple[int, int]
"""(successes as rolled, successes after the optimal spend)."""


@cache
def pool_faces(skill: int, bonus: int, options: Options) -> tuple[int, tuple[int, ...], int]:
    """(success faces, the prices of the faces the bonus can fix in ascending order, the
    failure faces it never can), read from ``rules.cost`` face by face."""
    return _sort_faces(skill, bonus, options, rules.DIE_SIDES)


def _fixed_counts(
    prices: tuple[int, ...], unfixable: int, bonus: int, most: int
) -> list[list[int]]:
    """``counts[m][f]``: how many ways ``m`` dice on failure faces leave the greedy spend
    ``f`` of them fixed, for every ``m`` up to ``most`` at once.

    ``table(c, points)[L]`` counts the ways ``L`` dice fall on the failure faces from the
    ``c``-th fixable one on, by the dice fixed among them. A face holding more dice than
    the points buy ends the buying (what is left cannot buy a dearer face), as does a
    face the points cannot buy at all: the rest of the dice then fall anywhere at once.
    """
    memo: dict[tuple[int, int], list[list[int]]] = {}
    classes = len(prices)
    binomials = [[1]]  # binomials[left][x] for x up to the bonus: no face takes more fixes
    for left in range(1, most + 1):
        above = binomials[-1]
        row = [1] + [above[x - 1] + above[x] for x in range(1, min(left, bonus + 1))]
        binomials.append([*row, 1] if left <= bonus else row)

    def table(c: int, points: int) -> list[list[int]]:
        found = memo.get((c, points))
        if found is not None:
            return found
        rows: list[list[int]]
        if c == classes or points < prices[c]:
            faces = classes - c + unfixable
            rows = [[faces**left] for left in range(most + 1)]
        else:
            price = prices[c]
            affordable = points // price
            later = classes - c - 1 + unfixable
            below = [table(c + 1, points - x * price) for x in range(affordable + 1)]
            spread = [later**e for e in range(most + 1)]
            rows = []
            for left in range(most + 1):
                vector = [0] * (affordable + 1 + len(below[0][0]))
                placed = 0
                choose = binomials[left]
                for x in range(min(left, affordable) + 1):
                    ways = choose[x]
                    placed += ways * spread[left - x]
                    for f, count in enumerate(below[x][left - x], start=x):
                        vector[f] += ways * count
                if left > affordable:  # more dice here than the points buy
                    vector[affordable] += (later + 1) ** left - placed
                while len(vector) > 1 and not vector[-1]:
                    vector.pop()
                rows.append(vector)
        memo[(c, points)] = rows
        return rows

    return table(0, bonus)


@cache
def _pool_counts(skill: int, bonus: int, options: Options, most: int) -> list[list[int]]:
    _, prices, unfixable = pool_faces(skill, bonus, options)
    return _fixed_counts(prices, unfixable, bonus, most)


def fixed_table(skill: int, bonus: int, options: Options, dice: int) -> list[list[int]]:
    """The fixed-dice counts for ``dice`` dice or fewer (cached per 10-dice band)."""
    most = max(rules.MAX_SCORE, -(-dice // rules.MAX_SCORE) * rules.MAX_SCORE)
    return _pool_counts(skill, bonus, options, most)


def pool_weights(
    dice: int, skill: int, bonus: int, options: Options, split_raw: bool = True
) -> dict[Pair, int]:
    """How many of the 10^dice rolls give each (raw, after) pair, for any number of dice.

    Without ``split_raw`` the rolled successes are not told apart from the bought ones
    (raw is reported as 0), which is all P(success) needs.
    """
    free, _, _ = pool_faces(skill, bonus, options)
    fixed = fixed_table(skill, bonus, options, dice)
    weights: dict[Pair, int] = {}
    for raw in range(dice + 1) if free else (0,):
        ways = comb(dice, raw) * free**raw
        shown = raw if split_raw else 0
        for f, count in enumerate(fixed[dice - raw]):
            if count:
                key = (shown, raw + f)
                weights[key] = weights.get(key, 0) + ways * count
    return weights


def first_success(dr: int, dice: int) -> int:
    """The fewest successes that succeed against ``dr`` with ``dice`` dice (no flub), as
    ``rules.degree`` judges them: meeting the DR succeeds at some degree and missing it
    fails, under every reading of the rules, so it is the DR itself; one more than any
    count the pool can make (its dice and the most bonus points) when the DR is beyond
    them. A closed form, not a search over ``degree`` (a designer table asks it for every
    row); tests/rainwall/test_first_success.py checks it against ``degree`` for every
    reading, pool and DR."""
    return min(dr, dice + DEFAULT_LIMITS.max_modifier + 1)


def _flub_possible(dice: int, skill: int) -> bool:
    return dice == rules.FLUB_TRAIT and skill == rules.FLUB_SKILL


def _check_outcomes(dice: int, skill: int, bonus: int, options: Options) -> Distribution[Outcome]:
    """(raw, after, tens) of a pool; tens are counted only where the flub rule reads them."""
    if _flub_possible(dice, skill):
        return outcome_distribution(dice, skill, bonus, options)
    pairs = pool_weights(dice, skill, bonus, options)
    return Distribution._trusted({(raw, after, 0): w for (raw, after), w in pairs.items()})


@dataclass(frozen=True, slots=True)
class OddsFigures:
    """Exact odds of a pool: counts before and after the spend, IoS and degrees."""

    raw_successes: dict[int, Fraction]
    successes: dict[int, Fraction]
    ios: dict[int, Fraction]
    degrees: dict[Degree, Fraction]
    p_success: Fraction


@dataclass(frozen=True, slots=True)
class RainwallOdds(OddsFigures):
    """Exact odds of one request."""

    request: RainwallRequest


@dataclass(frozen=True, slots=True)
class PoolOdds(OddsFigures):
    """Exact odds of a pool of any size (a homebrew pool): the same figures as a check's."""

    dice: int
    skill: int
    dr: int
    bonus: int
    options: Options


Figures = tuple[
    dict[int, Fraction], dict[int, Fraction], dict[int, Fraction], dict[Degree, Fraction], Fraction
]


def _figures(
    outcomes: Distribution[Outcome], dice: int, skill: int, dr: int, opts: Options
) -> Figures:
    def degree_of_outcome(o: Outcome) -> Degree:
        flubbed = rules.is_flub(dice, skill, o[2])
        return rules.degree(o[0], o[1], dr, flubbed, opts, dice=dice)

    degrees = outcomes.map(degree_of_outcome).probabilities()
    every_degree = {d: degrees.get(d, Fraction(0)) for d in Degree}
    return (
        outcomes.map(lambda o: o[0]).probabilities(),
        outcomes.map(lambda o: o[1]).probabilities(),
        outcomes.map(lambda o: rules.ios(o[1], dr, opts)).probabilities(),
        every_degree,
        sum((p for d, p in every_degree.items() if d.succeeded), Fraction(0)),
    )


def degree_of(request: RainwallRequest, outcome: Outcome) -> Degree:
    raw, after, ten_count = outcome
    flubbed = rules.is_flub(request.dice, request.skill, ten_count)
    return rules.degree(raw, after, request.dr, flubbed, request.options, dice=request.dice)


def check_odds(request: RainwallRequest) -> RainwallOdds:
    dice, skill = request.dice, request.skill
    outcomes = _check_outcomes(dice, skill, request.bonus, request.options)
    figures = _figures(outcomes, dice, skill, request.dr, request.options)
    return RainwallOdds(*figures, request=request)


def check_pool(dice: int, skill: int, dr: int, bonus: int, limits: Limits = DEFAULT_LIMITS) -> None:
    """The caps on a pool: up to ``limits.max_pool_dice`` dice, skill 1-10, a DR the pool
    (or the trait scale) could reach, a bonus within ``limits.max_modifier``."""
    for name, value in (("dice", dice), ("skill", skill), ("dr", dr), ("bonus", bonus)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidInput(name, value, "an integer")
    if dice < 1:
        raise InvalidInput("dice", dice, f"1 to {limits.max_pool_dice} dice")
    if dice > limits.max_pool_dice:
        raise LimitExceeded("dice", dice, limits.max_pool_dice)
    if not rules.MIN_SCORE <= skill <= rules.MAX_SCORE:
        expected = f"an integer from {rules.MIN_SCORE} to {rules.MAX_SCORE} (the skill score)"
        raise InvalidInput("skill", skill, expected)
    top_dr = max(rules.MAX_DR, dice)
    if not rules.MIN_DR <= dr <= top_dr:
        raise InvalidInput("dr", dr, f"an integer from {rules.MIN_DR} to {top_dr}")
    if bonus < 0:
        raise InvalidInput("bonus", bonus, "0 or more bonus points")
    limits.check_modifier("bonus", bonus)


def pool_odds(
    dice: int,
    skill: int,
    dr: int,
    bonus: int = 0,
    options: Options | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> PoolOdds:
    """The odds of a pool of any size up to ``limits.max_pool_dice`` dice, without a request.

    A homebrew rule may roll far more dice than a trait score gives; the figures are the
    same as ``check_odds`` gives a request (equal for every pool a request can hold).
    """
    chosen = options or Options()
    check_pool(dice, skill, dr, bonus, limits)
    outcomes = _check_outcomes(dice, skill, bonus, chosen)
    figures = _figures(outcomes, dice, skill, dr, chosen)
    return PoolOdds(*figures, dice=dice, skill=skill, dr=dr, bonus=bonus, options=chosen)


SLOT = 64
"""Bits per count when counts are packed into one integer: 10^dice must fit."""
MAX_PACKED_DICE = 19
"""10^19 < 2^64: up to 19 dice, a count of rolls fits a slot (and so does any sum of them)."""


def _unbought_weights(dice: int, skill: int, options: Options, dr: int) -> int:
    """``success_weights`` without bonus points: no failure is fixed, so the count is a
    binomial tail, read off one power of ``free * X + failing`` with ``X = 2**SLOT``
    (the ways to roll ``r`` successes sit in slot ``r``, and slots add up modulo
    ``X - 1``). Where the flub rule can count tens, they are summed over one by one."""
    free = rules.success_face_count(skill, options)
    need = first_success(dr, dice)
    if not _flub_possible(dice, skill):
        if need > dice:
            return 0
        packed = ((free << SLOT) + rules.DIE_SIDES - free) ** dice
        ways: int = (packed >> (SLOT * need)) % ((1 << SLOT) - 1)
        return ways
    ten_free = rules.succeeds(rules.FLUB_FACE, skill, options)
    others = free - ten_free  # success faces below 10
    hits = 0
    for tens in range(dice + 1):
        if rules.is_flub(dice, skill, tens):
            continue
        short = max(need - (tens if ten_free else 0), 0)
        if short <= dice - tens:
            rest = ((others << SLOT) + rules.DIE_SIDES - 1 - others) ** (dice - tens)
            hits += comb(dice, tens) * ((rest >> (SLOT * short)) % ((1 << SLOT) - 1))
    return hits


def success_weights(dice: int, skill: int, bonus: int, options: Options, dr: int) -> int:
    """How many of the 10^dice rolls succeed against ``dr`` (flub included)."""
    if not bonus and dice <= MAX_PACKED_DICE:
        return _unbought_weights(dice, skill, options, dr)
    if _flub_possible(dice, skill):
        weights = outcome_weights(dice, skill, bonus, options, True, split_raw=False)
        return sum(
            w
            for (_, after, tens), w in weights.items()
            if rules.degree(
                after, after, dr, rules.is_flub(dice, skill, tens), options, dice=dice
            ).succeeded
        )
    need = first_success(dr, dice)  # what ``rules.degree`` judges, without a call per count
    pairs = pool_weights(dice, skill, bonus, options, split_raw=False)
    return sum(w for (_, after), w in pairs.items() if after >= need)


def success_chance(request: RainwallRequest) -> Fraction:
    """P(success) alone (what a designer table needs).

    Only the final count and, where the flub rule can read them, the tens matter:
    any count that reaches the DR succeeds, bought or rolled.
    """
    dice = request.dice
    hits = success_weights(dice, request.skill, request.bonus, request.options, request.dr)
    return exact(hits, rules.DIE_SIDES**dice)


# --- the contract's chances ------------------------------------------------------------

SUCCESS_LABEL = "success (any degree)"
CRITICAL_DEGREES = frozenset({Degree.CRITICAL, Degree.DISASTER, Degree.FLUBBED})
"""The critical success, and the two degrees the rules make a critical failure of."""
EXPECTED = "expected successes after the spend"


def chances(request: RainwallRequest) -> Chances:
    """A check's degrees, E[successes], and the IoS and success counts (after the spend and
    as rolled) as breakdowns."""
    odds = check_odds(request)
    mean = sum((n * p for n, p in odds.successes.items()), Fraction(0))
    return Chances(
        outcomes=tuple(
            Named(d.value, d.label, odds.degrees[d], d.succeeded, d in CRITICAL_DEGREES)
            for d in Degree
        ),
        extras=(Extra("expected_successes", EXPECTED, mean, "expectation"),),
        breakdowns=(
            _breakdown("ios", "Increment of Success", odds.ios),
            _breakdown("successes", "successes after the spend", odds.successes),
            _breakdown("raw_successes", "successes as rolled", odds.raw_successes),
        ),
        success_label=SUCCESS_LABEL,
        outcome_name="degrees",
    )


def _breakdown(key: str, label: str, values: Mapping[int, Fraction]) -> Breakdown:
    return Breakdown(key, label, tuple((str(k), p) for k, p in sorted(values.items())))
