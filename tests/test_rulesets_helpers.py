"""The generic helpers every game's front end is built from: fields, sheet paths, records,
table characters, and the contract's small constructors."""

from enum import StrEnum
from fractions import Fraction

import pytest

from rulebound.core.errors import (
    InvalidForm,
    InvalidInput,
    ReplayMismatch,
    RuleViolation,
    problems_of,
)
from rulebound.core.keys import check_known
from rulebound.core.random_source import Draw, RandomSource, SeededSource
from rulebound.core.trace import DieRecord, DieState
from rulebound.render.words import plain
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Chances, Choice, ContentTable, DieView, Field, Variant
from rulebound.rulesets.fields import at, choices, grouped, number, put, switch
from rulebound.rulesets.forms import pairs
from rulebound.rulesets.plays import (
    TableRules,
    character_id,
    character_ids,
    record_object,
    recorded,
    replayed,
)
from rulebound.rulesets.registry import game_keys, get_game
from rulebound.rulesets.variants import changed

# --- fields ------------------------------------------------------------------------------


def test_choices_label_a_mapping_s_keys_and_a_plain_value_by_itself() -> None:
    first = Choice("", "none")
    assert choices({"d6": "a six"}, first) == (first, Choice("d6", "a six"))
    assert choices(["D6", "D8"]) == (Choice("D6", "D6"), Choice("D8", "D8"))


def test_number_switch_and_grouped_build_the_common_fields() -> None:
    score = number("traits.Wits", "Wits", 1, 10, help="dice")
    assert (score.kind, score.minimum, score.maximum, score.help) == ("int", 1, 10, "dice")
    assert number("bonus", "Bonus", 0).maximum is None
    tick = switch("passive", "Passive")
    assert (tick.kind, tick.default) == ("bool", False)
    assert [f.group for f in grouped("Traits", [score, tick])] == ["Traits", "Traits"]


def test_at_reads_a_dotted_path_or_keys_and_none_where_nothing_is() -> None:
    sheet = {"skills": {"St. Elmo": {"score": 3}}, "name": "Ann"}
    assert at(sheet, ("skills", "St. Elmo", "score")) == 3
    assert at(sheet, "name") == "Ann"
    assert at(sheet, "skills.nope.score") is None
    assert at(sheet, "name.first") is None


def test_put_writes_on_copies_and_a_blank_removes_the_key() -> None:
    sheet = {"skills": {"firearms": {"bonus": 2, "ability": "agility"}}}
    edited = dict(sheet)
    put(edited, "skills.firearms.bonus", None)
    put(edited, ("skills", "drive", "bonus"), 1)
    put(edited, "skills.absent.bonus", None)
    assert edited["skills"] == {"firearms": {"ability": "agility"}, "drive": {"bonus": 1}}
    assert sheet == {"skills": {"firearms": {"bonus": 2, "ability": "agility"}}}


def test_pairs_reads_name_value_texts_and_names_every_bad_one() -> None:
    assert pairs("trait", ["resolve = Hard"]) == [("resolve", "Hard")]
    assert pairs("gear", ["scope=2"], whole=True) == [("scope", 2)]
    with pytest.raises(InvalidForm) as error:
        pairs("gear", ["scope", "sight=two"], whole=True)
    assert [p.field for p in error.value.problems] == ["gear", "gear.sight"]


def test_check_known_names_the_first_value_not_allowed() -> None:
    check_known("location", ["head", "torso"], ("head", "torso"))
    with pytest.raises(InvalidInput) as error:
        check_known("ignore", ["soak", "tail"], ("soak",), "any of")
    assert (error.value.value, error.value.expected) == ("tail", "any of soak")


# --- the contract's constructors ---------------------------------------------------------


def test_die_view_of_a_rolled_die() -> None:
    die = DieRecord("d20 #1", 20, 7, "check", DieState.KEPT, (12,), ("kept",))
    view = DieView.of(die, "Kara", selectable=True)
    assert view == DieView("Kara d20 #1", 20, 7, ("kept",), "kept", (12,), "check", True)
    assert DieView.of(die, marks=()).marks == ()


def test_content_table_of_columns_as_text() -> None:
    table = ContentTable.of("Skills", "name, trait", [["Force", "Strength"]])
    assert table == ContentTable("Skills", ("name", "trait"), (("Force", "Strength"),))


def test_chances_over_named_outcomes() -> None:
    chances = Chances.over(
        {"stable": Fraction(3, 4), "dead": Fraction(1, 4)}, {"stable"}, success_label="stable"
    )
    assert chances.success == Fraction(3, 4)
    assert [(o.key, o.label, o.success) for o in chances.outcomes] == [
        ("stable", "stable", True),
        ("dead", "dead", False),
    ]


def test_variant_of_an_enum_defaults_to_its_first_value() -> None:
    class Reading(StrEnum):
        AS_WRITTEN = "as-written"
        HALVED = "halved"

    variant = Variant.of("scale", Reading, "The scale", "Which scale.", "as written", "halved")
    assert (variant.choices, variant.default) == (("as-written", "halved"), "as-written")
    assert (variant.label, variant.words("halved")) == ("The scale", "halved")


def test_changed_lists_the_variants_off_their_default() -> None:
    known = (Variant("scale", ("a", "b"), "a", ""), Variant("bonus", ("x", "y"), "x", ""))
    assert changed(known, {"scale": "a", "bonus": "y"}) == [("bonus", "y")]
    assert changed(known, {}) == []


# --- records and replay ------------------------------------------------------------------


