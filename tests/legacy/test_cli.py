"""The generic CLI serving Legacy: odds JSON, character creation, rolling from a file."""

import json
from pathlib import Path

from click.testing import CliRunner

from rulebound.cli.app import app

runner = CliRunner()


def test_odds_json_contract() -> None:
    out = runner.invoke(app, ["odds", "legacy", "--target", "10", "--advantage", "--json"])
    data = json.loads(out.stdout)
    assert data["p_success"] == "3/4"  # 1 - (10/20)^2
    assert data["degrees"]["critical failure"] == "1/400"


def test_death_saves_json() -> None:
    data = json.loads(runner.invoke(app, ["odds", "legacy", "--death-saves", "--json"]).stdout)
    assert (data["p_stable"], data["p_dead"]) == ("1/2", "1/2")
    assert data["expected_rolls"] == "300683/80000"


def test_character_new_and_roll_from_file(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    args = ["character", "new", "legacy", "--name", "Ann", "--race", "elf", "--origin", "air"]
    made = runner.invoke(
        app, [*args, "--soul", "elf", "--seed", "3", "--out", str(path), "--no-interactive"]
    )
    assert made.exit_code == 0, made.output
    assert json.loads(path.read_text())["race"] == "elf"
    roll = ["roll", "legacy", "--character", str(path), "--characteristic", "STR", "--seed", "1"]
    rolled = runner.invoke(app, [*roll, "--json"])
    assert rolled.exit_code == 0, rolled.output
    data = json.loads(rolled.stdout)
    assert data["request"]["request"]["characteristic"] == "STR"
    assert data["records"][0]["sheet"]["name"] == "Ann"
    missing = runner.invoke(app, ["roll", "legacy", "--character", str(path), "--seed", "1"])
    assert missing.exit_code == 2  # a roll from a sheet names its characteristic
    assert "--characteristic" in missing.output


def test_restriction_is_one_line_and_status_2(tmp_path: Path) -> None:
    args = ["character", "new", "legacy", "--name", "X", "--race", "dwarf", "--origin", "air"]
    out = runner.invoke(
        app, [*args, "--soul", "warlock", "--out", str(tmp_path / "x.json"), "--no-interactive"]
    )
    assert out.exit_code == 2
    assert "soul restriction (Warlock Soul)" in out.output


def test_content_lists_races_and_difficulty_classes() -> None:
    data = json.loads(runner.invoke(app, ["content", "legacy", "--json"]).stdout)
    titles = [t["title"] for t in data["tables"]]
    assert {"Races", "Origins", "Souls", "Difficulty classes", "Rank bonus"} <= set(titles)


def test_answers_that_run_out_name_the_step_still_asked(tmp_path: Path) -> None:
    """Asked for the steps' choices (``--interactive``) with answers piped in, input that
    ends before a step is answered is refused by name (status 2), not a bare "Aborted!"
    (the CLI fuzzer found ``--assign --interactive``: the value taken as the flag)."""
    args = ["character", "new", "legacy", "--name", "Ann", "--race", "human", "--origin", "air"]
    out = str(tmp_path / "c.json")
    ended = runner.invoke(app, [*args, "--soul", "human", "--interactive", "--out", out], input="")
    assert ended.exit_code == 2, ended.output
    assert "Aborted" not in ended.output
    assert "the input ended" in ended.output
    assert "--class" in ended.output
    assert not (tmp_path / "c.json").exists()
    soul = [*args, "--soul", "human"]
    flag = runner.invoke(app, [*soul, "--assign", "--interactive", "--seed", "2"])
    assert flag.exit_code == 2, flag.output
    assert "the input ended" in flag.output


def _p_success(*args: str) -> str:
    out = runner.invoke(app, ["odds", "legacy", "--score", "31", *args, "--json"])
    assert out.exit_code == 0, out.output
    found: str = json.loads(out.stdout)["p_success"]
    return found


def test_a_check_from_numbers_takes_a_helper_named_without_a_sheet() -> None:
    """Assistance by name was refused on a check from numbers, blaming the helper's name
    ("“Bob” will not do") when there was no sheet being helped: the table's word stands."""
    by_advantage = _p_success("--assist-helper", "Bob", "--assist-mode", "advantage")
    assert by_advantage == _p_success("--advantage")
    lent = ("--assist-helper", "Bob", "--assist-mode", "proficiency", "--assist-rank", "3")
    assert _p_success(*lent) == _p_success("--rank", "3")
    alone = runner.invoke(app, ["odds", "legacy", "--score", "31", "--assist-mode", "advantage"])
    assert alone.exit_code == 2
    assert "helper's name" in alone.stderr
