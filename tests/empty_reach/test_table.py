"""The Empty Reach at the table (``TableRules(GAME)``): forms, plays from records, and sheet
changes that land with the play."""

from typing import Any

import pytest

from rulebound.core import InvalidInput, RuleViolation, SeededSource
from rulebound.rulesets.contract import Sheets
from rulebound.rulesets.empty_reach.game import GAME
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.variants import resolve

TABLE = TableRules(GAME)
DEFAULTS = resolve(GAME.variants, {})


def sheet(**changes: Any) -> dict[str, Any]:
    base = TABLE.new_sheet("Vessa")
    form = {"skills.Force": "D10", "gear": "Crowbar 2/2"} | changes
    return TABLE.apply_sheet_form(base, form)


def test_the_game_has_sheets() -> None:
    assert isinstance(GAME.sheets, Sheets)
    assert TABLE.game.key == "empty-reach"


def test_sheet_form_round_trip_and_tracks() -> None:
    character = sheet(damage="1", specialties="Tough, Driver")
    view = TABLE.sheet_view(character)
    assert view.values["skills.Force"] == "D10"
    assert view.values["gear"] == "Crowbar 2/2"
    assert ("Health", "4 / 5") in view.tracks  # base 4 + Tough, 1 damage
    assert ("Gear Crowbar", "2 / 2") in view.tracks
    assert {f.name for f in view.fields} >= {"attributes.Strength", "skills.Stealth", "damage"}
    groups = {f.name: f.group for f in view.fields}
    assert (groups["attributes.Wits"], groups["skills.Stealth"], groups["damage"]) == (
        "Attributes",
        "Skills",
        "State",
    )
    assert TABLE.apply_sheet_form(character, dict(view.values)) == character


