"""Ghostburn behind the game contract: records old and new, strict replay, typed chances,
the raw luck spend, homebrew content and the content listing."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput, LimitExceeded, ReplayMismatch, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Game
from rulebound.rulesets.ghostburn.game import GAME, SUCCESS_LABEL
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.odds import p_success
from rulebound.rulesets.ghostburn.options import BottomFade, OffLadderReading, Options
from rulebound.rulesets.plays import TableRules, follow_play, replay, roll_play
from rulebound.rulesets.registry import BUILT_IN
from rulebound.rulesets.variants import resolve

OLD = json.loads((Path(__file__).parent / "old_records.json").read_text(encoding="utf-8"))
"""Chains the adapter before the contract wrote (``table.py``), with its cards and chances."""
TABLE = TableRules(GAME)
DEFAULTS = resolve(GAME.variants, {})
AIMED = {"skill": "firearms", "trick": "aimed-shot"}


def raw(**values: Any) -> Any:
    """A raw request from CLI-like strings, read by the game's own fields."""
    return GAME.request(forms.read(GAME.fields, values), DEFAULTS)


def test_game_contract_and_registration() -> None:
    assert isinstance(GAME, Game)
    assert (GAME.key, GAME.title) == ("ghostburn", "Ghostburn")
    assert BUILT_IN["ghostburn"][1] == "rulebound.rulesets.ghostburn.game:GAME"
    assert [v.label for v in GAME.variants] == [
        "A DL between ladder levels",
        "A miss at the lowest level",
    ]
    assert all(len(v.choice_labels) == len(v.choices) for v in GAME.variants)


# --- records --------------------------------------------------------------------------


@pytest.mark.parametrize("item", OLD["records"], ids=lambda item: item["chain"][0].get("kind"))
def test_old_records_replay_to_the_same_card(item: dict[str, Any]) -> None:
    card = TABLE.card(item["chain"])
    dice = json.loads(json.dumps([dataclasses.asdict(die) for die in card.dice]))
    # the words since: the total and the DL on the face, "Success (21 vs 14): The shot hits."
    said = re.sub(r" \(\d+ vs \d+\):", ":", card.outcome, count=1)
    said = re.sub(r" A Luck Point was spent \(\+\d+\)\.$", "", said)
    said = said.replace("Fade: A partial", "Fade: Close: a partial")  # a colon too many since
    assert (said, card.succeeded, dice) == (
        item["outcome"],
        item["succeeded"],
        item["dice"],
    )
    if "title" in item:
        assert (card.title, list(card.modifiers)) == (item["title"], item["modifiers"])
        assert (list(card.steps), list(card.details)) == (item["steps"], item["details"])


@pytest.mark.parametrize("item", [i for i in OLD["records"] if "chances" in i])
def test_old_chances_are_kept(item: dict[str, Any]) -> None:
    sheet = OLD["broke"] if item["broke"] else OLD["sheet"]
    form = {k: v for k, v in item["form"].items() if k != "variants"}
    chances = TABLE.chances(sheet, form, item["form"].get("variants"))
    assert chances.as_mapping() == {k: Fraction(v) for k, v in item["chances"].items()}
    assert sum(o.probability for o in chances.outcomes) == 1


def test_old_records_load_and_dump_unchanged() -> None:
    for item in OLD["records"]:
        root = item["chain"][0]
        if root["kind"] != "roll":
            continue
        data = {k: v for k, v in root.items() if k not in ("kind", "draws")}
        request = GAME.load(data)
        assert GAME.dump(request) == data
        assert GAME.load(GAME.dump(request)) == request


def test_a_roll_replays_under_the_ladder_rule_its_record_names() -> None:
    """A 9 against DL 12 fades today (from Easy, 8); a record from before the ladder rule
    was named replays as it was logged then, a Failure, so an old log still verifies."""
    request = GAME.request({"dl": 12, "ability_score": 0}, {})
    _, record = roll_play(GAME, request, ReplaySource([Draw(10, 4), Draw(10, 5)]))
    assert record["ladder"] == 2
    assert GAME.card(replay(GAME, [record])).outcome_key == "fade"
    old = {k: v for k, v in record.items() if k != "ladder"}
    assert GAME.card(replay(GAME, [old])).outcome_key == "failure"


