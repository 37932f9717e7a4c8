"""The Empty Reach behind the game contract: old records, strict replay, typed chances, the
odds question, the push's params, raw requests, homebrew content and the content listing."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidForm, InvalidInput, ReplayMismatch, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Game
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, prepare
from rulebound.rulesets.empty_reach.game import GAME
from rulebound.rulesets.empty_reach.odds import (
    cost_distribution,
    p_bane_charged,
    p_success,
    success_distribution,
)
from rulebound.rulesets.empty_reach.opposed import opposed_odds
from rulebound.rulesets.empty_reach.roll import EmptyReachResult
from rulebound.rulesets.plays import TableRules, follow_play, params_of, replay, roll_play
from rulebound.rulesets.registry import BUILT_IN, get_game
from rulebound.rulesets.variants import resolve

OLD = json.loads((Path(__file__).parent / "old_records.json").read_text(encoding="utf-8"))
"""Chains, sheet actions and chances the adapter before the contract wrote (``table.py``)."""
TABLE = TableRules(GAME)
DEFAULTS = resolve(GAME.variants, {})
ODDS_FIELDS = (*GAME.fields, *GAME.odds_fields)


def raw(**values: Any) -> CheckRequest:
    """A raw request from CLI-like strings, read by the game's own fields."""
    return GAME.request(forms.read(GAME.fields, values), DEFAULTS)


def odds(**values: Any) -> Any:
    return GAME.odds(forms.read(ODDS_FIELDS, values), DEFAULTS)


def dice_json(card: Any) -> list[dict[str, Any]]:
    dice: list[dict[str, Any]] = json.loads(
        json.dumps([dataclasses.asdict(die) for die in card.dice])
    )
    return dice


def two_columns(rows: Iterable[tuple[str, ...]]) -> dict[str, str]:
    """A two-column table as a mapping, as ``dict(rows)`` reads it (each row a pair)."""
    table: dict[str, str] = {}
    for key, value in rows:
        table[key] = value
    return table


def test_game_contract_and_registration() -> None:
    assert isinstance(GAME, Game)
    assert get_game("empty-reach") is GAME
    assert (GAME.key, GAME.title) == ("empty-reach", "The Empty Reach")
    assert BUILT_IN["empty-reach"][1] == "rulebound.rulesets.empty_reach.game:GAME"
    assert [v.key for v in GAME.variants] == ["gear_banes", "tie_break"]
    assert [v.label for v in GAME.variants] == ["Which banes risk the gear", "An opposed tie"]
    assert all(len(v.choice_labels) == len(v.choices) for v in GAME.variants)


def test_every_documented_cli_flag_is_declared() -> None:
    """docs/rulesets/empty-reach.md and the README: each flag is a field, variant or follow flag."""
    sheets = GAME.sheets
    assert sheets is not None
    raw_flags = {f.cli_flag for f in GAME.fields}
    sheet_flags = {f.cli_flag for f in sheets.choice_fields}
    odds_flags = {f.cli_flag for f in GAME.odds_fields}
    variant_flags = {v.key.replace("_", "-") for v in GAME.variants}
    follow_flags = {f.flag for f in GAME.follow_flags}
    roll = {"attribute", "skill", "skill-name", "attribute-name", "helpers", "difficulty"}
    roll |= {"difficulty-level", "situation", "specialty", "modifier", "gear", "passive"}
    assert roll <= raw_flags
    assert {"skill-name", "gear", "swap", "situation", "modifier", "passive"} <= sheet_flags
    opposed = {"opposed-attribute", "opposed-skill", "opposed-helpers"}
    assert opposed <= raw_flags & sheet_flags
    assert {"push", "gear-bonus"} <= odds_flags
    assert {"attribute", "skill", "modifier", "attribute-name", "specialty"} <= raw_flags
    assert "gear-banes" in variant_flags
    assert follow_flags == {"reroll"}
    by_name = {f.name: f for f in GAME.fields}
    assert (by_name["skill_die"].cli_flag, by_name["attribute_die"].cli_flag) == (
        "skill",
        "attribute",
    )


# --- records --------------------------------------------------------------------------


def _prefixes(item: dict[str, Any]) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    chain = item["chain"]
    return [(chain[: i + 1], card) for i, card in enumerate(item["cards"])]


@pytest.mark.parametrize("item", OLD["chains"], ids=lambda item: item["name"])
def test_old_records_replay_to_the_same_card(item: dict[str, Any]) -> None:
    for chain, old in _prefixes(item):
        card = TABLE.card(chain)
        said = card.outcome.partition("; pushing cost ")[0]  # the words since: what it cost
        assert (said, card.succeeded, dice_json(card)) == (
            old["outcome"],
            old["succeeded"],
            old["dice"],
        )