def test_blank_skills_are_removed_and_blank_numbers_are_zero() -> None:
    character = sheet(damage="2")
    edited = TABLE.apply_sheet_form(character, {"skills.Force": "", "damage": ""})
    assert "Force" not in edited["skills"]
    assert edited["damage"] == 0
    dashed = TABLE.apply_sheet_form(character, {"skills.Force": "-"})
    assert "Force" not in dashed["skills"]
    kept = TABLE.apply_sheet_form(character, {"gear": "Crowbar 1/2\nRope 1"})
    assert [(g["name"], g["bonus"], g["max_bonus"]) for g in kept["gear"]] == [
        ("Crowbar", 1, 2),
        ("Rope", 1, 1),
    ]


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"attributes.Strength": "D7"}, "attributes.Strength"),
        ({"attributes.Strength": ""}, "attributes.Strength"),
        ({"damage": "lots"}, "damage"),
        ({"gear": "Crowbar two"}, "gear line 1"),
        ({"specialties": "Tough, Tough, Tough, Tough"}, "specialties"),
    ],
)
def test_bad_sheet_edits_name_the_field(form: dict[str, str], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.apply_sheet_form(sheet(), form)
    assert error.value.field.startswith(field)


def test_every_bad_sheet_edit_is_reported_at_once() -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.apply_sheet_form(sheet(), {"attributes.Strength": "D7", "damage": "lots"})
    assert "attributes.Strength" in str(error.value)
    assert "damage" in str(error.value)


def test_dialog_offers_the_rules_modifiers() -> None:
    fields = TABLE.dialog(sheet(specialties="Driver, Menacing"))
    names = [f.name for f in fields]
    assert names[0] == "skill"
    groups = {f.group for f in fields if f.name == "situations"}
    assert groups == {"stealth", "negotiation", "specialties"}
    swap = next(f for f in fields if f.name == "swap")
    assert [c.value for c in swap.choices] == ["", "Menacing"]
    helpers = next(f for f in fields if f.name == "helpers")
    assert (helpers.minimum, helpers.maximum) == (0, 3)
    gear = next(f for f in fields if f.name == "gear")
    assert [c.value for c in gear.choices] == ["", "Crowbar"]


def test_chances_before_rolling_are_exact() -> None:
    chances = TABLE.chances(sheet(), {"skill": "Force"}, {}).as_mapping()
    # D8 attribute + D10 skill: 1 - (5/8)(5/10) = 11/16.
    assert chances["success"] == pytest.approx(11 / 16)
    assert str(chances["success"]) == "11/16"
    per_count = sum(p for k, p in chances.items() if k[0].isdigit())
    assert "1 success" in chances
    assert per_count == 1


def test_roll_then_push_rebuilds_from_records_and_pays_atomically() -> None:
    character = sheet()
    for seed in range(200):
        form = {"skill": "Force", "gear": "Crowbar"}
        play = TABLE.roll(character, form, {}, SeededSource(seed))
        assert play.sheet is None
        assert TABLE.card([play.record]) == play.card
        if not play.card.actions:
            continue
        chosen = [i for i, die in enumerate(play.card.dice) if die.selectable]
        params = {"reroll": chosen}
        pushed = TABLE.act(character, [play.record], "push", params, {}, SeededSource(seed + 1000))
        assert TABLE.card([play.record, pushed.record]) == pushed.card
        assert pushed.sheet is not None
        cost_lines = [d for d in pushed.card.details if d.startswith("Push cost")]
        assert cost_lines
        if pushed.sheet["damage"] or pushed.sheet["gear"][0]["bonus"] < 2:
            return
    pytest.fail("no seed produced a costly push")


def test_dice_choice_is_validated_and_passive_rolls_offer_no_push() -> None:
    character = sheet()
    play = TABLE.roll(character, {"skill": "Force", "passive": "on"}, {}, SeededSource(3))
    assert play.card.actions == ()
    with pytest.raises(RuleViolation):
        TABLE.act(character, [play.record], "push", {}, {}, SeededSource(4))
    active = TABLE.roll(character, {"skill": "Force"}, {}, SeededSource(5))
    with pytest.raises(InvalidInput) as error:
        TABLE.act(character, [active.record], "push", {"reroll": ["x"]}, {}, SeededSource(6))
    assert error.value.field == "reroll"


def test_a_skill_is_required_and_gear_must_be_on_the_sheet() -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(sheet(), {}, {}, SeededSource(1))
    assert error.value.field == "skill"
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(sheet(), {"skill": "Force", "gear": "Laser"}, {}, SeededSource(1))
    assert error.value.field == "gear"


def test_sheet_actions_heal_and_repair() -> None:
    hurt = sheet(damage="3", gear="Crowbar 0/2")
    keys = [a.key for a in TABLE.sheet_actions(hurt, {})]
    assert keys[:2] == ["heal", "repair"]
    healed = TABLE.sheet_act(hurt, "heal", {"health": "2"}, {}, SeededSource(0))
    assert healed.sheet is not None
    assert healed.sheet["damage"] == 1
    assert healed.record == {"kind": "heal", "health": 2, "resolve": 0, "draws": []}
    repaired = TABLE.sheet_act(hurt, "repair", {"gear": "Crowbar"}, {}, SeededSource(0))
    assert repaired.sheet is not None
    item = repaired.sheet["gear"][0]
    assert item["bonus"] > 0 or item["destroyed"]
    assert repaired.record["kind"] == "roll"
    assert repaired.record["request"]["repair"]["name"] == "Crowbar"
    assert TABLE.card([repaired.record]) == repaired.card
    with pytest.raises(InvalidInput):
        TABLE.sheet_act(hurt, "fly", {}, {}, SeededSource(0))
    with pytest.raises(InvalidInput) as error:
        TABLE.sheet_act(hurt, "heal", {"health": "-1"}, {}, SeededSource(0))
    assert error.value.field == "health"


def test_second_wind_is_offered_only_while_broken() -> None:
    fine = sheet(specialties="Second Wind", **{"skills.Stamina": "D8"})
    assert "second-wind" not in [a.key for a in TABLE.sheet_actions(fine, {})]
    broken = TABLE.apply_sheet_form(fine, {"damage": "4"})
    assert "second-wind" in [a.key for a in TABLE.sheet_actions(broken, {})]
    for seed in range(50):
        play = TABLE.sheet_act(broken, "second-wind", {}, {}, SeededSource(seed))
        assert play.record["kind"] == "roll"
        assert play.card.title.startswith("Second Wind: Stamina (Strength)")
        assert play.card.actions == ()  # only Health lacks points: nothing to choose
        assert play.sheet is not None
        if play.card.succeeded:
            assert play.sheet["damage"] < 4
            assert "second-wind" not in [a.key for a in TABLE.sheet_actions(play.sheet, {})]
            return
    pytest.fail("no seed rolled a success")


def test_no_guided_creation_and_no_table_tools() -> None:
    assert TABLE.creation({}, {}, SeededSource(0)) is None
    assert TABLE.table_actions() == ()


def test_table_variants_reach_the_check() -> None:
    variants = {"gear_banes": "gear-dice"}
    play = TABLE.roll(sheet(), {"skill": "Force"}, variants, SeededSource(1))
    assert play.record["request"]["options"]["gear_banes"] == "gear-dice"
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(sheet(), {"skill": "Force"}, {"gear_banes": "x"}, SeededSource(1))
    assert error.value.field.startswith("variants")
