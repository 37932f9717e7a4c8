"""The rules a Legacy record names: today's on every new one, the first on one that names none.

a8deb00 changed what a curse and an unconscious roller do to a roll (rulings 69, 91, 92).
A record logged before it names no ``"rules"`` and replays under the first rules
(``versions.FIRST_RULES``), so that ``rulebound verify`` still finds an old log good;
``data/old_rules_records.json`` (made by the old code: ``data/make_old_rules_records.py``)
holds such chains, replayed in ``test_game``; ``data/old_rules_export.json`` a whole log the
old server exported with some among its plays. A new record names today's rules, and a
follow-up replays under the rules of its chain's first record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app as cli_app
from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation
from rulebound.core.errors import ReplayMismatch
from rulebound.rulesets.legacy.chain import ExtendedState
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.versions import RULES
from rulebound.rulesets.plays import TableRules, params_of, replay

TABLE = TableRules(GAME)
WRITTEN = {"scale": "as-written"}
HALVED = {"scale": "halved"}
DEX = {"characteristic": "DEX"}
LONG = {"success_threshold": 200, "failure_threshold": 200, "max_rolls": 5}
DATA = Path(__file__).parent / "data"
OLD = {
    entry["name"]: entry["chain"]
    for entry in json.loads((DATA / "old_rules_records.json").read_text("utf-8"))
}
"""The chains the rules before a8deb00 logged, by what each shows."""
LUCK_SWAP = "a luck swap paid from a cursed sheet: two dice, the curse spent"


def kara(**form: Any) -> dict[str, Any]:
    fresh = TABLE.new_sheet("Kara")
    return TABLE.apply_sheet_form(fresh, form) if form else fresh


def d20(*faces: int) -> ReplaySource:
    return ReplaySource(Draw(20, f) for f in faces)


def test_every_new_roll_and_action_record_names_todays_rules() -> None:
    sheets = {"1": kara()}
    plays = [
        TABLE.roll(kara(), DEX, HALVED, d20(5)).record,
        TABLE.roll(kara(), DEX | {"opposed.score": 30}, HALVED, d20(5, 9)).record,
        TABLE.roll(kara(), DEX | LONG, WRITTEN, d20(5)).record,
        TABLE.sheet_act(kara(), "fatigue", {"amount": 5}, {}, d20(12)).record,
        TABLE.table_act(sheets, "initiative", {}, {}, d20(9)).record,
        TABLE.table_act(sheets, "extended-check", DEX | {"character": "1"}, {}, d20()).record,
    ]
    assert [record.get("rules") for record in plays] == [RULES] * len(plays)


def test_a_follow_up_record_names_no_rules_it_keeps_its_chains() -> None:
    chain = [TABLE.roll(kara(), DEX, HALVED, d20(18)).record]
    swap = TABLE.act(kara(cursed="true"), chain, "luck-swap", {}, HALVED, d20(4)).record
    assert "rules" not in swap


def test_a_cursed_extended_checks_later_turns_roll_one_die_today() -> None:
    source = d20(5, 12, 7, 9)
    result, play = TABLE.rolled(kara(cursed="true"), DEX | LONG | {"rolls": 3}, WRITTEN, source)
    assert source.exhausted
    assert isinstance(result, ExtendedState)
    assert [len(r.dice) for r in result.results] == [2, 1, 1]
    assert play.record["rules"] == RULES
    assert replay(GAME, [play.record]) == result


def test_a_cursed_luck_swap_rolls_one_die_today_and_two_under_the_first_rules() -> None:
    new = [TABLE.roll(kara(), DEX, HALVED, d20(18)).record]
    swap = TABLE.act(kara(cursed="true"), new, "luck-swap", {}, HALVED, d20(4))
    assert len(swap.record["draws"]) == 1  # an unmodified test: the curse waits
    assert swap.sheet is not None
    assert swap.sheet["cursed"] is True
    old = OLD[LUCK_SWAP]
    assert len(old[1]["draws"]) == 2  # the first rules: disadvantage, the curse spent
    assert replay(GAME, old).roller.cursed is False


def test_the_rules_a_chain_replays_under_are_its_first_records() -> None:
    """The same records under today's rules are refused: the rules, not the draws, decide."""
    old = OLD[LUCK_SWAP]
    with pytest.raises((InvalidInput, ReplayMismatch)):
        replay(GAME, [{**old[0], "rules": RULES}, old[1]])
    unconscious = OLD["an unconscious roller's opposed check"]
    with pytest.raises(RuleViolation, match="Kara is unconscious"):
        replay(GAME, [{**unconscious[0], "rules": RULES}])