@pytest.mark.parametrize("item", OLD["chains"], ids=lambda item: item["name"])
def test_old_records_load_and_normalise_unchanged(item: dict[str, Any]) -> None:
    roll, *pushes = item["chain"]
    assert GAME.dump(GAME.load(params_of(roll))) == params_of(roll)
    result = replay(GAME, [roll])
    for record in pushes:
        assert GAME.follow_params(result, "push", params_of(record)) == params_of(record)
        result = replay(GAME, [roll, *pushes[: pushes.index(record) + 1]])


@pytest.mark.parametrize(
    "item", [i for i in OLD["chains"] if len(i["chain"]) > 1], ids=lambda item: item["name"]
)
def test_old_pushes_cost_the_sheet_the_same(item: dict[str, Any]) -> None:
    """The sheet after each push (``Sheets.settle``) is what ``push_and_pay`` gave."""
    sheet = item["sheet"]
    for index in range(1, len(item["chain"])):
        record = item["chain"][index]
        draws = ReplaySource(Draw(s, f) for s, f in record["draws"])
        params = {"reroll": record["reroll"]}
        play = TABLE.act(sheet, item["chain"][:index], "push", params, DEFAULTS, draws)
        assert play.record == record
        assert play.sheet == item["sheets"][index]
        sheet = play.sheet


@pytest.mark.parametrize(
    "tool", OLD["tools"], ids=lambda tool: f"{tool['action']}-{tool['seed']}-{tool['params']}"
)
def test_old_sheet_actions_keep_their_dice_and_sheets(tool: dict[str, Any]) -> None:
    """Heal keeps its record and card. Repair and Second Wind are rolls now (issue 15: repair
    may be pushed, Second Wind's successes are split after the roll): the same dice give the
    same sheet, Second Wind's once its split is the old one."""
    action, params = tool["action"], tool["params"]
    source = SeededSource(tool["seed"])
    given = {} if action == "second-wind" else params
    play = TABLE.sheet_act(tool["sheet"], action, given, {}, source)
    old = tool["card"]
    if action == "heal":
        assert play.record == tool["record"]
        assert (play.card.title, play.card.outcome) == (old["title"], old["outcome"])
    else:
        assert play.record["kind"] == "roll"
        assert play.record["draws"] == tool["record"]["draws"]
        assert play.card.succeeded == old["succeeded"]
        assert [(d["label"], d["face"]) for d in dice_json(play.card)] == [
            (d["label"], d["face"]) for d in old["dice"]
        ]
    if any(a.key == "split" for a in play.card.actions):
        assert play.sheet is not None
        split = {"to_health": tool["record"]["to_health"]}
        play = TABLE.act(play.sheet, [play.record], "split", split, {}, SeededSource(0))
    assert play.sheet == tool["after"]


@pytest.mark.parametrize("item", OLD["chances"], ids=lambda item: str(item["form"]))
def test_old_chances_keep_their_labels_and_values(item: dict[str, Any]) -> None:
    form = dict(item["form"])
    variants = form.pop("variants", {})
    chances = TABLE.chances(item["sheet"], form, variants)
    assert chances.as_mapping() == {k: Fraction(v) for k, v in item["chances"].items()}
    assert sum(o.probability for o in chances.outcomes) == 1


def _record() -> dict[str, Any]:
    request = raw(attribute_die="D8", skill_die="D10", skill="Force")
    for seed in range(100):
        result, record = roll_play(GAME, request, SeededSource(seed))
        assert isinstance(result, EmptyReachResult)  # a plain roll, not opposed or a split
        if result.default_reroll():
            return record
    raise AssertionError("no seed with a push")


def test_a_roll_record_with_surplus_or_missing_draws_is_refused() -> None:
    """Issue 11 drift: the old replay accepted surplus draws."""
    record = _record()
    assert replay(GAME, [record]) is not None
    surplus = {**record, "draws": [*record["draws"], [6, 3], [6, 4]]}
    with pytest.raises(InvalidInput) as error:
        replay(GAME, [surplus])
    assert error.value.field == "record.draws"
    missing = {**record, "draws": record["draws"][:-1]}
    with pytest.raises(ReplayMismatch):
        replay(GAME, [missing])
    with pytest.raises(InvalidInput):
        TABLE.card([surplus])