def test_an_old_spend_replays_with_its_own_bonus() -> None:
    item = next(i for i in OLD["records"] if len(i["chain"]) == 2)
    _, spend = item["chain"]
    assert spend == {"kind": "spend-luck", "bonus": 3, "draws": []}
    result = replay(GAME, item["chain"])
    assert result.luck is not None
    assert result.total == result.parent.total + 3
    assert GAME.follow_ups(result) == ()


@pytest.mark.parametrize("change", ["surplus", "missing", "sides"])
def test_a_record_with_surplus_or_missing_draws_is_refused(change: str) -> None:
    play = TABLE.roll(OLD["sheet"], AIMED, {}, SeededSource(3))
    record = dict(play.record)
    draws = list(record["draws"])
    record["draws"] = {
        "surplus": [*draws, [10, 4]],
        "missing": draws[:1],
        "sides": [draws[0], [6, 4]],
    }[change]
    error = InvalidInput if change == "surplus" else ReplayMismatch
    with pytest.raises(error):
        TABLE.card([record])
    spend = {"kind": "spend-luck", "bonus": 3, "draws": [[10, 1]]}
    with pytest.raises(InvalidInput, match=r"record\.draws"):
        TABLE.card([play.record, spend])


def test_only_one_spend_per_chain() -> None:
    play = TABLE.roll(OLD["sheet"], AIMED, {}, SeededSource(3))
    spend = {"kind": "spend-luck", "bonus": 3, "draws": []}
    with pytest.raises(RuleViolation):
        TABLE.act(OLD["sheet"], [play.record, spend], "spend-luck", {}, {}, SeededSource(0))
    with pytest.raises(InvalidInput):
        TABLE.card([play.record, {"kind": "push", "draws": []}])


sheet_values = st.fixed_dictionaries(
    {
        "skill": st.sampled_from(["firearms", "drive", "athletics", ""]),
        "dl": st.sampled_from(["Hard", "17", "8", ""]),
        "dl_shift": st.integers(-1, 1),
        "ability": st.sampled_from(["", "strength", "intelligence"]),
        "set_aside": st.lists(st.sampled_from(["gear:laser sight", "gear:scope"]), unique=True),
        "chart": st.sampled_from(["", "graded"]),
    }
)


@given(values=sheet_values, variants=st.sampled_from(["keep-offset", "snap-to-ladder"]))
def test_dump_then_load_gives_the_same_request(values: dict[str, Any], variants: str) -> None:
    chosen = resolve(GAME.variants, {"off-ladder-dl": variants})
    try:
        request = TABLE.request(OLD["sheet"], values, chosen)
    except InvalidInput:
        return
    assert GAME.load(GAME.dump(request)) == request
    result = GAME.roll(request, SeededSource(1))
    record = roll_play(GAME, request, SeededSource(1))[1]
    assert replay(GAME, [record]).total == result.total


@given(
    dl=st.sampled_from(["Hard", "14", "17", "Easy"]),
    ability=st.integers(-3, 5),
    gear=st.lists(st.integers(0, 3), max_size=3),
    luck=st.one_of(st.none(), st.integers(1, 4)),
)
def test_raw_requests_round_trip(dl: str, ability: int, gear: list[int], luck: int | None) -> None:
    extra = {"luck_points": "1", "luck_bonus": str(luck)} if luck else {}
    request = raw(
        dl=dl, ability_score=str(ability), gear=[f"g{i}={b}" for i, b in enumerate(gear)], **extra
    )
    assert GAME.load(GAME.dump(request)) == request
    assert (request.request.pool is None) == (luck is None)


# --- raw requests and their luck ------------------------------------------------------


