"""Counting: a face of 6+ is one success, 10+ is two, a 1 is a bane; and the marks shown."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulebound.core.trace import DieState
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, Options, prepare
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, roll_check
from rulebound.rulesets.empty_reach.rules import (
    LADDER,
    StepDie,
    is_bane,
    marks_for,
    successes_on,
)

from .conftest import Scripted


@pytest.mark.parametrize(
    ("face", "successes"),
    [(1, 0), (2, 0), (5, 0), (6, 1), (7, 1), (9, 1), (10, 2), (11, 2), (12, 2)],
)
def test_successes_per_face(face: int, successes: int) -> None:
    assert successes_on(face) == successes


def test_only_a_one_is_a_bane() -> None:
    assert [face for face in range(1, 13) if is_bane(face)] == [1]


@pytest.mark.parametrize("die", LADDER)
def test_two_successes_only_possible_on_d10_and_d12(die: StepDie) -> None:
    best = max(successes_on(face) for face in range(1, die.value + 1))
    assert best == (2 if die.value >= 10 else 1)


@pytest.mark.parametrize(
    ("die", "singles", "doubles"),
    [(StepDie.D6, 1, 0), (StepDie.D8, 3, 0), (StepDie.D10, 4, 1), (StepDie.D12, 4, 3)],
)
def test_face_counts_per_die(die: StepDie, singles: int, doubles: int) -> None:
    faces = range(1, die.value + 1)
    assert sum(successes_on(f) == 1 for f in faces) == singles
    assert sum(successes_on(f) == 2 for f in faces) == doubles
    assert sum(is_bane(f) for f in faces) == 1


def test_marks() -> None:
    assert marks_for(12, bane_counts=True) == ("success", "success")
    assert marks_for(10, bane_counts=True) == ("success", "success")
    assert marks_for(6, bane_counts=True) == ("success",)
    assert marks_for(5, bane_counts=True) == ()
    assert marks_for(1, bane_counts=True) == ("bane",)
    assert marks_for(1, bane_counts=False) == ("one",)


def test_ladder_order_and_labels() -> None:
    assert [d.label for d in LADDER] == ["D6", "D8", "D10", "D12"]
    assert [d.rung for d in LADDER] == [0, 1, 2, 3]
    assert StepDie.parse("die", " d10 ") is StepDie.D10
    assert StepDie.parse("die", "12") is StepDie.D12


@pytest.mark.parametrize("text", ["D7", "D4", "D20", "", "x", 8])
def test_parse_rejects_other_dice(text: object) -> None:
    from rulebound.core.errors import InvalidInput

    with pytest.raises(InvalidInput) as error:
        StepDie.parse("attribute_die", text)
    assert error.value.field == "attribute_die"
    assert "D6, D8, D10, D12" in error.value.expected


def test_roll_counts_successes_and_banes(scripted: type[Scripted]) -> None:
    result = roll_check(prepare(CheckRequest(attribute_die="D8", skill_die="D12")), scripted(1, 11))
    assert [d.face for d in result.dice] == [1, 11]
    assert [d.role for d in result.dice] == ["attribute", "skill"]
    assert [d.label for d in result.dice] == ["D8", "D12"]
    assert result.successes == 2
    assert result.banes == 1
    assert result.succeeded
    assert result.dice[0].marks == ("bane",)
    assert result.dice[1].marks == ("success", "success")
    assert all(d.state is DieState.ROLLED for d in result.dice)
    assert result.headline == "2 successes"


def test_failure_needs_no_success_on_any_die(scripted: type[Scripted]) -> None:
    result = roll_check(prepare(CheckRequest(attribute_die="D6", skill_die="D6")), scripted(5, 2))
    assert result.successes == 0
    assert not result.succeeded
    assert result.headline == "Failure: no success"
    one = roll_check(prepare(CheckRequest(attribute_die="D6", skill_die="D6")), scripted(5, 6))
    assert one.successes == 1
    assert one.headline == "1 success"


def test_one_success_is_enough_to_succeed(scripted: type[Scripted]) -> None:
    """Skill Rolls: a 6 or higher "on at least one base die" succeeds: one success is a
    success for the result, its card and its odds."""
    from rulebound.rulesets.empty_reach.card import card_for
    from rulebound.rulesets.empty_reach.flow import roll as played
    from rulebound.rulesets.empty_reach.game import GAME

    request = CheckRequest(attribute_die="D6", skill_die="D6")
    one = played(prepare(request), scripted(5, 6))
    assert isinstance(one, EmptyReachResult)
    assert one.successes == 1
    assert one.succeeded
    assert card_for(one).succeeded is True
    chances = GAME.chances(request)
    assert [o.key for o in chances.outcomes if o.success] == ["1", "2"]
    assert chances.success == 1 - Fraction(5, 6) ** 2  # at least one die of two shows 6


def test_no_skill_rolls_the_attribute_die_alone(scripted: type[Scripted]) -> None:
    source = scripted(7)
    result = roll_check(prepare(CheckRequest(attribute_die="D8")), source)
    assert source.asked == [8]
    assert [d.label for d in result.dice] == ["D8"]
    assert result.successes == 1


def test_gear_dice_add_successes_but_their_ones_are_not_banes_by_default(
    scripted: type[Scripted],
) -> None:
    gear = GearInUse(name="rifle", bonus=1, dice=("D8",))
    check = prepare(CheckRequest(attribute_die="D6", skill_die="D6", gear=gear))
    # +1 from the gear bonus steps D6+D6 up to D6+D8 (skill die moves on equal dice)
    assert check.pool.dice == (StepDie.D6, StepDie.D8)
    result = roll_check(check, scripted(1, 6, 1))
    assert [d.role for d in result.dice] == ["attribute", "skill", "gear"]
    assert result.successes == 1
    assert result.banes == 1
    assert result.dice[2].marks == ("one",)
    variant = prepare(
        CheckRequest(
            attribute_die="D6",
            skill_die="D6",
            gear=gear,
            options=Options(gear_banes="gear-dice"),
        )
    )
    counted = roll_check(variant, scripted(1, 6, 1))
    assert counted.banes == 2
    assert counted.dice[2].marks == ("bane",)
    eight = roll_check(check, scripted(2, 2, 8))
    assert eight.successes == 1
