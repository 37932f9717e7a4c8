"""Legacy at the table (``TableRules(GAME)``): sheets, the roll dialog, exact chances, replay."""

from fractions import Fraction
from typing import Any

import pytest

from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation, SeededSource
from rulebound.core.errors import problems_of
from rulebound.rulesets.contract import Game
from rulebound.rulesets.legacy.game import GAME, SUCCESS_KEY
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game

TABLE = TableRules(GAME)
OUTCOMES = ("critical success", "success", "partial success", "failure", "critical failure")
SURVIVAL = {"characteristic": "PER", "affinity": "survival", "difficulty": "hard"}
"""PER 30 with Survival held (rank 1: +2) at Hard (-4): target 28, or 13 on the halved scale."""
HALVED = {"scale": "halved"}
WRITTEN = {"scale": "as-written"}


def kara(**form: Any) -> dict[str, Any]:
    """The starting sheet: a Human of the Surface, every die at its middle face."""
    return (
        TABLE.apply_sheet_form(TABLE.new_sheet("Kara"), form) if form else TABLE.new_sheet("Kara")
    )


def d20(*faces: int) -> ReplaySource:
    return ReplaySource(Draw(20, f) for f in faces)


def test_game_implements_the_contract_and_is_registered() -> None:
    assert isinstance(GAME, Game)
    assert get_game("legacy") is GAME
    assert TABLE.game.key == "legacy"


def test_new_sheet_is_a_valid_starting_character() -> None:
    fresh = TABLE.new_sheet("Kara")
    assert TABLE.validate_sheet(fresh) == fresh
    assert (fresh["race"], fresh["origin"], fresh["soul"]) == ("human", "surface", "human")
    assert fresh["scores"]["PER"] == 30
    assert fresh["lck"] == 20
    assert fresh["fate"] == 2
    assert fresh["affinities"] == ["survival", "athletics", "inspection"]  # ruling 88


