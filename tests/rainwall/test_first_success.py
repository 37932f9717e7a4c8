"""The closed forms the designer table reads instead of asking the rules count by count:
``odds.first_success`` (the fewest successes that succeed) and ``rules.success_face_count``
(the faces that succeed as rolled), each checked against the rules they stand for, and
the table's quick check of its DR and bonus, which must refuse exactly what a request
refuses, with the same error."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.odds import (
    check_odds,
    first_success,
    pool_odds,
    success_chance,
    success_weights,
)
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import BarelyRule, MissIos, Options, SuccessFace
from rulebound.rulesets.rainwall.tables import success_grid

EVERY_READING = [
    Options(face, miss, barely) for face, miss, barely in product(SuccessFace, MissIos, BarelyRule)
]


def searched(dr: int, dice: int, options: Options) -> int:
    """The fewest successes ``rules.degree`` calls a success, found by asking it count by
    count up to the most a pool can make (its dice and the most bonus points)."""
    most = dice + DEFAULT_LIMITS.max_modifier
    for count in range(most + 1):
        if rules.degree(count, count, dr, False, options, dice=dice).succeeded:
            assert all(  # and every larger count succeeds too
                rules.degree(more, more, dr, False, options, dice=dice).succeeded
                for more in range(count, most + 1)
            )
            return count
    return most + 1


@pytest.mark.parametrize("options", EVERY_READING)
def test_first_success_is_what_degree_judges(options: Options) -> None:
    for dice in [*range(1, 13), 40, 320]:
        for dr in [*range(1, dice + DEFAULT_LIMITS.max_modifier + 3), rules.MAX_DR]:
            assert first_success(dr, dice) == searched(dr, dice, options), (dr, dice)


def test_first_success_past_the_pool_is_one_more_than_it_can_make() -> None:
    most = 3 + DEFAULT_LIMITS.max_modifier
    assert first_success(rules.MAX_DR, 3) == most + 1
    assert first_success(3, 3) == 3


@pytest.mark.parametrize("options", EVERY_READING)
def test_success_face_count_counts_the_faces_that_succeed(options: Options) -> None:
    for skill in range(rules.MIN_SCORE, rules.MAX_SCORE + 1):
        faces = range(1, rules.DIE_SIDES + 1)
        expected = sum(rules.succeeds(face, skill, options) for face in faces)
        assert rules.success_face_count(skill, options) == expected
        assert expected == sum(rules.cost(face, skill, options) == 0 for face in faces)


@pytest.mark.parametrize(
    ("dr", "bonus"),
    [
        (0, 0),
        (rules.MAX_DR + 1, 0),
        (True, 0),
        (2.0, 0),
        ("3", 0),
        (3, -1),
        (3, DEFAULT_LIMITS.max_modifier + 1),
        (3, False),
        (3, None),
    ],
)
def test_the_table_refuses_what_a_request_refuses_with_its_error(dr: object, bonus: object) -> None:
    with pytest.raises(InvalidInput) as by_request:
        RainwallRequest(dice=1, skill=1, dr=dr, bonus=bonus).checked()  # type: ignore[arg-type]
    with pytest.raises(InvalidInput) as by_table:
        success_grid(dr, bonuses=(bonus,))  # type: ignore[arg-type]
    assert type(by_table.value) is type(by_request.value)
    assert str(by_table.value) == str(by_request.value)
    assert by_table.value.field == by_request.value.field


@pytest.mark.parametrize("dr", [rules.MIN_DR, rules.MAX_DR])
def test_the_table_takes_every_dr_and_bonus_a_request_takes(dr: int) -> None:
    grid = success_grid(dr, bonuses=(0, DEFAULT_LIMITS.max_modifier))
    assert len(grid.panels) == 2


@pytest.mark.parametrize(
    "options",
    [Options(), Options(success_face=SuccessFace.STRICTLY_UNDER, miss_ios=MissIos.SKIP_ZERO)],
)
def test_success_chance_counts_what_the_full_odds_count(options: Options) -> None:
    """``success_chance`` keeps the counts from ``first_success`` on; ``check_odds`` asks
    ``rules.degree`` of every outcome (flub included)."""
    for dice, skill, dr, bonus in product(range(1, 11), range(1, 11), (1, 3, 7, 10, 11), (0, 1, 3)):
        request = RainwallRequest(dice=dice, skill=skill, dr=dr, bonus=bonus, options=options)
        assert success_chance(request) == check_odds(request).p_success, (dice, skill, dr, bonus)


@pytest.mark.parametrize(("dice", "skill", "dr", "bonus"), [(25, 5, 12, 0), (40, 3, 9, 2)])
def test_success_weights_of_a_large_pool_are_its_odds(
    dice: int, skill: int, dr: int, bonus: int
) -> None:
    hits = success_weights(dice, skill, bonus, Options(), dr)
    assert Fraction(hits, rules.DIE_SIDES**dice) == pool_odds(dice, skill, dr, bonus).p_success
