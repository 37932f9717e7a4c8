"""The rules tables and pure rule functions shared by roller and odds."""

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.rules import (
    Edge,
    Outcome,
    Thresholds,
    characteristic_bonus,
    classify,
    death_save_points,
    degrees,
    harder,
    net_edge,
    rank_bonus,
    scale,
)


@pytest.mark.parametrize(("score", "unnatural", "bonus"), [(9, 0, 0), (25, 0, 2), (39, 1, 4)])
def test_bonus_is_tens_digit_plus_unnatural(score: int, unnatural: int, bonus: int) -> None:
    assert characteristic_bonus(score, unnatural) == bonus


@pytest.mark.parametrize(("rank", "bonus"), [(1, 2), (2, 2), (3, 4), (4, 4), (5, 6), (6, 6)])
def test_rank_bonus_table(rank: int, bonus: int) -> None:
    assert rank_bonus(rank) == bonus


def test_rank_outside_the_table_is_refused() -> None:
    with pytest.raises(InvalidInput, match="rank: got 7; expected a rank from 1 to 6"):
        rank_bonus(7)


def test_harder_steps_one_class_and_stops_at_impossible() -> None:
    assert harder("challenging") == "difficult"
    assert harder("very-hard") == "impossible"
    assert harder("impossible") == "impossible"


def test_edges_do_not_stack_and_cancel() -> None:
    assert net_edge(True, False) is Edge.ADVANTAGE
    assert net_edge(False, True) is Edge.DISADVANTAGE
    assert net_edge(True, True) is Edge.NONE


T = Thresholds(target=12, crit_target=3, partial_bonus=2)


@pytest.mark.parametrize(
    ("face", "outcome"),
    [
        (1, Outcome.CRITICAL_SUCCESS),
        (3, Outcome.CRITICAL_SUCCESS),
        (4, Outcome.SUCCESS),
        (12, Outcome.SUCCESS),
        (13, Outcome.PARTIAL),
        (14, Outcome.PARTIAL),
        (15, Outcome.FAILURE),
        (20, Outcome.CRITICAL_FAILURE),
    ],
)
def test_classify_bands(face: int, outcome: Outcome) -> None:
    assert classify(face, T) is outcome


def test_natural_one_succeeds_even_when_impossible_and_twenty_fails_even_when_easy() -> None:
    assert classify(1, Thresholds(-5, -8, 0)) is Outcome.CRITICAL_SUCCESS
    assert classify(20, Thresholds(40, 30, 4)) is Outcome.CRITICAL_FAILURE


def test_target_adds_rank_difficulty_and_fatigue() -> None:
    res = resolve(
        CheckRequest(score=32, rank=3, difficulty="hard", fatigued=True, scale="as-written")
    )
    assert res.thresholds.target == 32 + 4 - 4 - 1
    assert res.thresholds.crit_target == 3 + 4 - 4 - 1
    assert [m.kind for m in res.modifiers] == ["rank", "difficulty", "fatigue"]


def test_skill_without_affinity_is_one_class_harder() -> None:
    res = resolve(
        CheckRequest(
            score=30,
            difficulty="ordinary",
            skill=True,
            has_skill_affinity=False,
            scale="as-written",
        )
    )
    assert res.difficulty == "challenging"
    assert res.thresholds.target == 30


def test_very_easy_and_impossible_carry_an_edge() -> None:
    assert resolve(CheckRequest(score=30, difficulty="very-easy")).edge is Edge.ADVANTAGE
    assert resolve(CheckRequest(score=30, difficulty="impossible")).edge is Edge.DISADVANTAGE
    both = CheckRequest(score=30, difficulty="impossible", advantage=True)
    assert resolve(both).edge is Edge.NONE


def test_scale_variants_change_the_numbers() -> None:
    d100 = resolve(CheckRequest(score=30, rank=1, difficulty="difficult", scale="d100"))
    assert (d100.thresholds.die, d100.thresholds.target) == (100, 30 + 10 - 10)
    halved = resolve(CheckRequest(score=31, scale="halved"))
    assert halved.thresholds.target == 15
    assert halved.thresholds.crit_target == 3


def test_unknown_scale_and_difficulty_name_the_field() -> None:
    with pytest.raises(InvalidInput, match="scale: got 'd6'"):
        scale("d6")
    with pytest.raises(InvalidInput, match="difficulty: got 'trivial'"):
        CheckRequest(score=30, difficulty="trivial")


def test_degrees_count_per_scale() -> None:
    assert degrees(7, scale("as-written")) == 7
    assert degrees(27, scale("d100")) == 2
    assert degrees(-27, scale("d100")) == -2


def test_death_save_points() -> None:
    assert death_save_points(1) == (2, 0)
    assert death_save_points(10) == (1, 0)
    assert death_save_points(11) == (0, 1)
    assert death_save_points(20) == (0, 2)
