"""Ghostburn at the table (the generic ``TableRules`` over the game): forms, exact chances,
plays from records, Luck Points."""

import re
from fractions import Fraction
from typing import Any

import pytest

from rulebound.core import InvalidInput, RuleViolation, SeededSource
from rulebound.rulesets.contract import Game
from rulebound.rulesets.ghostburn.game import GAME, SUCCESS_LABEL
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game

TABLE = TableRules(GAME)
NONE: dict[str, str] = {}
SUCCESS_KEY = SUCCESS_LABEL
BANDS = ("Success", "Fade", "Failure")
AIMED = {"skill": "firearms", "trick": "aimed-shot"}
"""Aimed Shot is DL Moderate (14); Vex adds Agility 3, Firearms +1, the best gear +2, aug +1."""


def chances(sheet: dict[str, Any], form: dict[str, Any]) -> dict[str, Fraction]:
    return TABLE.chances(sheet, form, NONE).as_mapping()


def vex(**changes: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "abilities.agility": "3",
        "abilities.strength": "1",
        "skills.firearms.bonus": "1",
        "gear": "laser sight: firearms +1\nscope: firearms +2\ntow rope: athletics +2",
        "augs": "reflex wiring: firearms +1",
        "luck_points": "2",
        "luck_bonus": "3",
    } | changes
    return TABLE.apply_sheet_form(TABLE.new_sheet("Vex"), form)


def test_game_implements_the_contract_and_is_registered() -> None:
    assert isinstance(GAME, Game)
    assert get_game("ghostburn") is GAME
    assert TABLE.game.key == "ghostburn"


def test_new_sheet_is_valid_and_assumes_no_luck() -> None:
    fresh = TABLE.new_sheet("Nobody")
    assert TABLE.validate_sheet(fresh) == fresh
    assert (fresh["luck_points"], fresh["luck_bonus"]) == (0, 1)


