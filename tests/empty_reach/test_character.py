"""The character sheet: loading with clear errors, maxima, broken, and paying for a push."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.empty_reach.character import (
    Character,
    apply_push_costs,
    load_character,
    push_and_pay,
    request_for,
)
from rulebound.rulesets.empty_reach.check import prepare
from rulebound.rulesets.empty_reach.roll import roll_check
from rulebound.rulesets.empty_reach.rules import StepDie

from .conftest import Scripted

SHEET: dict[str, Any] = {
    "name": "Ana Vey",
    "attributes": {"Strength": "D8", "Agility": "D6", "Wits": "D10", "Empathy": "D6"},
    "skills": {"Force": "D10", "Persuasion": "D8", "Insight": "D6"},
    "specialties": ["Tough", "Tough", "Hardened", "Menacing", "Driver"],
    "base_health": 3,
    "base_resolve": 4,
    "gear": [
        {"name": "Crowbar", "bonus": 2, "max_bonus": 2, "skills": ["Force"]},
        {"name": "Old Radio", "bonus": 0, "max_bonus": 1},
        {"name": "Wreck", "bonus": 0, "max_bonus": 0, "destroyed": True},
    ],
}


def sheet(**changes: Any) -> Character:
    return load_character({**SHEET, **changes})


def load_error(**changes: Any) -> InvalidInput:
    with pytest.raises(InvalidInput) as error:
        sheet(**changes)
    return error.value


def test_loads_a_valid_sheet() -> None:
    ana = sheet()
    assert ana.attributes["Wits"] is StepDie.D10
    assert ana.skills["Force"] is StepDie.D10
    assert (ana.damage, ana.stress) == (0, 0)
    assert ana.ruleset == "empty-reach"


def test_unknown_skill_is_named() -> None:
    error = load_error(skills={"Flying": "D6"})
    assert (error.field, error.value) == ("skills", "Flying")
    assert "Persuasion" in error.expected


def test_names_are_matched_whatever_the_case_and_separators() -> None:
    """Issue 15: keys match case- and separator-insensitively; the sheet keeps the content's
    own spelling, so "tough" twice and "Tough" once are three ranks."""
    ana = sheet(
        attributes={"strength": "D8", "AGILITY": "D6", "wits": "D10", "Empathy": "D6"},
        skills={"force": "D6", "persuasion": "D8"},
        specialties=["tough", "Tough", "TOUGH", "true_grit", "field-surgeon"],
    )
    assert set(ana.attributes) == {"Strength", "Agility", "Wits", "Empathy"}
    assert set(ana.skills) == {"Force", "Persuasion"}
    assert ana.specialties == ("Tough", "Tough", "Tough", "True Grit", "Field Surgeon")
    assert ana.max_health == 3 + 3
    assert ana.gear_item("old-radio").name == "Old Radio"
    error = load_error(specialties=["tough"] * 4)
    assert (error.field, error.value) == ("specialties", "Tough")
    twice = load_error(skills={"Force": "D6", "force": "D8"})
    assert (twice.field, twice.value) == ("skills", "force")


def test_missing_attribute_is_named() -> None:
    error = load_error(attributes={"Strength": "D8", "Agility": "D6", "Wits": "D6"})
    assert error.field == "attributes"
    assert "missing Empathy" in error.expected


def test_unknown_attribute_is_named() -> None:
    error = load_error(attributes={**SHEET["attributes"], "Luck": "D6"})
    assert (error.field, error.value) == ("attributes", "Luck")
    assert "Strength" in error.expected


def test_bad_die_on_the_sheet() -> None:
    error = load_error(attributes={**SHEET["attributes"], "Wits": "D7"})
    assert (error.field, error.value) == ("attributes.Wits", "D7")
    assert "D6, D8, D10, D12" in error.expected


def test_tough_at_most_three_times() -> None:
    assert sheet(specialties=["Tough"] * 3).max_health == 6
    error = load_error(specialties=["Tough"] * 4)
    assert (error.field, error.value) == ("specialties", "Tough")
    assert "at most 3" in error.expected
    assert "taken 4" in error.expected
    assert load_error(specialties=["Hardened"] * 4).value == "Hardened"


def test_other_specialties_once_unless_repeatable() -> None:
    assert load_error(specialties=["Driver", "Driver"]).field == "specialties"
    assert sheet(specialties=["Weapon Specialist"] * 3).specialties.count("Weapon Specialist") == 3
    assert load_error(specialties=["Telepathy"]).value == "Telepathy"


def test_schema_errors_name_the_field() -> None:
    assert load_error(base_health=0).field == "base_health"
    assert load_error(damage=-1).field == "damage"
    assert load_error(ruleset="rainwall").field == "ruleset"
    assert load_error(hair="red").field == "hair"
    gear = load_error(gear=[{"name": "X", "bonus": 3, "max_bonus": 2}])
    assert gear.field == "gear.0"
    assert gear.value == 3
    assert "max_bonus 2" in gear.expected


def test_max_health_and_resolve_with_tough_and_hardened() -> None:
    ana = sheet()
    assert ana.max_health == 3 + 2
    assert ana.max_resolve == 4 + 1
    plain = sheet(specialties=[])
    assert (plain.max_health, plain.max_resolve) == (3, 4)


@pytest.mark.parametrize(
    ("damage", "stress", "broken"),
    [(0, 0, False), (4, 4, False), (5, 0, True), (0, 5, True), (7, 0, True)],
)
def test_broken_when_damage_or_stress_reaches_the_maximum(
    damage: int, stress: int, broken: bool
) -> None:
    assert sheet(damage=damage, stress=stress).broken is broken


def test_gear_items() -> None:
    ana = sheet()
    assert ana.gear_item("crowbar").name == "Crowbar"
    assert not ana.gear_item("Crowbar").broken
    assert ana.gear_item("Old Radio").broken
    with pytest.raises(InvalidInput) as error:
        ana.gear_item("Laser")
    assert error.value.field == "gear"
    assert "Crowbar" in error.value.expected


def test_request_for_reads_the_sheet() -> None:
    ana = sheet()
    request = request_for(ana, "force", helpers=1, gear="crowbar")
    assert request.attribute_die is StepDie.D8
    assert request.skill_die is StepDie.D10
    assert (request.skill, request.attribute) == ("Force", "Strength")
    assert request.gear is not None
    assert (request.gear.name, request.gear.bonus) == ("Crowbar", 2)
    assert request.specialties == ("Tough", "Hardened", "Menacing", "Driver")
    assert prepare(request).net == 3
    lacking = request_for(ana, "Stealth")
    assert lacking.skill_die is None
    assert lacking.attribute_die is StepDie.D6


def test_request_for_gear_rules() -> None:
    ana = sheet()
    with pytest.raises(InvalidInput, match="Force"):
        request_for(ana, "Insight", gear="Crowbar")
    with pytest.raises(RuleViolation, match="destroyed"):
        request_for(ana, "Force", gear="Wreck")
    with pytest.raises(RuleViolation, match="broken gear"):
        prepare(request_for(ana, "Force", gear="Old Radio"))


def test_specialty_toggles_from_the_sheet() -> None:
    ana = sheet(skills={"Mobility": "D6"})
    check = prepare(request_for(ana, "Mobility", situations=("specialty-driver",)))
    assert check.net == 1
    with pytest.raises(RuleViolation):
        prepare(request_for(ana, "Mobility", situations=("specialty-pilot",)))


def test_push_and_pay_returns_the_new_sheet_with_everything_applied(
    scripted: type[Scripted],
) -> None:
    ana = sheet(damage=1)
    # Force with the crowbar: D8+D10 +2 -> D10+D12; the push rolls two banes;
    # the first gear check hits (gear -1), the second misses (one damage)
    result = roll_check(prepare(request_for(ana, "Force", gear="Crowbar")), scripted(3, 4))
    pushed, after = push_and_pay(ana, result, scripted(1, 1, 2, 5))
    assert pushed.costs is not None
    assert (pushed.costs.points, pushed.costs.gear_loss) == (1, 1)
    assert after.damage == 2
    assert after.stress == 0
    assert after.gear_item("Crowbar").bonus == 1
    assert after.gear_item("Crowbar").max_bonus == 2
    assert ana.damage == 1
    assert ana.gear_item("Crowbar").bonus == 2


def test_stress_for_empathy_rolls(scripted: type[Scripted]) -> None:
    ana = sheet()
    result = roll_check(prepare(request_for(ana, "Insight")), scripted(1, 3))
    pushed, after = push_and_pay(ana, result, scripted(1))
    assert pushed.costs is not None
    assert (after.damage, after.stress) == (0, 2)


def test_apply_push_costs_without_a_push_changes_nothing(scripted: type[Scripted]) -> None:
    ana = sheet()
    result = roll_check(prepare(request_for(ana, "Insight")), scripted(1, 1))
    assert apply_push_costs(ana, result) is ana


def test_sheets_are_immutable() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        sheet().damage = 3  # type: ignore[misc]


def test_a_file_naming_another_game_says_which_game_it_takes() -> None:
    """The pattern the field once had was said as it was: "String should match pattern"."""
    from rulebound.rulesets.plays import TableRules
    from rulebound.rulesets.registry import get_game

    rules = TableRules(get_game("empty-reach"))
    sheet = {**rules.new_sheet("Vex"), "ruleset": "ghostburn"}
    with pytest.raises(InvalidInput) as caught:
        rules.validate_sheet(sheet)
    assert str(caught.value) == "ruleset: got 'ghostburn'; expected one of empty-reach"
