"""Exact odds against icepool (an independent library) and against values worked by hand."""

from fractions import Fraction
from math import comb

import icepool
import pytest

from rulebound.rulesets.rainwall.odds import check_odds
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Degree, MissIos, Options

from .oracle import spend_greedily


def icepool_successes(dice: int, skill: int, bonus: int) -> dict[int, Fraction]:
    die = icepool.map(
        lambda faces: spend_greedily(faces, skill, bonus), icepool.d10.pool(dice).expand()
    )
    return {outcome: Fraction(q, die.denominator()) for outcome, q in die.items()}


@pytest.mark.parametrize(("dice", "skill", "bonus"), [(7, 5, 3), (7, 2, 6), (6, 8, 1), (8, 4, 2)])
def test_successes_after_the_spend_equal_icepool(dice: int, skill: int, bonus: int) -> None:
    exact = check_odds(RainwallRequest(dice=dice, skill=skill, dr=1, bonus=bonus))
    assert exact.successes == icepool_successes(dice, skill, bonus)


@pytest.mark.parametrize(("skill", "dr"), [(5, 5), (3, 4), (9, 10)])
def test_ten_dice_without_bonus_equal_icepool(skill: int, dr: int) -> None:
    counted = 10 @ (icepool.d10 <= skill)
    p_success = Fraction(sum(q for o, q in counted.items() if o >= dr), counted.denominator())
    assert check_odds(RainwallRequest(dice=10, skill=skill, dr=dr)).p_success == p_success


def test_seed_lockpicking_odds_by_hand() -> None:
    # 7 dice, skill 5, DR 4: each die succeeds half the time
    plain = check_odds(RainwallRequest(dice=7, skill=5, dr=4))
    assert plain.p_success == Fraction(sum(comb(7, k) for k in range(4, 8)), 2**7)
    assert plain.degrees[Degree.BARELY] == 0
    # +1: exactly 3 successes, and at least one of the 4 failures (6 to 10) shows a 6
    boosted = check_odds(RainwallRequest(dice=7, skill=5, dr=4, bonus=1))
    barely = Fraction(comb(7, 3), 2**7) * (1 - Fraction(4, 5) ** 4)
    assert boosted.degrees[Degree.BARELY] == barely
    assert boosted.p_success == plain.p_success + barely


def test_one_die_by_hand() -> None:
    exact = check_odds(RainwallRequest(dice=1, skill=5, dr=1, bonus=1))
    # faces 1-5 succeed, 6 succeeds with the point, 7-10 fail
    assert exact.p_success == Fraction(6, 10)
    assert exact.degrees[Degree.BARELY] == Fraction(1, 10)
    assert exact.raw_successes == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert exact.ios == {0: Fraction(2, 5), 1: Fraction(3, 5)}


def test_two_dice_by_hand() -> None:
    exact = check_odds(RainwallRequest(dice=2, skill=5, dr=2, bonus=1))
    # both at or under 5 (1/4, IoS 1: Basic), or one under and the other a 6 (2 * 1/2 * 1/10)
    assert exact.degrees[Degree.BASIC] == Fraction(1, 4)
    assert exact.degrees[Degree.BARELY] == Fraction(1, 10)
    assert exact.p_success == Fraction(7, 20)


def test_disaster_by_hand_in_both_readings() -> None:
    request = RainwallRequest(dice=4, skill=1, dr=4)
    # continuous: 0 successes is IoS -3 (disaster), 1 success is IoS -2
    assert check_odds(request).degrees[Degree.DISASTER] == Fraction(9, 10) ** 4
    skip = RainwallRequest(dice=4, skill=1, dr=4, options=Options(miss_ios=MissIos.SKIP_ZERO))
    one = 4 * Fraction(1, 10) * Fraction(9, 10) ** 3  # skip-zero: 1 success is IoS -3 too
    assert check_odds(skip).degrees[Degree.DISASTER] == Fraction(9, 10) ** 4 + one
    # one die against DR 4 cannot reach it: a miss is measured against 1 (the rulings)
    lone = RainwallRequest(dice=1, skill=1, dr=4)
    assert check_odds(lone).degrees[Degree.DISASTER] == 0
    assert check_odds(lone).degrees[Degree.FAILURE] == 1


def test_flub_chance_is_three_or_more_tens_in_ten_dice() -> None:
    exact = check_odds(RainwallRequest(dice=10, skill=10, dr=1, bonus=2))
    below_three = sum(comb(10, k) * 9 ** (10 - k) for k in range(3))
    flub = Fraction(10**10 - below_three, 10**10)
    assert exact.degrees[Degree.FLUBBED] == flub
    assert exact.p_success == 1 - flub


def test_no_flub_chance_below_trait_ten() -> None:
    assert check_odds(RainwallRequest(dice=9, skill=10, dr=1)).degrees[Degree.FLUBBED] == 0
