"""Resolving a check: tricks and their DLs, signature tricks, improvised tricks, substitution."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.errors import InvalidInput, LimitExceeded, RuleViolation
from rulebound.rulesets.ghostburn.character import Character, parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.request import Substitution, character_request, raw_request
from rulebound.rulesets.ghostburn.rules import Bonus, BonusKind


def test_a_core_trick_sets_skill_dl_and_outcome_text(
    vex: Character, content: GhostburnContent
) -> None:
    request = character_request(vex, content, trick="aimed-shot")
    assert (request.skill, request.difficulty.label) == ("firearms", "Moderate (14)")
    assert request.trick is not None
    assert request.trick.kind == "core"
    assert request.chart.band("success").outcome == "The shot hits."


def test_a_trick_for_another_skill_is_rejected(vex: Character, content: GhostburnContent) -> None:
    with pytest.raises(InvalidInput, match="'firearms', the skill of trick 'aimed-shot'"):
        character_request(vex, content, skill="drive", trick="aimed-shot")


def test_a_trick_sets_its_own_dl(vex: Character, content: GhostburnContent) -> None:
    with pytest.raises(InvalidInput, match="use dl_shift") as err:
        character_request(vex, content, trick="aimed-shot", dl="Hard")
    assert err.value.field == "dl"


def test_a_trait_trick_takes_its_dl_from_the_target(
    vex: Character, content: GhostburnContent
) -> None:
    request = character_request(vex, content, trick="stare-down", traits={"resolve": "Hard"})
    assert (request.difficulty.value, request.difficulty.source) == (
        20,
        "from the target's resolve",
    )
    with pytest.raises(InvalidInput) as err:
        character_request(vex, content, trick="stare-down")
    assert err.value.field == "traits.resolve"


def test_signature_tricks_need_to_be_known(
    sheet: dict[str, Any], content: GhostburnContent
) -> None:
    with pytest.raises(RuleViolation, match="does not know 'bank-shot'"):
        character_request(parse_character(sheet), content, trick="bank-shot")
    sheet["signature_tricks"] = ["bank-shot"]
    request = character_request(parse_character(sheet), content, trick="bank-shot")
    assert request.chart.key == "graded"


def test_an_improvised_trick_needs_a_gm_dl(vex: Character, content: GhostburnContent) -> None:
    with pytest.raises(InvalidInput, match="improvised") as err:
        character_request(vex, content, skill="drive")
    assert err.value.field == "dl"
    request = character_request(vex, content, skill="drive", dl="Hard", chart="graded")
    assert request.trick is not None
    assert request.trick.kind == "improvised"
    assert request.chart.key == "graded"


def test_ability_substitution_is_in_the_trace(vex: Character, content: GhostburnContent) -> None:
    request = character_request(vex, content, skill="firearms", ability="strength", dl=14)
    assert request.substitution == Substitution("agility", "strength")
    ability = next(b for b in request.bonuses if b.kind is BonusKind.ABILITY)
    assert (ability.source, ability.value) == ("Strength", 1)
    assert "instead of Agility" in ability.note
    assert request.modifier == 1 + 1 + 1


def test_substituting_the_primary_is_no_substitution(
    vex: Character, content: GhostburnContent
) -> None:
    request = character_request(vex, content, skill="firearms", ability="agility", dl=14)
    assert request.substitution is None


def test_unknown_ability_or_missing_score_is_named(
    sheet: dict[str, Any], content: GhostburnContent
) -> None:
    with pytest.raises(InvalidInput, match="wits") as err:
        character_request(parse_character(sheet), content, skill="drive", ability="wits", dl=14)
    assert err.value.field == "ability"
    del sheet["abilities"]["agility"]
    with pytest.raises(InvalidInput, match="an ability on the sheet"):
        character_request(parse_character(sheet), content, skill="firearms", dl=14)


def test_raw_request_stacks_like_a_character(content: GhostburnContent) -> None:
    request = raw_request(
        content, dl="Hard", ability_score=3, skill_bonus=1, gear=[("a", 1), ("b", 2)]
    )
    assert request.modifier == 6
    assert request.skill is None
    assert request.trick is None


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"ability_score": 21}, LimitExceeded, "ability_score"),
        ({"skill_bonus": -1}, InvalidInput, "skill_bonus"),
        ({"gear": [("scope", -2)]}, InvalidInput, "gear.scope"),
        ({"ability_score": 20, "skill_bonus": 5}, LimitExceeded, "modifier"),
        ({"dl_shift": 9}, InvalidInput, "dl_shift"),
    ],
)
def test_raw_request_errors_name_the_field(
    content: GhostburnContent, kwargs: dict[str, Any], error: type[Exception], field: str
) -> None:
    with pytest.raises(error) as err:
        raw_request(content, dl=14, **kwargs)
    assert getattr(err.value, "field", None) == field


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("ability_score", -21, "a number from -20 to 20"),
        ("ability_score", 21, "a number from -20 to 20"),
        ("skill_bonus", -1, "a number from 0 to 20"),
        ("skill_bonus", 21, "a number from 0 to 20"),
    ],
)
def test_a_bonus_out_of_range_names_both_bounds(
    content: GhostburnContent, field: str, value: int, expected: str
) -> None:
    """-21 is refused as out of -20 to 20: "at most 20", which it is, would not say why."""
    given: dict[str, Any] = {field: value}
    with pytest.raises(InvalidInput) as err:
        raw_request(content, dl=14, **given)
    assert (err.value.field, err.value.value, err.value.expected) == (field, value, expected)


def test_a_request_needs_exactly_one_ability(content: GhostburnContent) -> None:
    request = raw_request(content, dl=14)
    with pytest.raises(InvalidInput, match="exactly one ability"):
        type(request)(
            (*request.candidates, Bonus(BonusKind.ABILITY, "x", 1)),
            request.difficulty,
            request.chart,
        )