def test_a_follow_up_on_an_old_chain_is_played_under_the_chains_rules() -> None:
    """A chain logged before today's rules keeps its own to the end: a luck swap taken on it
    now (its record names no rules: it replays under the chain's), its later turns."""
    old = OLD[LUCK_SWAP][:1]
    swap = TABLE.act(kara(cursed="true"), old, "luck-swap", {}, HALVED, d20(4, 15))
    assert len(swap.record["draws"]) == 2
    assert swap.sheet is not None
    assert swap.sheet["cursed"] is False
    assert replay(GAME, [*old, swap.record]).roller.cursed is False
    extended = OLD["a cursed roller's extended check, every turn with two dice"][:2]
    source = d20(5, 12)
    turn = TABLE.act(kara(cursed="true"), extended, "extended-roll", {}, WRITTEN, source)
    assert source.exhausted
    assert isinstance(replay(GAME, [*extended, turn.record]), ExtendedState)


@pytest.mark.parametrize("rules", [0, 3, "2", None, True])
def test_a_record_naming_rules_this_game_does_not_know_is_refused(rules: Any) -> None:
    sheets = {"1": kara()}
    records = [
        TABLE.roll(kara(), DEX, HALVED, d20(5)).record,
        TABLE.sheet_act(kara(), "fatigue", {"amount": 5}, {}, d20(12)).record,
        TABLE.table_act(sheets, "initiative", {}, {}, d20(9)).record,
        TABLE.table_act(sheets, "extended-check", DEX | {"character": "1"}, {}, d20()).record,
    ]
    for record in records:
        with pytest.raises(InvalidInput, match="rules"):
            TABLE.card([{**record, "rules": rules}])


def test_favour_on_an_opposed_or_extended_check_is_refused_under_the_first_rules() -> None:
    """Before a8deb00 favour was a single check's only: no record of then holds it."""
    for form in (DEX | {"opposed.score": 30}, DEX | LONG):
        play = TABLE.roll(kara(favour="true"), form | {"favour": True}, WRITTEN, d20(*[9] * 9))
        assert GAME.load(params_of(play.record)).favour
        old = {k: v for k, v in params_of(play.record).items() if k != "rules"}
        with pytest.raises(InvalidInput, match="favour"):
            GAME.load(old)


def test_an_old_records_chances_are_its_own_rules() -> None:
    """The odds shown beside an old roll (the Discord embed) are read from its record."""
    params = params_of(OLD["an unconscious roller's opposed check"][0])
    assert 0 < GAME.chances(GAME.load(params)).success < 1
    with pytest.raises(RuleViolation, match="unconscious"):
        GAME.chances(GAME.load({**params, "rules": RULES}))


def test_old_rules_records_load_and_dump_unchanged() -> None:
    """A first-rules record stays as it was: dumping it writes no ``rules``."""
    roots = [chain[0] for chain in OLD.values() if chain[0]["kind"] == "roll"]
    assert roots
    for record in roots:
        params = params_of(record)
        assert "rules" not in params
        assert GAME.dump(GAME.load(params)) == params


def test_rulebound_verify_finds_a_log_of_old_rules_records_good() -> None:
    """The old server's log: Kara's luck swap from a cursed sheet (two dice), Bo's opposed
    and extended checks while unconscious (rolled, and won), every die from its seed."""
    done = CliRunner().invoke(cli_app, ["verify", str(DATA / "old_rules_export.json"), "--json"])
    report = json.loads(done.stdout)
    assert (done.exit_code, report["problems"]) == (0, [])
    assert "cards: 4 results replayed through the ruleset" in report["summary"]