def test_sheet_view_tracks_and_round_trip() -> None:
    hurt = kara(wounds="24", fatigue_taken="1", **{"critical.head": "2", "cor": "5"})
    view = TABLE.sheet_view(hurt)
    tracks = dict(view.tracks)
    assert tracks["Wounds"] == "24 / 30"
    assert tracks["Fatigue"] == "1 / 3 (-1 to all checks)"
    assert tracks["Fate"] == "2 (cap 2)"
    assert tracks["LCK"] == "20 (bonus 2)"
    assert tracks["SAN / COR"] == "0 / 5"
    assert tracks["REN"] == "25"
    assert tracks["Critical damage"] == "head 2"
    names = {f.name for f in view.fields}
    assert {"scores.INI", "critical.torso", "armour.head.metal", "death_failures"} <= names
    form = {k: ("" if v is None else v) for k, v in view.values.items()}
    assert TABLE.apply_sheet_form(hurt, form) == hurt  # posting the view back changes nothing
    bleeding = TABLE.sheet_view(kara(bleeding=True, unconscious=True, death_failures="1"))
    assert dict(bleeding.tracks)["Death saves"] == "0 successes, 1 failure (of 3)"
    assert dict(bleeding.tracks)["State"] == "bleeding out, unconscious"


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"scores.STR": "strong"}, "scores.STR"),
        ({"scores.STR": ""}, "scores.STR"),
        ({"scores.DEX": "-1"}, "scores.DEX"),
        ({"wounds": "31"}, "wounds"),
        ({"fatigue_taken": "4"}, "fatigue_taken"),
        ({"rest_points": "9"}, "rest_points"),
        ({"fate": "3"}, "fate"),
        ({"critical.head": "-1"}, "critical.head"),
        ({"critical.tail": "1"}, "critical.tail"),
        ({"armour.torso.physical": "-2"}, "armour.torso.physical"),
        ({"armour.torso.colour": "red"}, "armour.torso.colour"),
        ({"race": "giant"}, "race"),
        ({"soul": "elf"}, "soul"),
        ({"affinities": ["arcane", "juggling"]}, "affinities"),
        ({"unnatural": "STM one"}, "unnatural"),
        ({"rank": "7"}, "rank"),
        ({"name": " "}, "name"),
        ({"luck": "5"}, "luck"),
    ],
)
def test_bad_sheet_edits_name_the_dotted_field(form: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.apply_sheet_form(kara(), form)
    assert error.value.field == field


def test_validate_sheet_names_fields_and_enforces_the_soul_restriction() -> None:
    sheet = kara()
    missing = {**sheet, "scores": {k: v for k, v in sheet["scores"].items() if k != "INI"}}
    with pytest.raises(InvalidInput) as error:
        TABLE.validate_sheet(missing)
    assert error.value.field == "scores.INI"
    with pytest.raises(InvalidInput) as error:
        TABLE.validate_sheet({**sheet, "race": "dwarf", "soul": "warlock"})
    assert error.value.field == "soul"
    assert "Warlock" in error.value.expected


def test_dialog_offers_the_rules_choices() -> None:
    fields = {f.name: f for f in TABLE.dialog(kara(favour=True, fatigue_taken="1"))}
    assert list(fields)[:2] == ["characteristic", "affinity"]
    assert {"LCK", "REN", "INI"} <= {c.value for c in fields["characteristic"].choices}
    assert "Fatigued: -1 applies." in fields["characteristic"].help
    affinities = {c.value: c.label for c in fields["affinity"].choices}
    assert affinities["survival"] == "Survival"
    assert affinities["arcane"] == "Arcane (not held)"
    assert fields["difficulty"].default == "challenging"
    assert fields["rank"].default == 1
    assert "poison-or-starvation" in {c.value for c in fields["situations"].choices}  # Hardy
    assert {"favour", "assist.mode", "assist.helper", "assist.rank"} <= set(fields)
    unfavoured = {f.name: f for f in TABLE.dialog(kara())}  # the rule refuses it (a test below)
    assert unfavoured["favour"].help == "Kara holds no favour now."


def test_chances_are_exact_per_outcome_under_the_scale_variant() -> None:
    def chances(sheet: dict[str, Any], form: dict[str, Any], variants: Any = None) -> Any:
        return TABLE.chances(sheet, form, variants or {}).as_mapping()

    written = chances(kara(), SURVIVAL, WRITTEN)
    assert written == {
        SUCCESS_KEY: Fraction(19, 20),
        "critical success": Fraction(1, 20),
        "success": Fraction(18, 20),
        "partial success": 0,
        "failure": 0,
        "critical failure": Fraction(1, 20),
    }
    halved = chances(kara(), SURVIVAL, HALVED)  # target 13, partial 14-16
    assert [halved[o] for o in OUTCOMES] == [Fraction(n, 20) for n in (1, 12, 3, 3, 1)]
    assert sum(halved[o] for o in OUTCOMES) == 1
    d100 = chances(kara(), SURVIVAL, {"scale": "d100"})
    assert d100[SUCCESS_KEY] == Fraction(20, 100)  # 30 + 10 - 20
    tired = chances(kara(fatigue_taken="1"), SURVIVAL, HALVED)
    assert tired[SUCCESS_KEY] == Fraction(12, 20)
    favoured = chances(kara(favour=True), SURVIVAL | {"favour": True}, HALVED)
    assert favoured[SUCCESS_KEY] == 1 - Fraction(7, 20) ** 2  # the lower of two d20
    assert chances(kara(cursed=True), SURVIVAL, HALVED)[SUCCESS_KEY] == Fraction(13, 20) ** 2
    down = chances(kara(unconscious=True), SURVIVAL)
    assert down["failure"] == 1
    assert down[SUCCESS_KEY] == 0


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({}, "characteristic"),
        ({"characteristic": "AGL"}, "characteristic"),
        (SURVIVAL | {"difficulty": "trivial"}, "difficulty"),
        (SURVIVAL | {"affinity": "juggling"}, "affinity"),
        (SURVIVAL | {"proficiency": "lockpicks"}, "proficiency"),
        ({"characteristic": "DEX", "untrained_penalty": "-2"}, "untrained_penalty"),
        (SURVIVAL | {"rank": "9"}, "rank"),
        (SURVIVAL | {"situations": ["bright-light"]}, "situations"),
        (SURVIVAL | {"assist.mode": "advantage"}, "assist.helper"),
        (SURVIVAL | {"assist.mode": "proficiency", "assist.helper": "Bo"}, "assist.rank"),
    ],
)
def test_bad_roll_forms_name_the_field(form: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(kara(), form, {}, SeededSource(0))
    assert error.value.field == field


@pytest.mark.parametrize(
    ("variants", "field"),
    [({"scale": "d6"}, "variants.scale"), ({"speed": "fast"}, "variants.speed")],
)
def test_bad_variants_name_the_variant(variants: dict[str, str], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.roll(kara(), SURVIVAL, variants, SeededSource(0))
    assert error.value.field == field


def test_roll_record_replays_to_the_same_card() -> None:
    sheet = kara()
    for seed in range(40):
        play = TABLE.roll(sheet, SURVIVAL, HALVED, SeededSource(seed))
        assert play.sheet is None
        assert play.record["kind"] == "roll"
        assert len(play.record["draws"]) == 1
        assert TABLE.card([play.record]) == play.card
        assert play.card.outcome.split(" (")[0].lower() in OUTCOMES
    assert play.card.title == "Kara: Survival (PER)"
    assert "rank bonus (rank 1): +2" in play.card.modifiers
    assert "difficulty: Hard: -4" in play.card.modifiers
    assert play.card.steps[0] == "Target 13: PER 30, halved to 15, modifiers -2"
    tampered = {**play.record, "draws": [[20, 3], [20, 4]]}
    with pytest.raises(InvalidInput):
        TABLE.card([tampered])


def test_favour_and_a_curse_are_spent_by_the_roll_with_the_sheet() -> None:
    favoured = TABLE.roll(kara(favour=True), SURVIVAL | {"favour": True}, WRITTEN, d20(15, 4))
    assert favoured.sheet is not None
    assert favoured.sheet["favour"] is False
    assert [d.face for d in favoured.card.dice] == [15, 4]
    assert "advantage: favour spent" in favoured.card.modifiers
    both = TABLE.roll(kara(cursed=True), SURVIVAL | {"advantage": True}, WRITTEN, d20(6))
    assert both.card.modifiers[-3:] == (
        "disadvantage: cursed (spent by this roll)",
        "advantage: called at the table",
        "advantage and disadvantage cancel: one die",
    )
    assert TABLE.card([favoured.record]) == favoured.card
    with pytest.raises(RuleViolation):
        TABLE.roll(kara(), SURVIVAL | {"favour": True}, {}, SeededSource(0))
    cursed = TABLE.roll(kara(cursed=True), SURVIVAL, WRITTEN, d20(3, 17))
    assert cursed.sheet is not None
    assert cursed.sheet["cursed"] is False
    assert cursed.card.steps[-1] == "d20 kept 17 (the higher of two): success"
    assert TABLE.card([cursed.record]) == cursed.card


def test_an_unconscious_roller_fails_without_dice() -> None:
    play = TABLE.roll(kara(unconscious=True), SURVIVAL, {}, d20())
    assert play.record["draws"] == []
    assert play.card.dice == ()
    assert play.card.outcome == "Failure: Kara is unconscious: automatic failure"
    assert play.card.actions == ()


def test_assisted_checks_lend_advantage_or_rank() -> None:
    helped = TABLE.roll(
        kara(), SURVIVAL | {"assist.mode": "advantage", "assist.helper": "Bo"}, {}, d20(19, 6)
    )
    assert len(helped.card.dice) == 2
    assert "advantage: assisted by Bo (Survival affinity)" in helped.card.modifiers
    lent = {
        "characteristic": "INT",
        "affinity": "arcane",
        "assist.mode": "proficiency",
        "assist.helper": "Bo",
        "assist.rank": "3",
    }
    play = TABLE.roll(kara(), lent, {}, d20(10))
    assert "rank bonus (rank 3, lent by Bo): +4" in play.card.modifiers  # and no harder class
    assert "difficulty: Challenging: +0" in play.card.modifiers
    assert TABLE.card([play.record]) == play.card


@pytest.mark.parametrize("field", ["helper", "opposed.character"])
def test_a_sheet_picked_for_a_field_that_will_not_load_is_named_under_that_field(
    field: str,
) -> None:
    """A helper's or an opponent's sheet is checked as a sheet, and each of its problems is
    named under the field that carried it ("helper.race"), not as the roller's own."""
    rules = TableRules(get_game("legacy"))
    with pytest.raises(InvalidInput) as caught:
        rules.request(rules.new_sheet("Vex"), {"characteristic": "STR", field: {}}, {})
    named = [problem.field for problem in problems_of(caught.value)]
    assert named
    assert all(name.startswith(field + ".") for name in named), named


def test_a_character_does_not_assist_its_own_check() -> None:
    """An assisted check is help from someone else: the roller picked as their own helper is
    refused, with a sheet as with a name alone."""
    rules = TableRules(get_game("legacy"))
    ana = rules.new_sheet("Ana")
    check = {"characteristic": "PER", "affinity": "survival"}
    with pytest.raises(InvalidInput) as caught:
        rules.request(ana, check | {"helper": ana}, {})
    assert (caught.value.field, caught.value.value) == ("helper", "Ana")
    bo = rules.new_sheet("Bo")
    assert rules.request(ana, check | {"helper": bo}, {}) is not None
