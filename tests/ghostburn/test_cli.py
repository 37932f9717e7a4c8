"""The ``roll``, ``odds`` and ``character`` commands, run in-process on their own app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from rulebound.cli import ghostburn as cli


def _app() -> typer.Typer:
    app = typer.Typer()
    groups = [typer.Typer(), typer.Typer(), typer.Typer()]
    for name, group in zip(("roll", "odds", "character"), groups, strict=True):
        app.add_typer(group, name=name)
    cli.register(*groups)
    return app


def _run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(_app(), list(args), input=stdin)


@pytest.fixture
def sheet_file(tmp_path: Path, sheet: dict[str, Any]) -> Path:
    sheet["gear"].append({"name": "smart scope", "skill": "firearms", "bonus": 2})
    path = tmp_path / "vex.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    return path


def _luck_points(path: Path) -> int:
    return int(json.loads(path.read_text(encoding="utf-8"))["luck_points"])


def test_roll_text_shows_dice_every_candidate_band_and_outcome(sheet_file: Path) -> None:
    result = _run(
        "roll", "ghostburn", "-c", str(sheet_file), "--trick", "aimed-shot", "--seed", "4"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "2d10:" in out
    assert "laser sight" in out
    assert "not applied (does not stack; smart scope (+2) applies)" in out
    assert "Moderate (14), from trick Aimed Shot" in out
    assert "Band" in out
    assert (
        _run(
            "roll", "ghostburn", "-c", str(sheet_file), "--trick", "aimed-shot", "--seed", "4"
        ).output
        == out
    )


def test_roll_json_is_one_object_with_trace_and_luck_advice(sheet_file: Path) -> None:
    result = _run(
        "roll",
        "ghostburn",
        "-c",
        str(sheet_file),
        "--skill",
        "drive",
        "--dl",
        "Hard",
        "--ability",
        "intelligence",
        "--seed",
        "2",
        "--json",
    )
    body = json.loads(result.output)["result"]
    assert body["request"]["substitution"] == {"primary": "agility", "used": "intelligence"}
    assert len(body["provenance"]["draws"]) == 2
    assert body["total"] == sum(d["face"] for d in body["dice"]) + 2 + 2
    assert json.loads(result.output)["luck_advice"]["total_with_luck"] == body["total"] + 3
    assert json.loads(result.output)["luck_points_left"] == 2
    assert "digest" in body


@pytest.mark.parametrize(("save", "points_on_file"), [(True, 1), (False, 2)])
def test_luck_spend_flag_returns_the_new_result_and_sheet(
    sheet_file: Path, save: bool, points_on_file: int
) -> None:
    args = ["-c", str(sheet_file), "--trick", "aimed-shot", "--seed", "4", "--luck", "spend"]
    result = _run("roll", "ghostburn", *args, "--json", *(["--save"] if save else []))
    body = json.loads(result.output)
    assert body["result"]["total"] == body["result"]["parent"]["total"] + 3
    assert body["luck_points_left"] == 1
    assert body["character"]["luck_points"] == 1
    assert _luck_points(sheet_file) == points_on_file


def test_spending_with_no_points_fails_and_leaves_the_sheet(
    tmp_path: Path, sheet: dict[str, Any]
) -> None:
    path = tmp_path / "broke.json"
    path.write_text(json.dumps({**sheet, "luck_points": 0}), encoding="utf-8")
    result = _run("roll", "ghostburn", "-c", str(path), "--trick", "aimed-shot", "--luck", "spend")
    assert result.exit_code == 2
    assert result.output == "error: luck: no Luck Points left to spend\n"
    assert _luck_points(path) == 0


@pytest.mark.parametrize(("answer", "points"), [("y\n", 1), ("n\n", 2)])
def test_luck_is_offered_at_a_terminal(
    sheet_file: Path, monkeypatch: pytest.MonkeyPatch, answer: str, points: int
) -> None:
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    result = _run(
        "roll",
        "ghostburn",
        "-c",
        str(sheet_file),
        "--trick",
        "aimed-shot",
        "--seed",
        "4",
        "--save",
        stdin=answer,
    )
    assert "Spend a Luck Point (+3)?" in result.output
    assert ("after spending a Luck Point" in result.output) == (points == 1)
    assert _luck_points(sheet_file) == points


def test_no_prompt_with_json_even_at_a_terminal(
    sheet_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    result = _run("roll", "ghostburn", "-c", str(sheet_file), "--trick", "aimed-shot", "--json")
    assert json.loads(result.output)["result"]["parent"] is None
    assert _luck_points(sheet_file) == 2


def test_raw_roll_with_luck_pool() -> None:
    result = _run(
        "roll",
        "ghostburn",
        "--dl",
        "Hard",
        "--ability-score",
        "3",
        "--gear",
        "a=1",
        "--gear",
        "b=2",
        "--luck-points",
        "1",
        "--luck-bonus",
        "2",
        "--luck",
        "spend",
        "--seed",
        "9",
        "--json",
    )
    body = json.loads(result.output)
    assert [b["applied"] for b in body["result"]["bonuses"]] == [True, False, True]
    assert (body["luck_points_left"], body["character"]) == (0, None)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dl", "Hard", "--dl-shift", "3"], "dl_shift: got 3; expected a shift from -2 to +2"),
        (["--dl", "Brutal"], "dl: got 'Brutal'; expected a number from 1 to 100 or a level name"),
        (["--dl", "14", "--gear", "scope"], "--gear: got 'scope'; expected NAME=VALUE"),
        (["--dl", "14", "--gear", "scope=x"], "--gear scope: got 'x'"),
        (["--skill", "drive", "--dl", "14"], "--skill"),
        (["--ability-score", "3"], "--dl: got None"),
        (["--dl", "14", "--luck", "spend"], "--luck: got 'spend'"),
        (["--dl", "14", "--variant", "bottom-fade=maybe"], "variant bottom-fade"),
    ],
)
def test_bad_roll_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = _run("roll", "ghostburn", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.splitlines()) == 1


def test_raw_bonus_flags_are_refused_with_a_character(sheet_file: Path) -> None:
    result = _run(
        "roll", "ghostburn", "-c", str(sheet_file), "--trick", "aimed-shot", "--ability-score", "0"
    )
    assert result.exit_code == 2
    assert "--ability-score: got 0; expected nothing with --character" in result.output


def test_odds_json_contract() -> None:
    body = json.loads(_run("odds", "ghostburn", "--modifier", "6", "--dl", "20", "--json").output)
    assert (body["p_success"], body["p_success_float"]) == ("7/25", 0.28)
    assert body["bands"] == {"success": "7/25", "fade": "51/100", "failure": "21/100"}
    assert body["bands_float"]["fade"] == 0.51


def test_odds_from_a_trick_with_luck() -> None:
    result = _run(
        "odds",
        "ghostburn",
        "--modifier",
        "6",
        "--trick",
        "aimed-shot",
        "--luck-bonus",
        "3",
        "--json",
    )
    body = json.loads(result.output)
    assert body["dl_label"] == "Moderate (14)"
    # +9 with luck reaches 14 on dice of 5 or more: 94 pairs; it lifts a Fade on dice 5-7: 15.
    assert body["p_success_with_luck"] == "47/50"
    assert body["p_luck_helps"] == "3/20"


def test_odds_text_has_a_bar_per_band() -> None:
    result = _run("odds", "ghostburn", "--modifier", "6", "--dl", "Hard")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "vs Hard (20)" in lines[0]
    fade = next(line for line in lines if line.strip().startswith("Fade"))
    assert "51.00%" in fade
    assert "█" * 15 in fade


def test_odds_refuses_a_dl_with_a_trick() -> None:
    result = _run("odds", "ghostburn", "--trick", "aimed-shot", "--dl", "Hard")
    assert result.exit_code == 2
    assert "use --dl-shift" in result.output


def test_character_command_shows_each_skills_stacked_bonus(sheet_file: Path) -> None:
    result = _run("character", "ghostburn", str(sheet_file))
    assert result.exit_code == 0
    firearms = next(line for line in result.output.splitlines() if "Firearms" in line)
    assert firearms.split()[-1] == "+6"  # Agility 3, skill 1, smart scope 2 (laser sight ignored)
