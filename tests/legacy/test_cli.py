"""The legacy CLI: odds JSON contract, character creation file, rolling from a file."""

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from rulebound.cli.legacy import register

roll_app, odds_app, character_app = typer.Typer(), typer.Typer(), typer.Typer()
register(roll_app, odds_app, character_app)
app = typer.Typer()
app.add_typer(roll_app, name="roll")
app.add_typer(odds_app, name="odds")
app.add_typer(character_app, name="character")
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
    made = runner.invoke(app, [*args, "--soul", "elf", "--seed", "3", "--out", str(path)])
    assert made.exit_code == 0, made.output
    assert json.loads(path.read_text())["race"] == "elf"
    rolled = runner.invoke(
        app, ["roll", "legacy", "--character", str(path), "--seed", "1", "--json"]
    )
    assert json.loads(rolled.stdout)["request"]["characteristic"] == "STR"


def test_restriction_is_one_line_and_status_2(tmp_path: Path) -> None:
    args = ["character", "new", "legacy", "--name", "X", "--race", "dwarf", "--origin", "air"]
    out = runner.invoke(app, [*args, "--soul", "warlock", "--out", str(tmp_path / "x.json")])
    assert out.exit_code == 2
    assert "soul restriction (Warlock Soul)" in out.output