def test_raw_request_stacks_gear_and_augs() -> None:
    request = raw(dl="Hard", ability_score="3", gear=["a=1", "b=2"], aug=["wire=1"])
    assert request.request.modifier == 3 + 2 + 1
    assert GAME.dump(request)["request"]["gear"] == [
        {"name": "a", "bonus": 1},
        {"name": "b", "bonus": 2},
    ]


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"dl": "14", "gear": ["scope"]}, "gear"),
        ({"dl": "14", "gear": ["scope=x"]}, "gear.scope"),
        ({"dl": "14", "aug": ["wire=-1"]}, "aug.wire"),
        ({"ability_score": "3"}, "dl"),
        ({"dl": "Hard", "dl_shift": "3"}, "dl_shift"),
        ({"dl": "Brutal"}, "dl"),
    ],
)
def test_bad_raw_requests_name_the_field(values: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        raw(**values)
    assert error.value.field == field


def test_raw_bonus_limits() -> None:
    with pytest.raises(LimitExceeded) as error:
        raw(dl="14", ability_score="20", skill_bonus="5")
    assert error.value.field == "modifier"
    with pytest.raises(InvalidInput, match="a shift from -2 to \\+2"):
        raw(dl="Hard", dl_shift="3")


def test_a_raw_pool_pays_for_the_spend() -> None:
    request = raw(dl="Hard", ability_score="3", luck_points="1", luck_bonus="2")
    result, record = roll_play(GAME, request, SeededSource(9))
    spent, follow = follow_play(GAME, result, "spend-luck", {"luck": "spend"}, SeededSource(0))
    assert follow == {"kind": "spend-luck", "bonus": 2, "draws": []}
    assert spent.total == result.total + 2
    assert replay(GAME, [record, follow]).total == spent.total
    assert GAME.chances(request).extra("p_luck_helps") >= 0


@pytest.mark.parametrize(
    ("extra", "error", "text"),
    [
        ({}, RuleViolation, "--luck-bonus"),
        ({"luck_bonus": "2"}, RuleViolation, "no Luck Points left"),
        ({"luck_points": "2"}, RuleViolation, "--luck-bonus"),
    ],
)
def test_a_raw_spend_needs_a_pool_with_a_point(
    extra: dict[str, str], error: type[Exception], text: str
) -> None:
    result, _ = roll_play(GAME, raw(dl="Hard", **extra), SeededSource(9))
    with pytest.raises(error, match=text):
        follow_play(GAME, result, "spend-luck", {}, SeededSource(0))


def test_the_luck_flag_takes_spend_only() -> None:
    result, _ = roll_play(GAME, raw(dl="Hard", luck_points="1", luck_bonus="2"), SeededSource(9))
    with pytest.raises(InvalidInput) as error:
        follow_play(GAME, result, "spend-luck", {"luck": "maybe"}, SeededSource(0))
    assert error.value.field == "luck"
    (flag,) = GAME.follow_flags
    assert (flag.flag, flag.action, flag.skip) == ("luck", "spend-luck", ("keep",))


# --- chances --------------------------------------------------------------------------

OPTIONS = [Options(a, b) for a in OffLadderReading for b in BottomFade]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("chart", ["default", "graded"])
def test_outcomes_are_the_bands_and_success_is_reaching_the_dl(
    options: Options, chart: str
) -> None:
    """Issue 11: the mapping summed to 1.21 and "success" was a band in one place."""
    content = GAME.catalogue
    variants = options.as_mapping()
    for dl in (1, 5, 8, 11, 14, 17, 20, 26, 29, 32, 40):
        for modifier in (-5, 0, 4, 9, 15):
            chances = GAME.odds({"modifier": modifier, "dl": str(dl), "chart": chart}, variants)
            assert sum(o.probability for o in chances.outcomes) == 1
            assert [o.key for o in chances.outcomes] == [b.key for b in content.chart(chart).bands]
            difficulty = Difficulty.make(dl, content.ladder, options)
            assert chances.success == p_success(modifier, difficulty)
            assert chances.outcome_name == "bands"
            assert next(iter(chances.as_mapping())) == SUCCESS_LABEL


def test_odds_with_luck_and_a_trick() -> None:
    chances = GAME.odds({"modifier": 6, "trick": "aimed-shot", "luck_bonus": 3}, DEFAULTS)
    # +9 with luck reaches 14 on dice of 5 or more: 94 pairs; it lifts a Fade on dice 5-7: 15.
    assert chances.extra("p_success_with_luck") == Fraction(47, 50)
    assert chances.extra("p_luck_helps") == Fraction(3, 20)
    (bands,) = chances.breakdowns
    assert bands.key == "bands_with_luck"
    assert dict(bands.values)["success"] == Fraction(47, 50)
    with pytest.raises(InvalidInput, match="use dl_shift") as error:
        GAME.odds({"trick": "aimed-shot", "dl": "Hard"}, DEFAULTS)
    assert error.value.field == "dl"


def test_odds_add_raw_bonuses_to_the_modifier() -> None:
    given = GAME.odds(
        {"modifier": 2, "ability_score": 3, "gear": ["a=1", "b=2"], "dl": "Hard"}, DEFAULTS
    )
    assert given.success == GAME.odds({"modifier": 7, "dl": "Hard"}, DEFAULTS).success
    with pytest.raises(LimitExceeded):
        GAME.odds({"modifier": 21, "dl": "Hard"}, DEFAULTS)


def test_odds_on_a_trait_trick() -> None:
    chances = GAME.odds({"trick": "stare-down", "trait": ["resolve=Hard"], "modifier": 6}, DEFAULTS)
    assert chances.success == Fraction(28, 100)
    with pytest.raises(InvalidInput) as error:
        GAME.odds({"trick": "stare-down"}, DEFAULTS)
    assert error.value.field == "traits.resolve"


def test_grid_columns_are_the_ladder() -> None:
    grid = GAME.grid({}, DEFAULTS)
    assert grid.columns == tuple(f"{lv.name} ({lv.value})" for lv in GAME.catalogue.ladder.levels)
    assert grid.rows[0] == "+0"


# --- homebrew and content -------------------------------------------------------------


def test_with_content_merges_a_homebrew_file(tmp_path: Path) -> None:
    path = tmp_path / "my.toml"
    path.write_text(
        '[[tricks]]\nkey = "hotwire"\nname = "Hotwire"\nskill = "drive"\ndl = "Hard"\n'
        'outcomes = { fade = "It starts, and the alarm goes off." }\n',
        encoding="utf-8",
    )
    game = GAME.with_content(path)
    assert "hotwire" in game.catalogue.tricks
    assert "hotwire" not in GAME.catalogue.tricks
    sheet = TableRules(game).validate_sheet(OLD["sheet"])
    play = TableRules(game).roll(sheet, {"trick": "hotwire"}, {}, SeededSource(2))
    assert play.card.title == "Drive, core trick Hotwire vs Hard (20)"
    assert TableRules(game).card([play.record]) == play.card
    tricks = next(t for t in game.content() if t.title == "Tricks")
    assert ("hotwire", "Hotwire", "drive", "core", "Hard (20)", "default", "") in tricks.rows


def two_columns(rows: Iterable[tuple[str, ...]]) -> dict[str, str]:
    """A two-column table as a mapping, as ``dict(rows)`` reads it (each row a pair)."""
    table: dict[str, str] = {}
    for key, value in rows:
        table[key] = value
    return table


def test_content_lists_the_ladder_skills_tricks_and_charts() -> None:
    tables = {t.title: t for t in GAME.content()}
    assert list(tables) == ["Rules", "DL ladder", "Abilities", "Skills", "Tricks", "Outcome charts"]
    rules = two_columns(tables["Rules"].rows)
    assert rules["limits"] == "an ability score within ±20, each bonus 0 to 20 (Luck 1 to 20)"
    ladder = [(row[0], row[1]) for row in tables["DL ladder"].rows]
    assert ladder == [
        ("Easy", "8"),
        ("Moderate", "14"),
        ("Hard", "20"),
        ("Daunting", "26"),
        ("Extreme", "32"),
    ]
    skills = {row[0]: row[2] for row in tables["Skills"].rows}
    assert skills == {
        "firearms": "agility",
        "athletics": "strength",
        "intimidate": "presence",
        "drive": "agility",
    }
    tricks = {row[0]: row[4] for row in tables["Tricks"].rows}
    assert (tricks["aimed-shot"], tricks["stare-down"]) == (
        "Moderate (14)",
        "from the target's resolve",
    )
    bands = [(row[0], row[1], row[3]) for row in tables["Outcome charts"].rows][:3]
    assert bands == [
        ("default", "success", "at the DL"),
        ("default", "fade", "-1 level(s) from the DL"),
        ("default", "failure", "below every other band"),
    ]
    for table in tables.values():
        assert all(len(row) == len(table.columns) for row in table.rows)


@pytest.mark.parametrize("ladder", [2.0, True, "2", 0, 3])
def test_a_record_names_its_ladder_rule_as_a_whole_number_it_knows(ladder: object) -> None:
    """A ladder rule of 2.0 replayed as rule 2 while verify read it as no rule (the first):
    a forger could have a later roll read under the older ladder unseen."""
    sheet = TABLE.new_sheet("Vex")
    record = TABLE.roll(sheet, {"skill": "firearms", "dl": "14"}, {}, SeededSource(1)).record
    assert record["ladder"] == 2
    assert GAME.rules_named(record) == 2
    with pytest.raises(InvalidInput, match="ladder"):
        GAME.load(
            {k: v for k, v in record.items() if k not in ("kind", "draws")} | {"ladder": ladder}
        )
