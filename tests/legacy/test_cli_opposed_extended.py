"""The CLI's opposed and extended checks, opposed and extended odds, and assisted rolls.

An extended check is a roll request with thresholds; ``--extended FILE`` is the generic
chain file (saved after each call, resumed when it exists) and each later call's
``--rolls K`` / ``--until-done`` is the follow-up that rolls more turns.
"""

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.checks import CheckRequest
from rulebound.rulesets.legacy.extended import ExtendedCheck, ExtendedSpec
from rulebound.rulesets.legacy.odds import death_save_odds, extended_chances, opposed_chances
from rulebound.rulesets.legacy.opposed import OpposedOutcome

runner = CliRunner()
START = ["--success-threshold", "30", "--failure-threshold", "30", "--max-rolls", "4"]


def run(*args: str) -> dict[str, Any]:
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def turns(data: dict[str, Any]) -> int:
    made: int = data["result"]["check"]["rolls_made"]
    return made


def test_opposed_odds_give_win_tie_loss_exactly() -> None:
    data = run("odds", "legacy", "--target", "10", "--bonus", "2", "--opposed-target", "12")
    expected = opposed_chances(CheckRequest(target=10, bonus=2), CheckRequest(target=12))
    for outcome in OpposedOutcome:
        assert Fraction(str(data[f"p_{outcome.value}"])) == expected[outcome]
    assert sum(Fraction(str(data[f"p_{o.value}"])) for o in OpposedOutcome) == 1


def test_opposed_roll_reports_both_sides() -> None:
    data = run("roll", "legacy", "--target", "12", "--opposed-target", "12", "--seed", "4")
    assert {"actor", "opponent", "outcome"} <= set(data["result"]["duel"])
    assert data["result"]["duel"]["outcome"] in {"win", "tie", "loss"}
    assert data["card"]["outcome"] in {"Actor wins", "Opponent wins", "Tie: nothing changes"}
    assert len(data["records"][0]["draws"]) == 2


def test_extended_check_starts_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "ext.json"
    first = run("roll", "legacy", "--target", "10", "--extended", str(path), *START, "--seed", "1")
    saved = json.loads(path.read_text())
    assert saved["records"] == first["records"]
    assert [r["kind"] for r in saved["records"]] == ["roll"]
    assert turns(first) == 1
    assert saved["records"][0]["extended"] == {
        "success_threshold": 30,
        "failure_threshold": 30,
        "max_rolls": 4,
    }


def test_extended_check_resumes_with_more_turns(tmp_path: Path) -> None:
    path = tmp_path / "ext.json"
    run("roll", "legacy", "--target", "10", "--extended", str(path), *START, "--seed", "1")
    second = run("roll", "legacy", "--extended", str(path), "--rolls", "2", "--seed", "2")
    assert turns(second) == 3
    records = json.loads(path.read_text())["records"]
    assert [r["kind"] for r in records] == ["roll", "extended-roll"]
    done = run("roll", "legacy", "--extended", str(path), "--until-done", "--seed", "3")
    assert done["result"]["check"]["rolls_made"] <= 4
    assert done["card"]["outcome"].split(":")[0] != "In progress"


def test_extended_check_starts_with_several_turns(tmp_path: Path) -> None:
    path = tmp_path / "ext.json"
    flags = ["--extended", str(path), *START, "--rolls", "2", "--seed", "1"]
    assert turns(run("roll", "legacy", "--target", "10", *flags)) == 2


