"""Homebrew pools (``pool_odds``, up to ``Limits.max_pool_dice`` dice): the same figures as a
request's, equal to icepool and to brute force, and capped with an error naming the field."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import pytest

from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.rulesets.rainwall.odds import check_odds, pool_odds
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import MissIos, Options, SuccessFace
from rulebound.rulesets.rainwall.tables import success_grid

from .oracle import spend_greedily


class Spend(icepool.MultisetEvaluator):  # type: ignore[misc]
    """The greedy spend over the sorted pool, one face at a time (as a user of icepool
    would write it): a pool of any size without enumerating its rolls."""

    def __init__(self, skill: int, bonus: int) -> None:
        self.skill, self.bonus = skill, bonus

    def next_state(self, state: Any, order: Any, face: int, count: int) -> Any:
        if order != icepool.Order.Ascending:
            raise icepool.UnsupportedOrder()
        total, left = state or (0, self.bonus)
        if face <= self.skill:
            return (total + count, left)
        fixed = min(count, left // (face - self.skill))
        return (total + fixed, left - fixed * (face - self.skill))

    def final_outcome(self, state: Any, *_: Any) -> int:
        return int(state[0])


def icepool_successes(dice: int, skill: int, bonus: int) -> dict[int, Fraction]:
    totals = Spend(skill, bonus).evaluate(icepool.d10.pool(dice))
    return {k: Fraction(q, totals.denominator()) for k, q in totals.items() if q}


def nonzero(odds: dict[int, Fraction]) -> dict[int, Fraction]:
    return {k: p for k, p in odds.items() if p}


@pytest.mark.parametrize(
    ("dice", "skill", "bonus"), [(30, 5, 3), (40, 2, 6), (25, 9, 1), (36, 1, 4), (21, 7, 0)]
)
def test_large_pools_equal_icepool(dice: int, skill: int, bonus: int) -> None:
    odds = pool_odds(dice, skill, dice // 2, bonus)
    assert nonzero(odds.successes) == icepool_successes(dice, skill, bonus)
    expected = sum(p for k, p in icepool_successes(dice, skill, bonus).items() if k >= dice // 2)
    assert odds.p_success == expected


@pytest.mark.parametrize(("skill", "bonus"), [(5, 3), (3, 7), (10, 2)])
def test_small_pools_equal_brute_force(skill: int, bonus: int) -> None:
    dice = 4
    counts: dict[int, int] = {}
    for faces in product(range(1, 11), repeat=dice):
        total = spend_greedily(faces, skill, bonus)
        counts[total] = counts.get(total, 0) + 1
    want = {k: Fraction(v, 10**dice) for k, v in counts.items()}
    assert nonzero(pool_odds(dice, skill, 2, bonus).successes) == want


@pytest.mark.parametrize(
    ("dice", "skill", "dr", "bonus"), [(7, 5, 4, 3), (10, 10, 5, 0), (10, 10, 9, 4), (3, 1, 2, 2)]
)
@pytest.mark.parametrize("success_face", list(SuccessFace))
def test_a_request_sized_pool_gives_the_requests_figures(
    dice: int, skill: int, dr: int, bonus: int, success_face: SuccessFace
) -> None:
    options = Options(success_face=success_face)
    pool = pool_odds(dice, skill, dr, bonus, options)
    request = check_odds(
        RainwallRequest(dice=dice, skill=skill, dr=dr, bonus=bonus, options=options)
    )
    assert (pool.raw_successes, pool.successes, pool.ios, pool.degrees, pool.p_success) == (
        request.raw_successes,
        request.successes,
        request.ios,
        request.degrees,
        request.p_success,
    )


def test_the_largest_pool_is_answered_and_sums_to_one() -> None:
    most = DEFAULT_LIMITS.max_pool_dice
    odds = pool_odds(most, 5, most // 2, DEFAULT_LIMITS.max_modifier)
    assert sum(odds.successes.values()) == 1
    assert sum(odds.degrees.values()) == 1
    # without points, each die succeeds half the time: the chance of all of them, by hand
    assert pool_odds(most, 5, most, 0).p_success == Fraction(1, 2**most)


@pytest.mark.parametrize(
    ("args", "field", "error"),
    [
        ((DEFAULT_LIMITS.max_pool_dice + 1, 5, 3, 0), "dice", LimitExceeded),
        ((0, 5, 1, 0), "dice", InvalidInput),
        ((10, 11, 3, 0), "skill", InvalidInput),
        ((10, 5, 0, 0), "dr", InvalidInput),
        ((10, 5, 3, -1), "bonus", InvalidInput),
        ((10, 5, 3, DEFAULT_LIMITS.max_modifier + 1), "bonus", LimitExceeded),
        ((10, True, 3, 0), "skill", InvalidInput),
    ],
)
def test_bad_pools_name_the_field(
    args: tuple[Any, ...], field: str, error: type[InvalidInput]
) -> None:
    with pytest.raises(error) as caught:
        pool_odds(*args)
    assert caught.value.field == field
    assert caught.value.value == args[("dice", "skill", "dr", "bonus").index(field)]


@pytest.mark.parametrize("dr", [1, 3, 10, 11])
@pytest.mark.parametrize(
    "options",
    [Options(), Options(success_face=SuccessFace.STRICTLY_UNDER, miss_ios=MissIos.SKIP_ZERO)],
)
def test_the_designer_sweep_equals_one_request_per_cell(dr: int, options: Options) -> None:
    """The table shares its powers and needs across cells; each cell is still the request's."""
    grid = success_grid(dr, bonuses=(0, 2), options=options)
    for title, dice, skill, chance in grid.records():
        bonus = int(title.rsplit("+", 1)[1])
        request = RainwallRequest(
            dice=int(dice), skill=int(skill), dr=dr, bonus=bonus, options=options
        )
        assert chance == check_odds(request).p_success