def test_record_object_refuses_what_is_not_a_json_object() -> None:
    assert record_object({"request": {"dice": 3}}, "request", "a request") == {"dice": 3}
    with pytest.raises(InvalidInput) as error:
        record_object({"request": [3]}, "request", "a request")
    assert error.value.field == "record.request"


def test_recorded_then_replayed_gives_the_same_result_on_the_same_draws() -> None:
    def roll(source: RandomSource) -> tuple[int, int]:
        return source.draw(6), source.draw(20)

    faces, draws = recorded(roll, SeededSource(4))
    record = {"draws": [[d.sides, d.face] for d in draws]}
    assert draws == (Draw(6, faces[0]), Draw(20, faces[1]))
    assert replayed(record, roll) == faces


def test_replayed_refuses_surplus_missing_or_mismatched_draws() -> None:
    def roll(source: RandomSource) -> int:
        return source.draw(6)

    with pytest.raises(InvalidInput) as error:
        replayed({"draws": [[6, 2], [6, 3]]}, roll, "the push")
    assert error.value.expected == "exactly the draws the push uses, and no more"
    with pytest.raises(ReplayMismatch):
        replayed({"draws": []}, roll)
    with pytest.raises(ReplayMismatch):
        replayed({"draws": [[20, 3]]}, roll)


# --- a game-master tool's characters ------------------------------------------------------


def test_characters_are_named_by_id_or_by_a_name_no_other_shares() -> None:
    table = {"1": {"name": "Kara"}, "2": {"name": "Bo"}, "3": {"name": "bo"}}
    assert character_id(table, "kara", "who") == "1"
    assert character_id(table, "2", "who") == "2"
    assert character_ids(table, {"who": "1, Kara\n2"}, "who") == ["1", "2"]
    with pytest.raises(InvalidInput, match="a name two characters share"):
        character_id(table, "Bo", "who")
    with pytest.raises(InvalidInput, match="a character at this table"):
        character_id(table, "Zed", "who")


def test_a_required_field_left_out_is_asked_for_even_where_the_dialog_preselects_it() -> None:
    """A dialog's default is what it shows first; a roll sent without the field is refused
    rather than rolled on a guess, and the refusal does not claim there is no default."""
    asked = 0
    for key in sorted(game_keys()):
        rules = TableRules(get_game(key))
        dialog = rules.dialog(rules.new_sheet("Vex"))
        if not any(f.required for f in dialog):
            continue
        with pytest.raises(InvalidInput) as caught:
            forms.read(dialog, {})
        for problem in problems_of(caught.value):
            field = next(f for f in dialog if f.name == problem.field)
            assert problem.expected.endswith(f"(required: {field.label} must be given)")
            asked += field.default is not None
        assert "no default" not in plain(caught.value)
    assert asked >= 2  # Legacy's characteristic and the Empty Reach's skill, at least


@pytest.mark.parametrize(
    ("detail", "said"),
    [
        ("a passive roll cannot be pushed", "A passive roll cannot be pushed (push)."),
        ("gm-char holds no favour to spend", "gm-char holds no favour to spend (push)."),
        ("p1-char does not hold it", "p1-char does not hold it (push)."),
    ],
)
def test_a_refusal_starts_a_sentence_but_keeps_a_name_as_it_was_written(
    detail: str, said: str
) -> None:
    assert plain(RuleViolation("push", detail)) == said


@pytest.mark.parametrize(
    ("field", "said"),
    [
        ("skills.Climbing.score", "Climbing score: 50 will not do"),
        ("gear.0.bonus", "Gear 1 bonus: 50 will not do"),
        ("scores.STR", "STR: 50 will not do"),
    ],
)
def test_a_field_of_one_entry_among_many_is_named_with_its_entry(field: str, said: str) -> None:
    """Every Rainwall skill has a Score: "Score: 50 will not do" did not say whose."""
    assert plain(InvalidInput(field, 50, "a number of at most 10")).startswith(said)


@pytest.mark.parametrize(
    ("value", "said"),
    [([1.5], "1.5 will not do"), ([[0]], "[0] will not do"), ({"a": 1}, '{"a": 1} will not do')],
)
def test_a_value_is_said_as_given(value: object, said: str) -> None:
    """A float was "that", and a list in a list read as its items ([[0]] as "0")."""
    assert said in plain(InvalidInput("reroll", value, "die numbers"))


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("helper.race", "Race of Helper (a character) is needed"),
        ("helper.scores.STR", "STR of Helper (a character): 50 will not do"),
        ("helper", "Helper (a character) is needed"),
    ],
)
def test_a_problem_inside_a_fields_value_names_the_part_and_the_field(name: str, said: str) -> None:
    """A helper's sheet without a race was "Helper (a character) is needed", as if no helper
    had been given."""
    helper = Field("helper", "Helper (a character)", "sheet")
    value = 50 if name.endswith("STR") else None
    assert plain(InvalidInput(name, value, "a value"), (helper,)).startswith(said)


@pytest.mark.parametrize(
    ("name", "said"),
    [("gear.1.bonus", "Gear 2 bonus: 50 will not do"), ("gear.0", "Gear 1: 50 will not do")],
)
def test_an_entry_of_a_list_field_is_named_by_its_place(name: str, said: str) -> None:
    """ "Bonus of Gear" lost which gear; "0 of Gear" read as a number."""
    gear = Field("gear", "Gear", "text")
    assert plain(InvalidInput(name, 50, "a value"), (gear,)).startswith(said)
