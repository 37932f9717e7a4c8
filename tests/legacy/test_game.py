"""Legacy behind the one game contract: records, replay, chances, opposed and extended rolls.

``data/old_records.json`` holds result chains the old table adapter wrote (rolls and
their follow-ups, sheet actions, initiative, extended checks), each with the card's
outcome, succeeded and dice at every step as the old adapter showed them: ``verify``
compares exactly those against old exports. ``data/old_rules_records.json`` holds, in the
same form, chains logged under the rules before a8deb00 (a curse, an unconscious roller:
``test_rules_versions``), made by the old code (``data/make_old_rules_records.py``).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation, SeededSource
from rulebound.core.errors import ReplayMismatch
from rulebound.rulesets.legacy.chain import ExtendedState, OpposedState
from rulebound.rulesets.legacy.checks import CheckRequest
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.extended import ExtendedSpec
from rulebound.rulesets.legacy.game import GAME, SUCCESS_KEY
from rulebound.rulesets.legacy.odds import (
    check_chances,
    death_save_odds,
    extended_chances,
    opposed_chances,
    p_success,
)
from rulebound.rulesets.plays import TableRules, follow_play, replay, roll_play

from ..hunt import examples

TABLE = TableRules(GAME)
PLAIN = {"scale": "as-written", "affinity_bonus": "rank-table"}
DATA = Path(__file__).parent / "data"
OLD = json.loads((DATA / "old_records.json").read_text("utf-8"))
OLD_RULES = json.loads((DATA / "old_rules_records.json").read_text("utf-8"))


def kara(**form: Any) -> dict[str, Any]:
    fresh = TABLE.new_sheet("Kara")
    return TABLE.apply_sheet_form(fresh, form) if form else fresh


def d20(*faces: int) -> ReplaySource:
    return ReplaySource(Draw(20, f) for f in faces)


def raw(**values: Any) -> Any:
    return GAME.request(values, PLAIN)


def view(chain: list[dict[str, Any]]) -> dict[str, Any]:
    card = TABLE.card(chain)
    said = card.outcome.partition("; fate ")[0].partition("; LCK ")[0]  # words since: the cost
    seen = {"outcome": said, "succeeded": card.succeeded, "dice": card.dice}
    viewed: dict[str, Any] = json.loads(
        json.dumps({**seen, "dice": [asdict(d) for d in card.dice]})
    )
    return viewed


def _named(entry: dict[str, Any]) -> str:
    return str(entry.get("name") or "/".join(r["kind"] for r in entry["chain"]))


@pytest.mark.parametrize("entry", [*OLD, *OLD_RULES], ids=_named)
def test_old_records_replay_to_the_old_outcome_succeeded_and_dice(entry: dict[str, Any]) -> None:
    chain, cards = entry["chain"], entry["cards"]  # the cards of the last len(cards) steps
    for n, card in zip(range(len(chain) - len(cards) + 1, len(chain) + 1), cards, strict=True):
        assert view(chain[:n]) == {**card, "outcome": today(card["outcome"])}


def today(outcome: str) -> str:
    """An old card's outcome in today's words: the degrees only where they differ from the
    margin ("margin -2, -2 degrees" is "margin -2"), and one degree is singular."""
    outcome = re.sub(r"margin ([+-]\d+), \1 degrees", r"margin \1", outcome)
    return re.sub(r"([+-]1) degrees", r"\1 degree", outcome)


def test_old_roll_records_load_and_dump_to_the_same_params() -> None:
    rolls = [e["chain"][0] for e in OLD if e["chain"][0]["kind"] == "roll"]
    assert rolls
    for record in rolls:
        params = {k: v for k, v in record.items() if k not in ("kind", "draws")}
        assert set(params) == {"sheet", "request", "affinity", "situations", "favour"}
        assert GAME.dump(GAME.load(params)) == params


def test_a_missing_or_a_surplus_draw_is_refused_for_every_kind_of_record() -> None:
    roll = TABLE.roll(kara(), {"characteristic": "DEX"}, {}, d20(5))
    sheet = TABLE.sheet_act(kara(), "fatigue", {"amount": 5}, {}, d20(12))
    tool = TABLE.table_act({"1": kara()}, "initiative", {}, {}, d20(9))
    for record in (roll.record, sheet.record, tool.record):
        for draws in ([*record["draws"], [20, 3]], []):
            with pytest.raises((InvalidInput, ReplayMismatch)):
                TABLE.card([{**record, "draws": draws}])
    start = TABLE.table_act(
        {"1": kara()}, "extended-check", {"character": "1", "characteristic": "INT"}, {}, d20()
    )
    turn = TABLE.act({}, [start.record], "extended-roll", {}, {}, d20(7))
    for draws in ([*turn.record["draws"], [20, 3]], []):
        with pytest.raises((InvalidInput, ReplayMismatch)):
            TABLE.card([start.record, {**turn.record, "draws": draws}])
    with pytest.raises(InvalidInput):
        TABLE.card([{**start.record, "draws": [[20, 4]]}])


def test_follow_up_records_keep_their_old_keys() -> None:
    sheet = kara(soul="warlock")
    chain = [TABLE.roll(sheet, {"characteristic": "PER"}, {"scale": "halved"}, d20(19)).record]
    reroll = TABLE.act(sheet, chain, "fate-reroll", {}, {}, d20(3)).record
    assert set(reroll) == {"kind", "sheet", "use_stamina", "draws"}
    burn = TABLE.act(sheet, chain, "burn-fate", {"purpose": ""}, {}, d20()).record
    assert (set(burn), burn["purpose"]) == ({"kind", "sheet", "purpose", "draws"}, "avoid death")
    assert replay(GAME, [*chain, reroll]).roller.fate == 1


# --- chances ---------------------------------------------------------------------------

raw_values = st.fixed_dictionaries(
    {
        "score": st.integers(0, 60),
        "rank": st.one_of(st.none(), st.integers(1, 6)),
        "difficulty": st.sampled_from(["very-easy", "easy", "challenging", "hard", "impossible"]),
        "advantage": st.booleans(),
        "disadvantage": st.booleans(),
    }
)
variant_values = st.fixed_dictionaries(
    {
        "scale": st.sampled_from(["as-written", "halved", "d100"]),
        "affinity_bonus": st.sampled_from(["rank-table", "five-per-rank"]),
    }
)


@settings(max_examples=examples(60), deadline=None)
@given(raw_values, variant_values)
def test_outcomes_sum_to_one_and_p_success_is_the_old_value(
    values: dict[str, Any], variants: dict[str, str]
) -> None:
    request = GAME.request(values, variants)
    chances = GAME.chances(request)
    assert sum(o.probability for o in chances.outcomes) == 1
    assert chances.success == p_success(request.request)
    assert chances.as_mapping()[SUCCESS_KEY] == chances.success
    old = check_chances(request.request)
    assert {o.key: o.probability for o in chances.outcomes} == {o.value: p for o, p in old.items()}
    assert GAME.load(GAME.dump(request)) == request


def test_the_mapping_is_success_then_the_five_outcomes() -> None:
    mapping = GAME.chances(raw(target=10, advantage=True)).as_mapping()
    assert list(mapping) == [
        SUCCESS_KEY,
        "critical success",
        "success",
        "partial success",
        "failure",
        "critical failure",
    ]
    assert mapping[SUCCESS_KEY] == Fraction(3, 4)
    assert sum(mapping.values()) - mapping[SUCCESS_KEY] == 1


def test_a_raw_roll_needs_a_target_or_a_score() -> None:
    with pytest.raises(InvalidInput) as error:
        raw(bonus=2)
    assert error.value.field == "target"


def test_death_save_odds_are_a_partition_with_the_old_numbers() -> None:
    chances = GAME.odds({"death_saves": True}, PLAIN)
    assert (chances.success, chances.extra("p_dead")) == (Fraction(1, 2), Fraction(1, 2))
    assert chances.extra("expected_rolls") == Fraction(300683, 80000)
    halved = GAME.odds({"death_saves": True, "lck_cancel": 15}, {**PLAIN, "scale": "halved"})
    assert halved.success == death_save_odds(cancel_chance=Fraction(7, 20)).p_stable


# --- opposed and extended checks ------------------------------------------------------------


def test_an_opposed_check_from_numbers_and_from_a_sheet() -> None:
    request = raw(target=10, bonus=2, **{"opposed.target": 12})
    chances = GAME.chances(request)
    expected = opposed_chances(CheckRequest(target=10, bonus=2), CheckRequest(target=12))
    assert {o.key: o.probability for o in chances.outcomes} == {
        o.value: p for o, p in expected.items()
    }
    assert chances.extra("p_win") == chances.success
    result, record = roll_play(GAME, request, ReplaySource([Draw(20, 4), Draw(20, 9)]))
    assert isinstance(result, OpposedState)
    card = GAME.card(result)
    assert card.outcome == "Actor wins"  # margin 6 against 3
    assert [d.label for d in card.dice] == ["actor d20 #1", "opponent d20 #1"]
    assert GAME.card(replay(GAME, [record])) == card
    against = TABLE.request(kara(), {"characteristic": "STR", "opposed.character": kara()}, {})
    named, _ = roll_play(GAME, against, ReplaySource([Draw(20, 4), Draw(20, 9)]))
    assert GAME.card(named).outcome == "Kara wins"  # the rolling character, not "Actor"
    lost, _ = roll_play(GAME, against, ReplaySource([Draw(20, 19), Draw(20, 4)]))
    assert GAME.card(lost).outcome == "Kara loses"
    assert against.opposed is not None
    assert against.opposed.characteristic == "STR"


def test_an_extended_check_rolls_turns_and_gives_the_odds_from_where_it_stands() -> None:
    values = {"target": 10, "success_threshold": 6, "failure_threshold": 5, "max_rolls": 3}
    request = raw(**values)
    spec = ExtendedSpec(success_threshold=6, failure_threshold=5, max_rolls=3)
    fresh = extended_chances(CheckRequest(target=10), spec)
    assert {o.key: o.probability for o in GAME.chances(request).outcomes} == {
        s.value: p for s, p in fresh.items()
    }
    result, record = roll_play(GAME, request, d20(8))
    assert isinstance(result, ExtendedState)
    assert (result.check.success, result.check.rolls_made) == (2, 1)
    after = GAME.after_chances(result)
    assert after is not None
    replayed_after = GAME.after_chances(replay(GAME, [record]))
    assert replayed_after is not None
    assert after.outcomes == replayed_after.outcomes
    new, turn = follow_play(GAME, result, "extended-roll", {"rolls": "2"}, d20(9, 15))
    assert turn == {
        "kind": "extended-roll",
        "rolls": 2,
        "until_done": False,
        "draws": [[20, 9], [20, 15]],
    }
    assert isinstance(new, ExtendedState)
    assert new.check.rolls_made == 3
    assert GAME.card(replay(GAME, [record, turn])) == GAME.card(new)
    with pytest.raises(RuleViolation):
        follow_play(GAME, new, "extended-roll", {}, d20(3))
    with pytest.raises(InvalidInput) as error:
        raw(target=10, success_threshold=6)
    assert error.value.field == "failure_threshold"


def test_an_extended_check_until_done_stops_at_the_end() -> None:
    request = raw(
        target=15, success_threshold=5, failure_threshold=50, max_rolls=9, until_done=True
    )
    result, _ = roll_play(GAME, request, SeededSource(3))
    assert isinstance(result, ExtendedState)
    assert result.check.status.value in ("succeeded", "partial success available")
    assert GAME.after_chances(result) is not None
    assert GAME.after_chances(GAME.roll(raw(target=9), SeededSource(1))) is None


def test_a_helper_sheet_lends_advantage_or_rank_only_if_they_hold_it() -> None:
    helper = kara(name="Bo", affinities=["survival", "persuasion"], rank="3")
    lent = TABLE.request(
        kara(), {"characteristic": "STR", "affinity": "persuasion", "helper": helper}, {}
    )
    assert lent.request.advantage
    assert lent.request.assists[0].helper == "Bo"
    rank = TABLE.request(
        kara(),
        {
            "characteristic": "STR",
            "affinity": "persuasion",
            "helper": helper,
            "assist.mode": "proficiency",
        },
        {},
    )
    assert rank.request.rank == 3
    with pytest.raises(RuleViolation, match="Kara does not hold the Persuasion affinity"):
        TABLE.request(
            helper, {"characteristic": "STR", "affinity": "persuasion", "helper": kara()}, {}
        )


# --- content, homebrew and sheet actions with the table's variants --------------------------

MOTH = """
key = "moth-folk"
name = "Moth-folk"
primaries = { STR = 15, DEX = 25, CON = 15, CHA = 20, INT = 20, WIL = 25, PER = 25 }
secondaries = { WPN = 15, BLS = 20, STM = 20, POW = 25, EDU = 20, LDR = 20, INI = 25 }
base_lck = 10
unnatural = { PER = 1 }
traits = ["dark-vision", "light-sensitive"]
"""


def test_content_lists_the_catalogue_with_its_numbers() -> None:
    tables = {t.title: t for t in GAME.content()}
    assert list(tables) == [
        "Characteristics",
        "Races",
        "Origins",
        "Souls",
        "Traits",
        "Affinities",
        "Difficulty classes",
        "Rank bonus",
        "Numbers",
    ]
    races = {row[0]: row for row in tables["Races"].rows}
    assert len(races) == len(catalogue().races)
    assert races["naga"][tables["Races"].columns.index("natural armour")] == "4"
    assert ("hard", "Hard", "-4", "") in tables["Difficulty classes"].rows
    assert ("1-2", "+2") in tables["Rank bonus"].rows
    souls = {row[0]: row for row in tables["Souls"].rows}
    assert souls["human"][3] == "only Human, Feral"


def test_a_homebrew_race_joins_a_game_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "moth.toml"
    path.write_text(MOTH, encoding="utf-8")
    brewed = GAME.with_content(path)
    assert "moth-folk" in {row[0] for row in next(iter(brewed.content()[1:2])).rows}
    sheet = {**kara(), "race": "moth-folk", "soul": "soulless"}
    with pytest.raises(InvalidInput):
        TABLE.validate_sheet(sheet)
    table = TableRules(brewed)
    valid = table.validate_sheet(sheet)
    play = table.roll(
        valid, {"characteristic": "PER", "situations": ["bright-light"]}, {}, d20(4, 9)
    )
    assert "disadvantage: Light-Sensitive" in play.card.modifiers
    assert table.card([play.record]) == play.card
    hit = table.sheet_act(valid, "take-damage", {"damage": 3}, {}, d20())
    assert hit.sheet is not None
    assert "moth-folk" not in catalogue().races


def test_sheet_actions_use_the_tables_scale() -> None:
    pip = TABLE.apply_sheet_form(
        TABLE.new_sheet("Pip"), {"race": "halfling", "soul": "halfling", "bleeding": True}
    )

    def advice(scale: str) -> str:
        (save,) = [a for a in TABLE.sheet_actions(pip, {"scale": scale}) if a.key == "death-save"]
        return save.advice[0]

    assert advice("as-written") != advice("d100")  # the LCK save that cancels a critical
    play = TABLE.sheet_act(pip, "fatigue", {"amount": 1}, {"scale": "halved"}, d20())
    assert play.record["scale"] == "halved"


def test_rolls_from_a_sheet_round_trip_through_their_records() -> None:
    sheet = kara(favour=True, affinities=["survival", "athletics"])
    forms_: list[dict[str, Any]] = [
        {"characteristic": "PER", "affinity": "survival", "favour": True, "situations": []},
        {"characteristic": "STR", "opposed.character": kara(name="Bo"), "assist.mode": "advantage",
         "assist.helper": "Bo"},
        {"characteristic": "INT", "success_threshold": 9, "failure_threshold": 9, "max_rolls": 4,
         "rolls": 2},
    ]  # fmt: skip
    for form in forms_:
        request = TABLE.request(sheet, form, {"scale": "d100"})
        assert GAME.load(json.loads(json.dumps(GAME.dump(request)))) == request
        result, record = roll_play(GAME, request, SeededSource(5))
        assert GAME.card(replay(GAME, [json.loads(json.dumps(record))])) == GAME.card(result)
