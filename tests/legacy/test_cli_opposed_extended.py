"""The CLI's opposed and extended checks, opposed and extended odds, and assisted rolls."""

import json
from fractions import Fraction
from pathlib import Path

import typer
from typer.testing import CliRunner

from rulebound.cli.legacy import register
from rulebound.rulesets.legacy.checks import CheckRequest
from rulebound.rulesets.legacy.extended import ExtendedSpec
from rulebound.rulesets.legacy.odds import death_save_odds, extended_chances, opposed_chances
from rulebound.rulesets.legacy.opposed import OpposedOutcome

roll_app, odds_app, character_app = typer.Typer(), typer.Typer(), typer.Typer()
register(roll_app, odds_app, character_app)
app = typer.Typer()
app.add_typer(roll_app, name="roll")
app.add_typer(odds_app, name="odds")
runner = CliRunner()


def run(*args: str) -> dict[str, object]:
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    data: dict[str, object] = json.loads(out.stdout)
    return data


def test_opposed_odds_give_win_tie_loss_exactly() -> None:
    data = run("odds", "legacy", "--target", "10", "--bonus", "2", "--opposed-target", "12")
    expected = opposed_chances(CheckRequest(target=10, bonus=2), CheckRequest(target=12))
    for outcome in OpposedOutcome:
        assert Fraction(str(data[f"p_{outcome.value}"])) == expected[outcome]
    assert sum(Fraction(str(data[f"p_{o.value}"])) for o in OpposedOutcome) == 1


def test_opposed_roll_reports_both_sides() -> None:
    data = run("roll", "legacy", "--target", "12", "--opposed-target", "12", "--seed", "4")
    assert {"actor", "opponent", "outcome", "digest"} <= set(data)
    assert data["outcome"] in {"win", "tie", "loss"}


def test_extended_check_starts_saves_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "ext.json"
    start = ["--success-threshold", "30", "--failure-threshold", "30", "--max-rolls", "4"]
    first = run("roll", "legacy", "--target", "10", "--extended", str(path), *start, "--seed", "1")
    saved = json.loads(path.read_text())
    assert saved["rolls_made"] == 1
    assert first["extended"] == saved
    second = run("roll", "legacy", "--extended", str(path), "--rolls", "2", "--seed", "2")
    after = json.loads(path.read_text())
    assert after["rolls_made"] == 3
    assert len(after["log"]) == 3
    assert after["log"][0] == saved["log"][0]
    assert len(second["results"]) == 2  # type: ignore[arg-type]
    done = run("roll", "legacy", "--extended", str(path), "--until-done", "--seed", "3")
    assert json.loads(path.read_text())["status"] != "in progress"
    assert done["extended"]["rolls_made"] <= 4  # type: ignore[index]


def test_resuming_refuses_changed_thresholds_and_new_check_options(tmp_path: Path) -> None:
    path = tmp_path / "ext.json"
    start = ["--success-threshold", "9", "--failure-threshold", "9", "--max-rolls", "5"]
    run("roll", "legacy", "--target", "10", "--extended", str(path), *start, "--seed", "1")
    bad = runner.invoke(
        app, ["roll", "legacy", "--extended", str(path), "--max-rolls", "6", "--seed", "2"]
    )
    assert bad.exit_code == 2
    assert "--max-rolls: got 6; expected the saved 5" in bad.output
    again = runner.invoke(app, ["roll", "legacy", "--extended", str(path), "--target", "3"])
    assert again.exit_code == 2
    assert "the saved file fixes them" in again.output
    missing = runner.invoke(app, ["roll", "legacy", "--target", "9", "--extended", "new.json"])
    assert missing.exit_code == 2
    assert "--success-threshold, --failure-threshold and --max-rolls" in missing.output


def test_extended_odds_fresh_and_from_a_saved_state(tmp_path: Path) -> None:
    spec = ExtendedSpec(success_threshold=6, failure_threshold=5, max_rolls=3)
    data = run(
        "odds", "legacy", "--target", "10", "--success-threshold", "6",
        "--failure-threshold", "5", "--max-rolls", "3",
    )  # fmt: skip
    fresh = extended_chances(CheckRequest(target=10), spec)
    assert {k: Fraction(v) for k, v in data["ends"].items()} == {  # type: ignore[attr-defined]
        s.value: p for s, p in fresh.items()
    }
    path = tmp_path / "ext.json"
    flags = ["--success-threshold", "6", "--failure-threshold", "5", "--max-rolls", "3"]
    run("roll", "legacy", "--target", "10", "--extended", str(path), *flags, "--seed", "7")
    saved = json.loads(path.read_text())
    later = run("odds", "legacy", "--extended", str(path))
    expected = extended_chances(
        CheckRequest(target=10), spec, saved["success"], saved["failure"], saved["rolls_made"]
    )
    assert {k: Fraction(v) for k, v in later["ends"].items()} == {  # type: ignore[attr-defined]
        s.value: p for s, p in expected.items()
    }


def test_death_save_odds_with_a_halfling_lck_save() -> None:
    data = run("odds", "legacy", "--death-saves", "--lck-cancel", "15", "--scale", "halved")
    odds = death_save_odds(cancel_chance=Fraction(7, 20))  # halved LCK 15: d20 <= 7
    assert Fraction(str(data["p_stable"])) == odds.p_stable
    assert odds.p_stable > Fraction(1, 2)


def test_assisted_roll_from_files(tmp_path: Path) -> None:
    base = {"race": "human", "origin": "surface", "soul": "human", "lck": 10, "fate": 1}
    scores = dict.fromkeys(["STR", "DEX", "CON", "CHA", "INT", "WIL", "PER"], 30)
    scores |= dict.fromkeys(["WPN", "BLS", "STM", "POW", "EDU", "LDR", "INI"], 25)
    actor, helper = tmp_path / "a.json", tmp_path / "h.json"
    actor.write_text(json.dumps({**base, "name": "Ann", "scores": scores, "ren": 15}))
    helper.write_text(
        json.dumps({**base, "name": "Bo", "scores": scores, "ren": 15, "affinities": ["athletics"]})
    )
    args = ["roll", "legacy", "--character", str(actor), "--affinity", "athletics"]
    data = run(*args, "--helper", str(helper), "--seed", "2")
    assert data["request"]["advantage"] is True  # type: ignore[index]
    assert data["request"]["assists"][0]["helper"] == "Bo"  # type: ignore[index]
    refused = runner.invoke(app, [*args, "--helper", str(actor), "--seed", "2"])
    assert refused.exit_code == 2
    assert "assisted check: Ann does not hold the Athletics affinity" in refused.output
