"""Where modifiers come from: help, difficulty, gear and the rules; how they add up."""

from __future__ import annotations

import pytest

from rulebound.core.errors import InvalidInput, LimitExceeded, RuleViolation
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    ExtraModifier,
    GearInUse,
    PreparedCheck,
    prepare,
)
from rulebound.rulesets.empty_reach.content import default_content
from rulebound.rulesets.empty_reach.game import GAME
from rulebound.rulesets.empty_reach.rules import StepDie
from rulebound.rulesets.empty_reach.steps import Pool

CONTENT = default_content()


def described(check: PreparedCheck) -> list[str]:
    return [m.describe() for m in check.modifiers]


@pytest.mark.parametrize(
    ("helpers", "text"),
    [(1, "help from 1 ally: +1"), (2, "help from 2 allies: +2"), (3, "help from 3 allies: +3")],
)
def test_help_is_plus_one_per_helper(helpers: int, text: str) -> None:
    check = prepare(CheckRequest(attribute_die="D6", skill_die="D6", helpers=helpers))
    assert described(check) == [text]
    assert check.net == helpers
    assert check.modifiers[0].kind == "help"


def test_no_helpers_no_modifier() -> None:
    assert prepare(CheckRequest(attribute_die="D6")).modifiers == ()


def test_four_helpers_is_an_error_naming_helpers() -> None:
    with pytest.raises(InvalidInput) as error:
        prepare(CheckRequest(attribute_die="D8", helpers=4))
    assert error.value.field == "helpers"
    assert error.value.value == 4
    assert "3" in error.value.expected


def test_negative_helpers_rejected_by_the_request_schema() -> None:
    with pytest.raises(InvalidInput) as error:
        GAME.request({"attribute_die": "D8", "helpers": -1}, {})
    assert error.value.field == "helpers"


def test_numeric_difficulty() -> None:
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D8", difficulty=-1))
    assert described(check) == ["difficulty: -1"]
    assert check.pool == Pool(StepDie.D8, StepDie.D6)


@pytest.mark.parametrize(
    ("level", "value"),
    [
        ("trivial", 3),
        ("simple", 2),
        ("easy", 1),
        ("demanding", -1),
        ("hard", -2),
        ("formidable", -3),
    ],
)
def test_named_difficulty_levels(level: str, value: int) -> None:
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D8", difficulty_level=level))
    assert check.net == value
    assert described(check) == [f"difficulty {CONTENT.difficulty[level].name}: {value:+d}"]


def test_average_difficulty_adds_nothing_and_names_are_case_blind() -> None:
    assert prepare(CheckRequest(attribute_die="D8", difficulty_level="average")).modifiers == ()
    assert prepare(CheckRequest(attribute_die="D8", difficulty_level="HARD")).net == -2


def test_unknown_difficulty_level() -> None:
    with pytest.raises(InvalidInput) as error:
        prepare(CheckRequest(attribute_die="D8", difficulty_level="brutal"))
    assert error.value.field == "difficulty"
    assert "formidable" in error.value.expected


def test_named_and_numeric_difficulty_add_up() -> None:
    check = prepare(
        CheckRequest(attribute_die="D8", skill_die="D8", difficulty_level="hard", difficulty=1)
    )
    assert check.net == -1
    assert described(check) == ["difficulty Hard: -2", "difficulty: +1"]


def test_gear_bonus_adds_steps_with_its_source() -> None:
    check = prepare(CheckRequest(attribute_die="D8", gear=GearInUse(name="scope", bonus=2)))
    assert described(check) == ["gear scope: +2"]
    assert check.modifiers[0].kind == "gear"
    assert check.pool == Pool(StepDie.D8, StepDie.D8)
    assert check.gear_in_use


def test_broken_gear_cannot_be_used() -> None:
    with pytest.raises(RuleViolation) as error:
        prepare(CheckRequest(attribute_die="D8", gear=GearInUse(name="scope", bonus=0)))
    assert error.value.rule == "broken gear"
    assert "scope" in error.value.detail


def test_rules_modifiers_keep_their_source_and_zero_is_dropped() -> None:
    check = prepare(
        CheckRequest(
            attribute_die="D8",
            skill_die="D8",
            modifiers=(
                ExtraModifier(source="aiming carefully", value=1),
                ExtraModifier(source="long range", value=-1),
                ExtraModifier(source="nothing", value=0),
            ),
        )
    )
    assert described(check) == ["aiming carefully: +1", "long range: -1"]
    assert check.net == 0


def test_every_source_together_in_order() -> None:
    check = prepare(
        CheckRequest(
            attribute_die="D6",
            skill_die="D6",
            skill="Stealth",
            helpers=2,
            difficulty=-1,
            situations=("stealth-dark",),
            modifiers=(ExtraModifier(source="aiming", value=1),),
            gear=GearInUse(name="cloak", bonus=1),
        )
    )
    assert described(check) == [
        "help from 2 allies: +2",
        "difficulty: -1",
        "Dark or dimly lit area: +1",
        "aiming: +1",
        "gear cloak: +1",
    ]
    assert check.net == 4
    assert len(check.steps) == 4


def test_a_huge_modifier_total_hits_the_limit() -> None:
    request = CheckRequest(
        attribute_die="D8",
        helpers=3,
        difficulty=10,
        modifiers=(ExtraModifier(source="x", value=10),),
    )
    with pytest.raises(LimitExceeded) as error:
        prepare(request)
    assert error.value.field == "modifier total"
    assert error.value.value == 23


def test_the_attribute_comes_from_the_skill_and_sets_the_cost() -> None:
    assert prepare(CheckRequest(attribute_die="D8", skill="Force")).attribute == "Strength"
    assert prepare(CheckRequest(attribute_die="D8", skill="Force")).cost == "damage"
    assert prepare(CheckRequest(attribute_die="D8", skill="insight")).cost == "stress"
    plain = prepare(CheckRequest(attribute_die="D8"))
    assert (plain.attribute, plain.cost) == (None, None)
    swapped = prepare(CheckRequest(attribute_die="D8", skill="Persuasion", attribute="strength"))
    assert swapped.attribute == "Strength"
    assert swapped.cost == "damage"
    assert swapped.notes == ("Persuasion rolled with Strength instead of Empathy",)