def test_a_push_record_with_surplus_or_missing_draws_is_refused() -> None:
    record = _record()
    result = replay(GAME, [record])
    _, pushed = follow_play(GAME, result, "push", {}, SeededSource(9))
    assert pushed["reroll"] == list(result.default_reroll())
    assert replay(GAME, [record, pushed]) is not None
    surplus = {**pushed, "draws": [*pushed["draws"], [6, 1], [6, 1]]}
    missing = {**pushed, "draws": pushed["draws"][:-1]}
    with pytest.raises(InvalidInput):
        replay(GAME, [record, surplus])
    with pytest.raises(ReplayMismatch):
        replay(GAME, [record, missing])


def test_a_record_naming_an_impossible_push_is_refused() -> None:
    passive = raw(attribute_die="D8", passive="on")
    _, record = roll_play(GAME, passive, SeededSource(1))
    with pytest.raises(RuleViolation) as error:
        replay(GAME, [record, {"kind": "push", "reroll": [0], "draws": [[8, 3]]}])
    assert "passive roll" in str(error.value)
    with pytest.raises(InvalidInput) as bad:
        replay(GAME, [_record(), {"kind": "push", "reroll": [7], "draws": []}])
    assert bad.value.field == "reroll"


@given(
    st.fixed_dictionaries(
        {
            "attribute_die": st.sampled_from(["D6", "D8", "D10", "D12"]),
            "skill_die": st.sampled_from([None, "D6", "D12"]),
            "helpers": st.integers(0, 3),
            "difficulty": st.integers(-3, 3),
            "situations": st.lists(
                st.sampled_from(["stealth-dark", "specialty-driver"]), max_size=2, unique=True
            ),
            "specialties": st.lists(st.sampled_from(["Driver", "Tough"]), max_size=2),
            "gear": st.sampled_from([None, "scope:1", "rig:2:D8,D6"]),
            "passive": st.booleans(),
            "modifier": st.integers(-2, 2),
        }
    ),
    st.sampled_from(["base-dice", "gear-dice"]),
)
def test_load_of_dump_is_the_request(values: dict[str, Any], rule: str) -> None:
    request = GAME.request(values, {**DEFAULTS, "gear_banes": rule})
    assert GAME.load(json.loads(json.dumps(GAME.dump(request)))) == request
    assert set(GAME.dump(request)) == {"request"}


def test_load_names_the_bad_field() -> None:
    with pytest.raises(InvalidInput) as error:
        GAME.load({"request": {"attribute_die": "D7"}})
    assert error.value.field == "record.request.attribute_die"
    with pytest.raises(InvalidInput) as error:
        GAME.load({"request": "D8"})
    assert error.value.field == "record.request"


# --- chances --------------------------------------------------------------------------


def test_chances_are_the_distribution_of_successes() -> None:
    """Issue 11 drift: the old mapping summed to 1.75 (success counted twice beside the counts)."""
    chances = GAME.chances(raw(attribute_die="D8", skill_die="D10"))
    assert sum(o.probability for o in chances.outcomes) == 1
    assert chances.success == Fraction(11, 16)  # 1 - (5/8)(5/10), as before
    assert chances.outcome_name == "successes"
    assert [o.key for o in chances.outcomes] == ["0", "1", "2", "3"]
    assert [o.label for o in chances.outcomes] == [
        "0 successes",
        "1 success",
        "2 successes",
        "3 successes",
    ]
    assert [o.success for o in chances.outcomes] == [False, True, True, True]
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D10"))
    assert chances.extra("p_success_if_pushed") == p_success(check, "if-failed")
    assert chances.extra("expected_successes") == success_distribution(check).mean()
    mapping = chances.as_mapping()
    assert list(mapping)[:2] == ["success", "0 successes"]
    assert mapping["success if pushed when failing"] == p_success(check, "if-failed")


def test_a_passive_roll_has_no_chance_if_pushed() -> None:
    chances = GAME.chances(raw(attribute_die="D8", passive="on"))
    assert [e.key for e in chances.extras] == ["expected_successes"]
    assert chances.as_mapping() == {
        "success": Fraction(3, 8),
        "0 successes": Fraction(5, 8),
        "1 success": Fraction(3, 8),
    }