def test_resuming_refuses_new_check_options_and_a_start_needs_every_threshold(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ext.json"
    start = ["--success-threshold", "9", "--failure-threshold", "9", "--max-rolls", "5"]
    run("roll", "legacy", "--target", "10", "--extended", str(path), *start, "--seed", "1")
    bad = runner.invoke(
        app, ["roll", "legacy", "--extended", str(path), "--max-rolls", "6", "--seed", "2"]
    )
    assert bad.exit_code == 2
    assert "--max-rolls" in bad.output
    again = runner.invoke(app, ["roll", "legacy", "--extended", str(path), "--target", "3"])
    assert again.exit_code == 2
    assert "--target" in again.output
    new = ["--extended", str(tmp_path / "new.json"), "--success-threshold", "9"]
    missing = runner.invoke(app, ["roll", "legacy", "--target", "9", *new])
    assert missing.exit_code == 2
    assert "--success-threshold, --failure-threshold and --max-rolls" in missing.output


def test_extended_odds_fresh_and_from_a_saved_state(tmp_path: Path) -> None:
    spec = ExtendedSpec(success_threshold=6, failure_threshold=5, max_rolls=3)
    flags = ["--success-threshold", "6", "--failure-threshold", "5", "--max-rolls", "3"]
    data = run("odds", "legacy", "--target", "10", *flags)
    fresh = extended_chances(CheckRequest(target=10), spec)
    assert {k: Fraction(v) for k, v in data["ends"].items()} == {
        s.value: p for s, p in fresh.items()
    }
    path = tmp_path / "ext.json"
    run("roll", "legacy", "--target", "10", "--extended", str(path), *flags, "--seed", "7")
    saved = json.loads(path.read_text())["records"]
    later = run("odds", "legacy", "--extended", str(path))
    face = saved[0]["draws"][0][1]
    check, _ = ExtendedCheck(spec, CheckRequest(target=10)).roll(ReplaySource([Draw(20, face)]))
    expected = extended_chances(CheckRequest(target=10), spec, check.success, check.failure, 1)
    assert {k: Fraction(v) for k, v in later["ends"].items()} == {
        s.value: p for s, p in expected.items()
    }


def test_death_save_odds_with_a_halfling_lck_save() -> None:
    data = run("odds", "legacy", "--death-saves", "--lck-cancel", "15", "--scale", "halved")
    odds = death_save_odds(cancel_chance=Fraction(7, 20))  # halved LCK 15: d20 <= 7
    assert Fraction(str(data["p_stable"])) == odds.p_stable
    assert odds.p_stable > Fraction(1, 2)


def _pair(tmp_path: Path) -> tuple[list[str], Path, Path]:
    base = {"race": "human", "origin": "surface", "soul": "human", "lck": 10, "fate": 1}
    scores = dict.fromkeys(["STR", "DEX", "CON", "CHA", "INT", "WIL", "PER"], 30)
    scores |= dict.fromkeys(["WPN", "BLS", "STM", "POW", "EDU", "LDR", "INI"], 25)
    actor, helper = tmp_path / "a.json", tmp_path / "h.json"
    actor.write_text(json.dumps({**base, "name": "Ann", "scores": scores, "ren": 15}))
    bo = {**base, "name": "Bo", "scores": scores, "ren": 15, "affinities": ["athletics"]}
    helper.write_text(json.dumps(bo))
    args = ["roll", "legacy", "--character", str(actor), "--characteristic", "STR"]
    return [*args, "--affinity", "athletics"], actor, helper


def test_assisted_roll_from_files(tmp_path: Path) -> None:
    args, actor, helper = _pair(tmp_path)
    data = run(*args, "--helper", str(helper), "--seed", "2")
    assert data["request"]["request"]["advantage"] is True
    assert data["request"]["request"]["assists"][0]["helper"] == "Bo"
    refused = runner.invoke(app, [*args, "--helper", str(actor), "--seed", "2"])
    assert refused.exit_code == 2  # Ann cannot help herself (nor does she hold Athletics)
    assert "“Ann” will not do; it takes another character" in refused.output


def test_an_assist_named_without_a_sheet(tmp_path: Path) -> None:
    args, _, _ = _pair(tmp_path)
    data = run(*args, "--assist-mode", "advantage", "--assist-helper", "Bo", "--seed", "2")
    assert data["request"]["request"]["assists"][0]["helper"] == "Bo"
    assert len(data["records"][0]["draws"]) == 2


def test_an_extended_check_from_a_bare_score_names_it_a_score() -> None:
    """No characteristic named: its card says "score", not an empty pair of brackets."""
    data = run("roll", "legacy", "--score", "30", *START, "--seed", "2")
    assert data["card"]["details"][0].startswith("Target 15 (score 30); ")
    given = run("roll", "legacy", "--target", "10", *START, "--seed", "2")
    assert given["card"]["details"][0].startswith("Target 10 as given; ")
