"""Character sheets: shape errors name the field; references are checked against content."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.ghostburn.character import check_character, parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"luck_points": -1}, "character.luck_points"),
        ({"luck_bonus": 0}, "character.luck_bonus"),
        ({"abilities": {"agility": 99}}, "character.abilities.agility"),
        ({"gear": [{"name": "x", "skill": "firearms", "bonus": -1}]}, "character.gear.0.bonus"),
        ({"colour": "red"}, "character.colour"),
    ],
)
def test_bad_sheet_fields_are_named(
    sheet: dict[str, Any], change: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_character({**sheet, **change})
    assert err.value.field == field


def test_a_sheet_without_luck_bonus_is_rejected(sheet: dict[str, Any]) -> None:
    del sheet["luck_bonus"]
    with pytest.raises(InvalidInput, match="luck_bonus"):
        parse_character(sheet)


def test_a_sheet_must_be_an_object() -> None:
    with pytest.raises(InvalidInput, match="JSON object"):
        parse_character([1, 2])


@pytest.mark.parametrize(
    ("change", "field", "value"),
    [
        ({"abilities": {"wits": 2}}, "character.abilities", "wits"),
        ({"skills": {"hacking": {"bonus": 1}}}, "character.skills", "hacking"),
        ({"skills": {"drive": {"ability": "wits"}}}, "character.skills.drive.ability", "wits"),
        (
            {"gear": [{"name": "kit", "skill": "cooking", "bonus": 1}]},
            "character.gear.kit.skill",
            "cooking",
        ),
        ({"signature_tricks": ["nope"]}, "character.signature_tricks", "nope"),
        ({"signature_tricks": ["aimed-shot"]}, "character.signature_tricks", "aimed-shot"),
    ],
)
def test_unknown_keys_on_the_sheet_are_named(
    sheet: dict[str, Any], content: GhostburnContent, change: dict[str, Any], field: str, value: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        check_character(parse_character({**sheet, **change}), content)
    assert (err.value.field, err.value.value) == (field, value)


def test_the_sheet_can_override_a_skills_primary_ability(
    sheet: dict[str, Any], content: GhostburnContent
) -> None:
    sheet["skills"]["drive"] = {"bonus": 2, "ability": "intelligence"}
    assert parse_character(sheet).primary_ability("drive", content) == "intelligence"
    assert parse_character(sheet).primary_ability("firearms", content) == "agility"


def test_the_sheet_is_immutable(sheet: dict[str, Any]) -> None:
    character = parse_character(sheet)
    with pytest.raises(ValueError, match="frozen"):
        character.luck_points = 5  # type: ignore[misc]
    assert character.with_luck_points(1).luck_points == 1
    assert character.luck_points == 2
