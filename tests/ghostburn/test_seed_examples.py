"""The rule text's own worked numbers."""

from __future__ import annotations

from typing import Any

from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.ghostburn.character import Character, parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.request import character_request
from rulebound.rulesets.ghostburn.roll import roll
from rulebound.rulesets.ghostburn.rules import BonusKind


def _faces(*faces: int) -> ReplaySource:
    return ReplaySource(Draw(10, face) for face in faces)


def test_two_and_nine_roll_eleven(vex: Character, content: GhostburnContent) -> None:
    request = character_request(vex, content, skill="firearms", dl="Moderate")
    result = roll(request, _faces(2, 9))
    assert [die.face for die in result.dice] == [2, 9]
    assert result.dice_sum == 11


def test_agility_three_and_firearms_one_add_four(
    sheet: dict[str, Any], content: GhostburnContent
) -> None:
    sheet["gear"] = []
    request = character_request(parse_character(sheet), content, skill="firearms", dl="Moderate")
    assert content.skill("firearms").ability == "agility"
    assert request.modifier == 4
    assert roll(request, _faces(2, 9)).total == 15


def test_laser_sight_adds_one_gear_bonus_to_firearms(
    vex: Character, content: GhostburnContent
) -> None:
    request = character_request(vex, content, skill="firearms", dl="Moderate")
    gear = [line for line in request.bonuses if line.kind is BonusKind.GEAR]
    assert [(g.source, g.value, g.applied) for g in gear] == [("laser sight", 1, True)]
    assert request.modifier == 5


def test_of_two_firearms_gear_items_only_the_higher_applies(
    sheet: dict[str, Any], content: GhostburnContent
) -> None:
    sheet["gear"].append({"name": "smart scope", "skill": "firearms", "bonus": 2})
    request = character_request(parse_character(sheet), content, skill="firearms", dl="Moderate")
    gear = {line.source: line.applied for line in request.bonuses if line.kind is BonusKind.GEAR}
    assert gear == {"laser sight": False, "smart scope": True}
    assert request.modifier == 3 + 1 + 2