def test_odds_give_the_old_numbers_under_a_push_policy() -> None:
    chances = odds(attribute_die="D8", skill_die="D10", push="always")
    assert chances.success == Fraction(139, 160)
    assert chances.extra("p_bane") == Fraction(151, 800)
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D10"))
    counts = success_distribution(check, "always")
    assert {o.key: o.probability for o in chances.outcomes} == {
        str(n): p for n, p in counts.probabilities().items()
    }
    assert chances.extra("expected_successes") == counts.mean()
    costs = cost_distribution(check, "always")
    assert chances.extra("expected_cost") == costs.mean(lambda c: c[0])
    assert chances.success_label == "success with D8 + D10"
    never = odds(attribute_die="D8", skill_die="D10")
    assert never.success == Fraction(11, 16)
    assert [e.key for e in never.extras] == ["expected_successes"]


def test_odds_with_gear_specialties_and_the_opposed_side() -> None:
    geared = odds(attribute_die="D6", skill_die="D6", gear_bonus="2", push="if-failed")
    check = prepare(
        CheckRequest(attribute_die="D6", skill_die="D6", gear=GearInUse(name="gear", bonus=2))
    )
    costs = cost_distribution(check, "if-failed")
    assert geared.extra("p_gear_loss") == costs.probability_where(lambda c: c[1] > 0)
    assert geared.extra("p_bane") == p_bane_charged(check, "if-failed")
    twice = odds(
        attribute_die="D6",
        skill_die="D6",
        attribute="Empathy",
        specialties=["Compassion"],
        push="if-failed",
    )
    assert twice.success == Fraction(1691, 2916)
    opposed = odds(attribute_die="D8", skill_die="D10", opposed_attribute="D6", opposed_skill="D8")
    verdicts = opposed_odds(
        prepare(CheckRequest(attribute_die="D8", skill_die="D10")),
        prepare(CheckRequest(attribute_die="D6", skill_die="D8")),
    )
    assert {k: opposed.extra(f"p_{k}") for k in ("win", "tie", "loss")} == verdicts
    with pytest.raises(InvalidInput) as error:
        odds(attribute_die="D8", opposed_skill="D8")
    assert error.value.field == "opposed_attribute"
    with pytest.raises(InvalidInput) as error:
        odds(attribute_die="D8", gear="scope:1", gear_bonus="1")
    assert error.value.field == "gear_bonus"
    with pytest.raises(InvalidInput) as error:
        odds(attribute_die="D8", push="sometimes")
    assert error.value.field == "push"


# --- the push -------------------------------------------------------------------------


def test_push_params_fill_the_default_and_read_strings() -> None:
    record = _record()
    result = replay(GAME, [record])
    default = list(result.default_reroll())
    assert GAME.follow_params(result, "push", {}) == {"reroll": default}
    assert GAME.follow_params(result, "push", {"reroll": ""}) == {"reroll": default}
    picked = [str(i) for i in result.rerollable()]
    assert GAME.follow_params(result, "push", {"reroll": ",".join(picked)}) == {
        "reroll": list(result.rerollable())
    }
    assert GAME.follow_params(result, "push", {"reroll": picked, "variants": {}}) == {
        "reroll": list(result.rerollable())
    }
    with pytest.raises(InvalidInput) as error:
        GAME.follow_params(result, "push", {"reroll": ["x"]})
    assert error.value.field == "reroll"
    with pytest.raises(InvalidInput):
        GAME.follow_params(result, "push", {"reroll": []})
    with pytest.raises(InvalidInput) as wrong:
        GAME.follow_params(result, "dance", {})
    assert wrong.value.field == "action"


def test_the_push_is_offered_while_the_rules_allow_it() -> None:
    result = replay(GAME, [_record()])
    (push,) = GAME.follow_ups(result)
    assert (push.key, push.available, push.spends) == ("push", True, "damage")
    assert push.fields[0].name == "reroll"
    assert push.fields[0].kind == "dice"
    pushed, _ = follow_play(GAME, result, "push", {}, SeededSource(2))
    assert GAME.follow_ups(pushed) == ()
    with pytest.raises(RuleViolation):
        follow_play(GAME, pushed, "push", {}, SeededSource(3))
    passive, _ = roll_play(GAME, raw(attribute_die="D8", passive="on"), SeededSource(1))
    assert GAME.follow_ups(passive) == ()


# --- raw requests ---------------------------------------------------------------------


def test_a_raw_request_reads_every_modifier() -> None:
    request = raw(
        attribute_die="d8",
        skill_die="D10",
        skill="stealth",
        attribute="wits",
        helpers="2",
        difficulty="-1",
        difficulty_level="hard",
        situations=["stealth-dark"],
        specialties=["Driver"],
        modifier="1",
        gear="scope:1:D8, D6",
        passive="yes",
    )
    assert request.skill == "Stealth"
    assert request.attribute == "Wits"
    assert (request.helpers, request.difficulty, request.difficulty_level) == (2, -1, "hard")
    assert request.gear == GearInUse(name="scope", bonus=1, dice=("D8", "D6"))
    assert [m.source for m in request.modifiers] == ["modifier"]
    assert request.unpushable == "passive roll"
    assert raw(attribute_die="D8").gear is None