def test_sheet_form_round_trip_and_luck_track() -> None:
    character = vex(**{"skills.drive.ability": "intelligence"})
    assert character["gear"][1] == {"name": "scope", "skill": "firearms", "bonus": 2}
    assert character["skills"]["drive"] == {"bonus": 0, "ability": "intelligence"}
    view = TABLE.sheet_view(character)
    assert ("Luck Points", "2") in view.tracks
    assert ("Luck Bonus", "+3") in view.tracks
    assert view.values["gear"].splitlines()[1] == "scope: firearms +2"
    assert view.values["skills.athletics.bonus"] is None
    names = {f.name for f in view.fields}
    assert {"abilities.presence", "skills.firearms.ability", "luck_points", "augs"} <= names
    # posting the view's own values back changes nothing
    form = {k: ("" if v is None else v) for k, v in view.values.items()}
    assert TABLE.apply_sheet_form(character, form) == character


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"abilities.agility": "fast"}, "abilities.agility"),
        ({"abilities.agility": "21"}, "abilities.agility"),
        ({"abilities.luck": "2"}, "abilities"),
        ({"skills.firearms.bonus": "-1"}, "skills.firearms.bonus"),
        ({"skills.hacking.bonus": "1"}, "skills"),
        ({"skills.drive.ability": "charm"}, "skills.drive.ability"),
        ({"gear": "laser sight firearms 1"}, "gear"),
        ({"augs": "claws: brawling +2"}, "augs"),
        ({"gear": "scope: firearms +2\nrail gun: firearms +25"}, "gear"),
        ({"luck_points": "-1"}, "luck_points"),
        ({"luck_points": ""}, "luck_points"),
        ({"luck_bonus": "0"}, "luck_bonus"),
        ({"signature_tricks": ["aimed-shot"]}, "signature_tricks"),
        ({"name": " "}, "name"),
    ],
)
def test_bad_sheet_edits_name_the_field(form: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.apply_sheet_form(vex(), form)
    assert error.value.field == field


def test_validate_sheet_names_the_dotted_field() -> None:
    bad = vex()
    bad["gear"] = [{"name": "scope", "skill": "firearms", "bonus": "lots"}]
    with pytest.raises(InvalidInput) as error:
        TABLE.validate_sheet(bad)
    assert error.value.field == "gear.0.bonus"


def test_dialog_offers_skill_trick_dl_shift_substitution_and_items() -> None:
    fields = {f.name: f for f in TABLE.dialog(vex(signature_tricks=["bank-shot"]))}
    assert list(fields)[:2] == ["skill", "trick"]
    assert {"dl", "chart", "traits.gap", "traits.resolve", "dl_shift", "ability"} <= set(fields)
    tricks = {c.value: c.label for c in fields["trick"].choices}
    assert tricks[""].startswith("Improvised")
    assert "core" in tricks["aimed-shot"]
    assert "signature" in tricks["bank-shot"]
    assert "bank-shot" not in {c.value for c in TABLE.dialog(vex())[1].choices}
    assert [c.value for c in fields["set_aside"].choices] == [
        "gear:laser sight",
        "gear:scope",
        "gear:tow rope",
        "aug:reflex wiring",
    ]
    assert fields["set_aside"].default == ()
    assert "" in {c.value for c in fields["ability"].choices}


def test_chances_are_exact_and_the_bands_sum_to_one() -> None:
    typed = TABLE.chances(vex(luck_points="0"), AIMED, NONE)
    odds = typed.as_mapping()
    # 2d10 + 7 against Moderate (14): success needs 7+ on 2d10 (85 of 100 pairs); every
    # other result reaches Easy (8), one level lower, so it is a Fade.
    assert odds == {
        SUCCESS_KEY: Fraction(85, 100),
        "Success": Fraction(85, 100),
        "Fade": Fraction(15, 100),
        "Failure": 0,
    }
    assert sum(odds[band] for band in BANDS) == 1
    assert sum(o.probability for o in typed.outcomes) == 1
    assert [(o.key, o.success) for o in typed.outcomes] == [
        ("success", True),
        ("fade", False),
        ("failure", False),
    ]
    assert typed.success == odds[SUCCESS_KEY]


def test_chances_follow_the_form() -> None:
    base = chances(vex(), AIMED)
    assert "a Luck Point (+3) would lift the band" in base
    aside = chances(vex(), AIMED | {"set_aside": ["gear:scope"]})  # laser sight +1 now
    assert aside[SUCCESS_KEY] < base[SUCCESS_KEY]
    harder = chances(vex(), AIMED | {"dl_shift": "1"})  # Hard (20)
    assert harder[SUCCESS_KEY] == chances(vex(), AIMED | {"dl": ""} | {"dl_shift": 1})[SUCCESS_KEY]
    assert harder[SUCCESS_KEY] == Fraction(36, 100)  # 2d10 >= 13: 36 of 100 pairs
    improvised = chances(vex(), {"skill": "firearms", "dl": "Hard"})
    assert improvised[SUCCESS_KEY] == harder[SUCCESS_KEY]
    graded = chances(vex(), {"skill": "firearms", "dl": "Hard", "chart": "graded"})
    assert sum(graded[b] for b in ("Overdrive", *BANDS)) == 1
    swapped = chances(vex(), AIMED | {"ability": "strength"})  # Strength 1, not Agility 3
    assert swapped[SUCCESS_KEY] < base[SUCCESS_KEY]
    trait = chances(vex(), {"trick": "running-jump", "traits.gap": "Easy"})
    assert sum(trait[band] for band in BANDS) == 1


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"skill": "firearms"}, "dl"),  # improvised needs a DL
        ({"skill": "firearms", "dl": "Impossible"}, "dl"),
        ({"skill": "hacking", "dl": "Hard"}, "skill"),
        ({"skill": "drive", "trick": "aimed-shot"}, "skill"),
        ({"trick": "backflip"}, "trick"),
        ({"trick": "running-jump"}, "traits.gap"),
        (AIMED | {"dl": "Hard"}, "dl"),  # a trick sets its own DL
        (AIMED | {"dl_shift": "9"}, "dl_shift"),
        (AIMED | {"dl_shift": "one"}, "dl_shift"),
        (AIMED | {"ability": "charm"}, "ability"),
        (AIMED | {"set_aside": ["gear:rocket"]}, "set_aside"),
    ],
)
def test_bad_roll_forms_name_the_field(form: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(vex(), form, NONE, SeededSource(0))
    assert error.value.field == field


def test_unknown_signature_trick_is_refused() -> None:
    # the dialog offers only the tricks the sheet knows, so the form names the field...
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(vex(), {"trick": "bank-shot"}, NONE, SeededSource(0))
    assert error.value.field == "trick"
    # ...and behind the form it is the rule: a signature trick must be known
    with pytest.raises(RuleViolation, match="does not know 'bank-shot'"):
        GAME.sheets.request(vex(), {"trick": "bank-shot"}, TABLE.variants(NONE))
    known = vex(signature_tricks=["bank-shot"])
    assert TABLE.roll(known, {"trick": "bank-shot"}, NONE, SeededSource(0)).card.title.startswith(
        "Firearms, signature trick Bank Shot"
    )


def test_roll_record_replays_to_the_same_card() -> None:
    character = vex()
    for seed in range(50):
        play = TABLE.roll(character, AIMED | {"dl_shift": "1"}, NONE, SeededSource(seed))
        assert play.sheet is None
        assert TABLE.card([play.record]) == play.card
        band, _, total = play.card.outcome.split(":")[0].partition(" (")
        assert band in BANDS
        assert re.fullmatch(r"\d+ vs 20\)", total)
        assert [a.key for a in play.card.actions] == ["spend-luck"]
    modifiers = play.card.modifiers
    assert "Agility (ability): +3" in modifiers
    assert any(m.startswith("laser sight (gear): +1 (not applied") for m in modifiers)
    assert "scope (gear): +2" in modifiers


def test_spending_luck_is_a_linked_entry_that_pays_atomically() -> None:
    character = vex()
    play = TABLE.roll(character, AIMED | {"dl_shift": "1"}, NONE, SeededSource(7))
    spent = TABLE.act(character, [play.record], "spend-luck", {}, NONE, SeededSource(8))
    assert spent.record == {"kind": "spend-luck", "bonus": 3, "draws": []}
    assert spent.sheet is not None
    assert spent.sheet["luck_points"] == character["luck_points"] - 1
    assert {k: v for k, v in spent.sheet.items() if k != "luck_points"} == {
        k: v for k, v in character.items() if k != "luck_points"
    }
    assert TABLE.card([play.record, spent.record]) == spent.card
    assert spent.card.dice == play.card.dice  # the same draws, with the bonus added
    assert spent.card.modifiers[-1] == "Luck Point (luck): +3"
    assert spent.card.actions == ()  # one Luck Bonus per roll
    total = int(play.card.steps[-1].split()[0])
    assert spent.card.steps[-1].startswith(f"{total + 3} vs Hard (20)")
    with pytest.raises(RuleViolation):
        TABLE.act(spent.sheet, [play.record, spent.record], "spend-luck", {}, NONE, SeededSource(9))


def test_luck_can_lift_the_band() -> None:
    character = vex()
    for seed in range(200):
        play = TABLE.roll(character, AIMED | {"dl_shift": "1"}, NONE, SeededSource(seed))
        if not play.card.outcome.startswith("Fade"):
            continue
        advice = play.card.actions[0].advice[0]
        spent = TABLE.act(character, [play.record], "spend-luck", {}, NONE, SeededSource(0))
        lifted = spent.card.outcome.startswith("Success")
        assert ("lift it to Success" in advice) == lifted
        if lifted:
            assert spent.card.succeeded is True
            return
    pytest.fail("no seed gave a Fade that luck lifts")


def test_spending_with_no_luck_is_a_rule_violation_and_changes_nothing() -> None:
    broke = vex(luck_points="0")
    play = TABLE.roll(broke, AIMED, NONE, SeededSource(3))
    (spend,) = play.card.actions  # shown, but greyed with the reason
    assert (spend.available, spend.reason) == (False, "no Luck Points left to spend")
    before = dict(broke)
    with pytest.raises(RuleViolation):
        TABLE.act(broke, [play.record], "spend-luck", {}, NONE, SeededSource(4))
    assert broke == before
    with pytest.raises(InvalidInput) as error:
        TABLE.act(broke, [play.record], "push", {}, NONE, SeededSource(4))
    assert error.value.field == "action"


def test_luck_belongs_to_the_roller() -> None:
    play = TABLE.roll(vex(), AIMED, NONE, SeededSource(3))
    other = TABLE.apply_sheet_form(vex(), {"name": "Rook"})
    with pytest.raises(RuleViolation):
        TABLE.act(other, [play.record], "spend-luck", {}, NONE, SeededSource(4))


def test_set_aside_items_leave_the_stack_and_show_on_the_card() -> None:
    play = TABLE.roll(vex(), AIMED | {"set_aside": ["gear:scope"]}, NONE, SeededSource(5))
    assert "laser sight (gear): +1" in play.card.modifiers
    assert not any(m.startswith("scope") for m in play.card.modifiers)
    assert "Not in use: scope (gear)" in play.card.details
    assert TABLE.card([play.record]) == play.card


def test_substitution_and_gm_shift_are_on_the_card() -> None:
    form = {"skill": "drive", "dl": "Moderate", "ability": "intelligence", "dl_shift": "-1"}
    play = TABLE.roll(vex(**{"abilities.intelligence": "2"}), form, NONE, SeededSource(1))
    assert play.card.title == "Drive, improvised trick vs Easy (8)"
    assert "The GM called for Intelligence instead of Agility" in play.card.details
    assert any("shifted -1 level(s) by the GM" in d for d in play.card.details)
    assert TABLE.card([play.record]) == play.card


def test_regain_luck_sheet_action() -> None:
    broke = vex(luck_points="0")
    (action,) = TABLE.sheet_actions(broke, NONE)
    assert action.key == "regain-luck"
    play = TABLE.sheet_act(broke, "regain-luck", {"points": "2"}, NONE, SeededSource(0))
    assert play.sheet is not None
    assert play.sheet["luck_points"] == 2
    assert TABLE.card([play.record]) == play.card
    with pytest.raises(InvalidInput) as error:
        TABLE.sheet_act(broke, "regain-luck", {"points": "0"}, NONE, SeededSource(0))
    assert error.value.field == "points"
    with pytest.raises(InvalidInput):
        TABLE.sheet_act(broke, "rest", {}, NONE, SeededSource(0))
    assert TABLE.sheet_actions(vex(luck_points="99"), NONE) == ()


def test_no_table_tools_no_guided_creation() -> None:
    assert TABLE.table_actions() == ()
    with pytest.raises(InvalidInput):
        TABLE.table_act({}, "initiative", {}, NONE, SeededSource(0))
    assert TABLE.creation({}, {}, SeededSource(0)) is None


def test_a_trait_comes_from_its_box_or_as_name_value() -> None:
    stare = {"trick": "stare-down"}
    box = TABLE.roll(vex(), stare | {"traits.resolve": "Hard"}, NONE, SeededSource(2))
    pairs = stare | {"trait": ["gap=Easy", "resolve=Hard"]}
    assert TABLE.roll(vex(), pairs, NONE, SeededSource(2)).record == box.record
    assert box.record["request"]["traits"] == {"resolve": "Hard"}  # only the trait it reads
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(vex(), stare | {"trait": ["resolve"]}, NONE, SeededSource(2))
    assert error.value.field == "trait"


def test_the_roll_record_keeps_the_old_shape_and_names_its_ladder_rule() -> None:
    play = TABLE.roll(vex(), AIMED | {"set_aside": ["gear:scope"]}, NONE, SeededSource(5))
    assert set(play.record) == {"kind", "request", "set_aside", "draws", "ladder"}
    assert play.record["ladder"] == 2
    assert play.record["set_aside"] == ["gear:scope"]
    request = play.record["request"]
    assert [i["name"] for i in request["character"]["gear"]] == ["laser sight", "tow rope"]
    assert (request["skill"], request["trick"], request["dl_shift"]) == (
        "firearms",
        "aimed-shot",
        0,
    )
    assert request["variants"] == {"off-ladder-dl": "keep-offset", "bottom-fade": "none"}
