"""Issue 15, Ghostburn: the audit's defect (an uncapped raw Luck Bonus) and keys matched as
people type them.

The rule text is Ghostburn's "Making a Roll"; the sections are named in each test. Every
test here failed before its fix (the report of issue 15 lists which).
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.ghostburn.character import load_character
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.game import GAME
from rulebound.rulesets.ghostburn.luck import spend_luck, with_luck
from rulebound.rulesets.ghostburn.request import LuckPool, character_request, raw_request
from rulebound.rulesets.ghostburn.roll import roll
from rulebound.rulesets.plays import replay


def rolled(content: GhostburnContent) -> Any:
    request = raw_request(content, dl="Hard", ability_score=20, pool=None)
    return roll(request, ReplaySource([Draw(10, 1), Draw(10, 1)]))


# --- Wrong 7: the raw Luck Bonus is capped like every other bonus (Luck Bonus; Stacking) ------


def test_the_cli_refuses_a_luck_bonus_past_the_cap() -> None:
    args = ["roll", "ghostburn", "--dl", "Hard", "--ability-score", "20", "--luck-points", "1"]
    out = CliRunner().invoke(app, [*args, "--luck-bonus", "50", "--luck", "spend", "--seed", "1"])
    assert out.exit_code == 2
    said = "--luck-bonus [Luck Bonus]: 50 will not do; it takes a whole number from 1 to 20."
    assert said in out.stderr


def test_a_luck_pool_or_spend_past_the_cap_is_refused(content: GhostburnContent) -> None:
    with pytest.raises(InvalidInput) as error:
        LuckPool(1, 50)
    assert (error.value.field, error.value.value) == ("luck_bonus", 50)
    assert "20" in error.value.expected
    with pytest.raises(InvalidInput) as error:
        with_luck(rolled(content), 21)
    assert (error.value.field, error.value.value) == ("luck_bonus", 21)
    assert with_luck(rolled(content), 20).total == 42
    assert spend_luck(rolled(content), LuckPool(1, 20)).result.total == 42


def test_a_stored_raw_roll_with_an_uncapped_luck_bonus_is_refused() -> None:
    request = {"dl": "Hard", "ability_score": 20, "luck_points": 1, "luck_bonus": 50}
    record = {"kind": "roll", "request": request, "set_aside": [], "draws": [[10, 1], [10, 1]]}
    with pytest.raises(InvalidInput) as error:
        replay(GAME, [record])
    assert error.value.field == "luck_bonus"


# --- Keys as people type them ----------------------------------------------------------------


def test_skills_tricks_abilities_charts_and_levels_match_whatever_the_case(
    content: GhostburnContent, sheet: dict[str, Any]
) -> None:
    assert content.skill("Firearms").key == "firearms"
    assert content.trick("Aimed Shot").key == "aimed-shot"
    assert content.trick("shoot_to_disarm").key == "shoot-to-disarm"
    assert content.ability("INTELLIGENCE").key == "intelligence"
    assert content.chart("Graded").key == "graded"
    assert content.ladder.parse("dl", " hard ") == 20
    vex = load_character(sheet, content)
    request = character_request(vex, content, trick="Aimed Shot", ability="Intelligence")
    assert request.skill == "firearms"
    assert request.substitution is not None
    assert request.substitution.used == "intelligence"
    shaped = {**sheet, "abilities": {"Agility": 3}, "skills": {"Fire-Arms": {"bonus": 1}}}
    with pytest.raises(InvalidInput):  # "fire-arms" is another key: separators are kept
        load_character(shaped, content)
    spelled = load_character(
        {**sheet, "abilities": {"Agility": 3}, "skills": {"FIREARMS": {}}}, content
    )
    assert (list(spelled.abilities), list(spelled.skills)) == (["agility"], ["firearms"])


# --- The text's examples and numbers (Substituting Ability Scores; Making a Roll) ------------


@pytest.mark.parametrize(
    ("skill", "ability", "primary"),
    [("intimidate", "strength", "presence"), ("drive", "intelligence", "agility")],
)
def test_the_gm_calls_for_another_ability_as_in_the_texts_two_examples(
    content: GhostburnContent, sheet: dict[str, Any], skill: str, ability: str, primary: str
) -> None:
    """ "roll Strength with Intimidate" and "roll Drive with Intelligence": the called score
    replaces the primary one; the skill bonus still applies."""
    vex = load_character(sheet, content)
    plain = character_request(vex, content, skill=skill, dl="Moderate")
    called = character_request(vex, content, skill=skill, dl="Moderate", ability=ability.title())
    assert called.substitution is not None
    assert (called.substitution.primary, called.substitution.used) == (primary, ability)
    bonus = vex.skill_bonus(skill)
    assert plain.modifier == vex.abilities[primary] + bonus
    assert called.modifier == vex.abilities[ability] + bonus


def test_the_texts_numbers(content: GhostburnContent) -> None:
    from rulebound.rulesets.ghostburn.rules import DICE, SIDES, STACKING_KINDS, BonusKind

    assert (DICE, SIDES) == (2, 10)  # "Roll 2d10 (two ten-sided dice) and sum them"
    # "at most one ability score, one skill bonus, one gear bonus, one aug bonus, and one luck
    # bonus"
    kinds = [k.value for k in (*STACKING_KINDS, BonusKind.LUCK)]
    assert kinds == ["ability", "skill", "gear", "aug", "luck"]
    assert content.skill("firearms").ability == "agility"  # "the Firearms skill uses Agility"
    assert {"firearms", "athletics", "intimidate", "drive"} <= set(content.skills)
    assert (content.ladder.parse("dl", "Moderate"), content.ladder.parse("dl", "Hard")) == (14, 20)


def test_the_cli_refuses_a_character_file_the_table_refuses(
    tmp_path: Any, sheet: dict[str, Any]
) -> None:
    """One validation for every entry point (issue 15, Wrong 6, all four games): a sheet's
    Luck Bonus of 50 is refused by the table and by the CLI reading the file (ruling G17)."""
    import json

    from rulebound.rulesets.plays import TableRules

    bad = {**sheet, "luck_bonus": 50}
    with pytest.raises(InvalidInput) as error:
        TableRules(GAME).validate_sheet(bad)
    assert (error.value.field, error.value.value) == ("luck_bonus", 50)
    path = tmp_path / "vex.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    args = ["roll", "ghostburn", "-c", str(path), "--skill", "firearms", "--dl", "Hard"]
    out = CliRunner().invoke(app, [*args, "--seed", "1"])
    assert out.exit_code == 2
    assert "50 will not do; it takes a number of at most 20" in out.stderr