@pytest.mark.parametrize("gear", ["scope", "scope:x", "scope:1:D7", ":1", "a:1:D6:D8", "s:²"])
def test_bad_gear_names_the_field(gear: str) -> None:
    with pytest.raises(InvalidInput) as error:
        raw(attribute_die="D8", gear=gear)
    assert error.value.field.startswith("gear")


def test_every_bad_field_is_reported_at_once() -> None:
    with pytest.raises(InvalidForm) as error:
        GAME.request({"attribute_die": "D7", "helpers": -1, "gear": "scope"}, DEFAULTS)
    assert {p.field for p in error.value.problems} == {"gear", "attribute_die", "helpers"}
    with pytest.raises(InvalidForm) as read:
        forms.read(GAME.fields, {"attribute_die": "D7", "helpers": "4"})
    assert {p.field for p in read.value.problems} == {"attribute_die", "helpers"}


# --- content --------------------------------------------------------------------------


def test_content_lists_the_rules_data_with_numbers() -> None:
    tables = {t.title: t for t in GAME.content()}
    assert list(tables) == [
        "Rules",
        "Attributes",
        "Skills",
        "Specialties",
        "Situations",
        "Difficulty levels",
    ]
    assert ("Strength", "damage") in tables["Attributes"].rows
    assert ("Wits", "stress") in tables["Attributes"].rows
    skills = {row[0]: row for row in tables["Skills"].rows}
    assert len(skills) == 12
    assert skills["Force"][1] == "Strength"
    specialties = {row[0]: row for row in tables["Specialties"].rows}
    assert specialties["Driver"][1:] == (
        "situational",
        "+1 Mobility when controlling a ground vehicle",
        "1",
        "specialty-driver",
    )
    assert specialties["Compassion"][1:] == (
        "extra-push",
        "Empathy rolls may be pushed 2 times",
        "1",
        "",
    )
    assert specialties["Tough"][2:4] == ("+1 maximum Health each time taken", "3")
    rules = two_columns(tables["Rules"].rows)
    assert (rules["a success"], rules["help"]) == (
        "a face of 6 or more",
        "+1 a person, at most 3 people",
    )
    situations = {row[0]: row for row in tables["Situations"].rows}
    assert situations["stealth-dark"][2:] == ("+1", "Stealth")
    assert ("hard", "Hard", "-2") in tables["Difficulty levels"].rows


HOMEBREW = """
[[specialties]]
name = "Void Sense"
effect = "extra-push"
attribute = "Wits"
summary = "Wits rolls may be pushed twice."
"""


def test_with_content_adds_homebrew_specialties(tmp_path: Path) -> None:
    path = tmp_path / "specialties.toml"
    path.write_text(HOMEBREW, encoding="utf-8")
    game = GAME.with_content(path)
    assert game is not GAME
    assert any(
        row[0] == "Void Sense" for row in {t.title: t.rows for t in game.content()}["Specialties"]
    )
    values = {"attribute_die": "D8", "attribute": "Wits", "specialties": ["Void Sense"]}
    request = game.request(forms.read(game.fields, values), DEFAULTS)
    result, record = roll_play(game, request, SeededSource(4))
    assert result.check.max_pushes == 2
    assert game.card(replay(game, [record])) == game.card(result)
    with pytest.raises(InvalidInput):
        forms.read(GAME.fields, values)
    sheets = game.sheets
    assert sheets is not None
    sheet = sheets.validate({**sheets.new("Ana"), "specialties": ["Void Sense", "Second Wind"]})
    assert sheet["specialties"] == ["Void Sense", "Second Wind"]
    with pytest.raises(InvalidInput):
        TABLE.validate_sheet(sheet)
    broken = TableRules(game).apply_sheet_form(sheet, {"damage": "4"})
    assert ("Broken", "yes") in sheets.view(broken).tracks
    assert [a.key for a in game.sheet_actions(broken, DEFAULTS)] == ["heal", "second-wind"]
    wind = game.sheet_act(broken, "second-wind", {}, DEFAULTS, SeededSource(1))
    assert wind.record["kind"] == "roll"
    assert wind.record["request"]["second_wind"]["max_health"] == 4
    played = sheets.request(broken, {"skill": "Observation"}, DEFAULTS)
    assert game.prepare(played).max_pushes == 2
