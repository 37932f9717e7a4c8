"""Rainwall at the table (the generic ``TableRules`` over the game): forms, exact chances,
plays from records, reallocation."""

from typing import Any

import pytest

from rulebound.core import InvalidInput, RuleViolation, SeededSource
from rulebound.rulesets.contract import Game
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.rainwall import Degree
from rulebound.rulesets.rainwall.game import GAME, SUCCESS_LABEL
from rulebound.rulesets.registry import get_game

TABLE = TableRules(GAME)
NONE: dict[str, str] = {}
PICKER = {"traits.Dexterity": "7", "skills.Lockpicking.score": "5"}


def sheet(**changes: Any) -> dict[str, Any]:
    form: dict[str, Any] = {**PICKER, "skills.Lockpicking.bonus": "3", **changes}
    return TABLE.apply_sheet_form(TABLE.new_sheet("Picker"), form)


def test_game_implements_the_contract_and_is_registered() -> None:
    assert isinstance(GAME, Game)
    assert get_game("rainwall") is GAME
    assert TABLE.game.key == "rainwall"


def test_sheet_form_round_trip_and_tracks() -> None:
    character = sheet()
    assert character == {
        "name": "Picker",
        "traits": {"Dexterity": 7},
        "skills": {"Lockpicking": {"score": 5, "bonus": 3}},
    }
    view = TABLE.sheet_view(character)
    assert {f.name for f in view.fields} >= {
        "name",
        "traits.Dexterity",
        "skills.Lockpicking.score",
        "skills.Lockpicking.bonus",
    }
    assert view.values["skills.Lockpicking.score"] == 5
    assert view.tracks == (("Lockpicking", "7d10 vs 5, +3"),)
    # a blank score removes the skill; the sheet is re-validated
    assert TABLE.apply_sheet_form(character, {"skills.Lockpicking.score": ""})["skills"] == {}


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"traits.Dexterity": "11"}, "traits.Dexterity"),
        ({"traits.Dexterity": "many"}, "traits.Dexterity"),
        ({"skills.Lockpicking.bonus": "-1"}, "skills.Lockpicking.bonus"),
        ({"traits.Dexterity": ""}, "skills.Lockpicking"),  # the skill needs its trait
        ({"traits.Charm": "3"}, "traits.Charm"),
        ({"skills.Riddles.score": "4"}, "skills.Riddles"),
        ({"name": ""}, "name"),
    ],
)
def test_bad_sheet_edits_name_the_field(form: dict[str, str], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.apply_sheet_form(sheet(), form)
    assert error.value.field == field


def test_validate_sheet_names_the_dotted_field() -> None:
    bad = {"name": "P", "traits": {"Dexterity": 7}, "skills": {"Lockpicking": {"score": "5"}}}
    with pytest.raises(InvalidInput) as error:
        TABLE.validate_sheet(bad)
    assert error.value.field == "skills.Lockpicking.score"


def test_dialog_lists_the_characters_skills_dr_and_bonus_use() -> None:
    fields = {f.name: f for f in TABLE.dialog(sheet())}
    assert list(fields) == ["skill", "dr", "without_bonus"]
    assert [c.value for c in fields["skill"].choices] == ["Lockpicking"]
    assert (fields["dr"].minimum, fields["dr"].default) == (1, 1)
    assert fields["without_bonus"].kind == "bool"


def test_chances_are_exact_and_the_degrees_sum_to_one() -> None:
    chances = TABLE.chances(sheet(), {"skill": "Lockpicking", "dr": "4"}, NONE).as_mapping()
    degrees = {d.label: chances[d.label] for d in Degree}
    assert sum(degrees.values()) == 1
    assert chances[SUCCESS_LABEL] == sum(chances[d.label] for d in Degree if d.succeeded)
    # without the bonus, nothing is Barely Succeeding and success is P(4+ of 7 dice <= 5)
    form = {"skill": "Lockpicking", "dr": "4", "without_bonus": "on"}
    plain = TABLE.chances(sheet(), form, NONE).as_mapping()
    assert plain["Barely Succeeding"] == 0
    assert str(plain[SUCCESS_LABEL]) == "1/2"  # symmetric binomial, p = 1/2, n = 7


def test_the_tables_variants_reach_the_rules() -> None:
    form = {"skill": "Lockpicking", "dr": "4", "without_bonus": True}
    strict = TABLE.chances(sheet(), form, {"success-face": "strictly-under"})
    assert strict.success < TABLE.chances(sheet(), form, NONE).success
    with pytest.raises(InvalidInput) as error:
        TABLE.chances(sheet(), form, {"success-face": "sideways"})
    assert error.value.field == "variants.success-face"


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"dr": "4"}, "skill"),
        ({"skill": "Lockpicking"}, "dr"),
        ({"skill": "Lockpicking", "dr": "0"}, "dr"),
        ({"skill": "Lockpicking", "dr": "hard"}, "dr"),
        ({"skill": "Swimming", "dr": "1"}, "skill"),
    ],
)
def test_bad_roll_forms_name_the_field(form: dict[str, str], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(sheet(), form, NONE, SeededSource(0))
    assert error.value.field == field


def test_roll_record_replays_to_the_same_card() -> None:
    character = sheet()
    for seed in range(50):
        play = TABLE.roll(character, {"skill": "Lockpicking", "dr": "4"}, NONE, SeededSource(seed))
        assert play.sheet is None
        assert len(play.record["draws"]) == 7
        assert TABLE.card([play.record]) == play.card
        assert play.card.outcome.split(":")[0] in {d.label for d in Degree}
        assert [a.key for a in play.card.actions] == ["reallocate"]
        fields = play.card.actions[0].fields
        assert [f.name for f in fields] == [f"allocation.d{n}" for n in range(1, 8)]


def test_reallocate_is_a_linked_entry_that_replays() -> None:
    character = sheet()
    play = TABLE.roll(character, {"skill": "Lockpicking", "dr": "4"}, NONE, SeededSource(1))
    faces = [die.face for die in play.card.dice]
    assert faces == [3, 10, 2, 5, 2, 8, 8]  # the optimal spend moves d6 8 -> 5
    assert play.card.outcome.startswith("Success: 5 successes")
    params = {f"allocation.d{n}": "0" for n in range(1, 8)} | {"allocation.d7": "3"}
    moved = TABLE.act(character, [play.record], "reallocate", params, NONE, SeededSource(2))
    assert moved.sheet is None
    assert moved.record == {"kind": "reallocate", "allocation": [0] * 6 + [3], "draws": []}
    assert TABLE.card([play.record, moved.record]) == moved.card
    assert [d.face for d in moved.card.dice] == faces  # the same dice, never rerolled
    assert moved.card.dice[6].marks == ("bonus 3", "now 5", "success")
    assert any(line.startswith("Reallocated by hand") for line in moved.card.details)
    # a list or a {label: points} mapping says the same thing
    for same in ({"allocation": [0] * 6 + [3]}, {"allocation": {"d7": 3}}):
        again = TABLE.act(character, [play.record], "reallocate", same, NONE, SeededSource(3))
        assert again.card == moved.card
    # and a reallocation can itself be revised
    back = TABLE.act(
        character,
        [play.record, moved.record],
        "reallocate",
        {"allocation.d6": 3},
        NONE,
        SeededSource(4),
    )
    assert TABLE.card([play.record, moved.record, back.record]) == back.card


def test_reallocation_breaking_a_rule_is_refused() -> None:
    character = sheet()
    play = TABLE.roll(character, {"skill": "Lockpicking", "dr": "4"}, NONE, SeededSource(1))
    chain = [play.record]
    with pytest.raises(RuleViolation):  # four points of a +3 bonus
        TABLE.act(
            character,
            chain,
            "reallocate",
            {"allocation": {"d2": 2, "d7": 2}},
            NONE,
            SeededSource(0),
        )
    with pytest.raises(InvalidInput) as error:  # d1 shows 3: three points take it below 1
        TABLE.act(character, chain, "reallocate", {"allocation.d1": 3}, NONE, SeededSource(0))
    assert (error.value.field, error.value.expected) == (
        "allocation.d1",
        "a whole number from 0 to 2",
    )
    with pytest.raises(RuleViolation):  # the same, as a list, reaches the rule itself
        TABLE.act(
            character,
            chain,
            "reallocate",
            {"allocation": [3, 0, 0, 0, 0, 0, 0]},
            NONE,
            SeededSource(0),
        )
    with pytest.raises(InvalidInput) as error:
        TABLE.act(character, chain, "reallocate", {"allocation.d3": "x"}, NONE, SeededSource(0))
    assert error.value.field == "allocation.d3"
    with pytest.raises(InvalidInput) as error:
        TABLE.act(character, chain, "reallocate", {"allocation.d9": 1}, NONE, SeededSource(0))
    assert error.value.field == "allocation"
    with pytest.raises(InvalidInput) as error:
        TABLE.act(character, chain, "push", {}, NONE, SeededSource(0))
    assert error.value.field == "action"


def test_without_the_bonus_there_is_nothing_to_reallocate() -> None:
    form = {"skill": "Lockpicking", "dr": "4", "without_bonus": "on"}
    play = TABLE.roll(sheet(), form, NONE, SeededSource(1))
    assert play.record["request"]["bonus"] == 0
    assert play.card.actions == ()
    assert play.card.modifiers == ()


def test_tampered_records_do_not_replay() -> None:
    play = TABLE.roll(sheet(), {"skill": "Lockpicking", "dr": "4"}, NONE, SeededSource(1))
    with pytest.raises(InvalidInput):
        TABLE.card([{**play.record, "draws": [*play.record["draws"], [10, 1]]}])
    with pytest.raises(InvalidInput):
        TABLE.card([{"kind": "reallocate", "allocation": [], "draws": []}])


def test_no_sheet_actions_no_table_tools_no_guided_creation() -> None:
    assert TABLE.sheet_actions(sheet(), NONE) == ()
    with pytest.raises(InvalidInput):
        TABLE.sheet_act(sheet(), "rest", {}, NONE, SeededSource(0))
    assert TABLE.table_actions() == ()
    with pytest.raises(InvalidInput):
        TABLE.table_act({}, "initiative", {}, NONE, SeededSource(0))
    assert TABLE.creation({}, {}, SeededSource(0)) is None
