"""``rulebound roll|odds|character|content ghostburn``: the generic CLI over the Ghostburn game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rulebound.cli import session
from rulebound.cli.app import app

ROLL = ("roll", "ghostburn")


def _run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


@pytest.fixture
def sheet_file(tmp_path: Path, sheet: dict[str, Any]) -> Path:
    sheet["gear"].append({"name": "smart scope", "skill": "firearms", "bonus": 2})
    path = tmp_path / "vex.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    return path


def _luck_points(path: Path) -> int:
    return int(json.loads(path.read_text(encoding="utf-8"))["luck_points"])


def test_roll_text_shows_dice_every_candidate_band_and_outcome(sheet_file: Path) -> None:
    args = (*ROLL, "-c", str(sheet_file), "--trick", "aimed-shot", "--seed", "4")
    result = _run(*args)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "2d10:" in out
    assert "laser sight" in out
    assert "(not applied) (does not stack; smart scope (+2) applies)" in out
    assert "Moderate (14), from trick Aimed Shot" in out
    assert re.search(r"Result: (Success|Fade|Failure) \(\d+ vs 14\): ", out)
    assert _run(*args).output == out


def test_roll_json_is_one_object_with_trace_and_luck_advice(sheet_file: Path) -> None:
    result = _run(
        *ROLL,
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
    data = json.loads(result.stdout)
    body = data["result"]
    assert body["request"]["substitution"] == {"primary": "agility", "used": "intelligence"}
    assert len(body["provenance"]["draws"]) == 2
    assert body["total"] == sum(d["face"] for d in body["dice"]) + 2 + 2
    (offer,) = data["card"]["actions"]
    assert f"(result {body['total'] + 3})" in offer["advice"][0]
    assert data["character"]["luck_points"] == 2
    assert [r["kind"] for r in data["records"]] == ["roll"]
    assert "digest" in body


@pytest.mark.parametrize(("save", "points_on_file"), [(True, 1), (False, 2)])
def test_luck_spend_flag_returns_the_new_result_and_sheet(
    sheet_file: Path, save: bool, points_on_file: int
) -> None:
    args = ["-c", str(sheet_file), "--trick", "aimed-shot", "--seed", "4", "--luck", "spend"]
    result = _run(*ROLL, *args, "--json", *(["--save"] if save else []))
    body = json.loads(result.stdout)
    assert body["result"]["total"] == body["result"]["parent"]["total"] + 3
    assert body["character"]["luck_points"] == 1
    assert body["records"][1] == {"kind": "spend-luck", "bonus": 3, "draws": []}
    assert _luck_points(sheet_file) == points_on_file


def test_luck_keep_spends_nothing(sheet_file: Path) -> None:
    args = ["-c", str(sheet_file), "--trick", "aimed-shot", "--luck", "keep", "--save", "--json"]
    body = json.loads(_run(*ROLL, *args).stdout)
    assert body["result"]["parent"] is None
    assert [r["kind"] for r in body["records"]] == ["roll"]
    assert _luck_points(sheet_file) == 2


def test_spending_with_no_points_fails_and_leaves_the_sheet(
    tmp_path: Path, sheet: dict[str, Any]
) -> None:
    path = tmp_path / "broke.json"
    path.write_text(json.dumps({**sheet, "luck_points": 0}), encoding="utf-8")
    result = _run(*ROLL, "-c", str(path), "--trick", "aimed-shot", "--luck", "spend", "--save")
    assert result.exit_code == 2
    assert result.stderr == "error: Spend a Luck Point: no Luck Points left to spend\n"
    assert _luck_points(path) == 0


@pytest.mark.parametrize(("answer", "points"), [("spend-luck\ny\n", 1), ("\n", 2)])
def test_luck_is_offered_at_a_terminal(
    sheet_file: Path, monkeypatch: pytest.MonkeyPatch, answer: str, points: int
) -> None:
    monkeypatch.setattr(session, "sys", SimpleNamespace(stdin=SimpleNamespace(isatty=lambda: True)))
    result = _run(
        *ROLL, "-c", str(sheet_file), "--trick", "aimed-shot", "--seed", "4", "--save", stdin=answer
    )
    assert result.exit_code == 0, result.output
    assert "Follow up with spend-luck" in result.output
    assert "This spends 1 Luck Point" in result.output or points == 2
    assert ("Before the Luck Point:" in result.output) == (points == 1)
    assert _luck_points(sheet_file) == points


def test_no_prompt_with_json_even_at_a_terminal(
    sheet_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "sys", SimpleNamespace(stdin=SimpleNamespace(isatty=lambda: True)))
    result = _run(*ROLL, "-c", str(sheet_file), "--trick", "aimed-shot", "--json")
    assert json.loads(result.stdout)["result"]["parent"] is None
    assert _luck_points(sheet_file) == 2


def test_raw_roll_with_luck_pool() -> None:
    result = _run(
        *ROLL,
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
    body = json.loads(result.stdout)
    assert [b["applied"] for b in body["result"]["bonuses"]] == [True, False, True]
    assert body["result"]["total"] == body["result"]["parent"]["total"] + 2
    assert body["records"][1] == {"kind": "spend-luck", "bonus": 2, "draws": []}
    assert body["character"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--dl", "Hard", "--dl-shift", "3"],
            "--dl-shift [GM adjusts the DL (levels)]: 3 will not do;"
            " it takes a shift from -2 to +2",
        ),
        (
            ["--dl", "Brutal"],
            "--dl [DL (improvised trick)]: “Brutal” will not do;"
            " it takes a number from 1 to 100 or a level name",
        ),
        (
            ["--dl", "14", "--gear", "scope"],
            "--gear [Gear bonuses]: “scope” will not do; it takes NAME=VALUE.",
        ),
        (
            ["--dl", "14", "--gear", "scope=x"],
            "--gear scope: “x” will not do; it takes a whole number.",
        ),
        (["--skill", "drive", "--dl", "14"], "--skill"),
        (["--ability-score", "3"], "--dl [DL (improvised trick)] is needed: a DL"),
        (
            ["--dl", "14", "--variant", "bottom-fade=maybe"],
            "--bottom-fade [A miss at the lowest level]: “maybe” will not do",
        ),
        (["--dl", "14", "--luck-bonus", "0"], "--luck-bonus [Luck Bonus]: 0 will not do"),
    ],
)
def test_bad_roll_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = _run(*ROLL, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "roll with a character, or give --luck-bonus and --luck-points"),
        (["--luck-bonus", "2"], "no Luck Points left to spend"),
    ],
)
def test_a_raw_spend_needs_a_pool(args: list[str], message: str) -> None:
    result = _run(*ROLL, "--dl", "14", *args, "--luck", "spend", "--seed", "1")
    assert result.exit_code == 2
    assert message in result.stderr


def test_raw_bonus_flags_are_refused_with_a_character(sheet_file: Path) -> None:
    args = ("-c", str(sheet_file), "--trick", "aimed-shot", "--ability-score", "0")
    result = _run(*ROLL, *args)
    assert result.exit_code == 2
    said = "--ability-score [Ability score]: “0” will not do; it takes nothing with --character"
    assert said in result.stderr


def test_traits_and_set_aside_from_the_command_line(sheet_file: Path) -> None:
    args = ["-c", str(sheet_file), "--seed", "3", "--json"]
    stare = ["--trick", "stare-down", "--trait", "gap=Easy", "--trait", "resolve=Hard"]
    body = json.loads(_run(*ROLL, *args, *stare, "--dl-shift", "1").stdout)
    assert body["request"]["request"]["traits"] == {"resolve": "Hard"}
    assert body["card"]["title"] == "Intimidate, core trick Stare Down vs Daunting (26)"
    aside = json.loads(
        _run(*ROLL, *args, "--trick", "aimed-shot", "--set-aside", "gear:smart scope").stdout
    )
    assert "Not in use: smart scope (gear)" in aside["card"]["details"]
    bad = _run(*ROLL, *args, "--trick", "aimed-shot", "--set-aside", "gear:rocket")
    assert bad.exit_code == 2
    assert "--set-aside [Gear and augs not in use]: “gear:rocket” will not do" in bad.stderr


def test_a_chain_file_resumes_with_a_spend(sheet_file: Path, tmp_path: Path) -> None:
    chain = tmp_path / "chain.json"
    base = ["-c", str(sheet_file), "--chain", str(chain), "--json"]
    first = json.loads(_run(*ROLL, *base, "--trick", "aimed-shot", "--seed", "5").stdout)
    then = json.loads(_run(*ROLL, *base, "--luck", "spend", "--save").stdout)
    assert then["result"]["total"] == first["result"]["total"] + 3
    assert [r["kind"] for r in json.loads(chain.read_text())["records"]] == ["roll", "spend-luck"]
    assert _luck_points(sheet_file) == 1


def test_homebrew_content_file(tmp_path: Path, sheet_file: Path) -> None:
    path = tmp_path / "my.toml"
    path.write_text(
        '[[tricks]]\nkey = "hotwire"\nname = "Hotwire"\nskill = "drive"\ndl = "Hard"\n',
        encoding="utf-8",
    )
    result = _run(*ROLL, "-c", str(sheet_file), "--content", str(path), "--trick", "hotwire")
    assert result.exit_code == 0, result.output
    assert "Drive, core trick Hotwire vs Hard (20)" in result.output
    listed = _run("content", "ghostburn", "--content", str(path))
    assert "hotwire" in listed.output
    assert "Moderate  14" in listed.output


def test_odds_json_contract() -> None:
    result = _run("odds", "ghostburn", "--modifier", "6", "--dl", "20", "--json")
    body = json.loads(result.stdout)
    assert (body["p_success"], body["p_success_float"]) == ("7/25", 0.28)
    assert body["bands"] == {"success": "7/25", "fade": "51/100", "failure": "21/100"}
    assert body["bands_float"]["fade"] == 0.51


def test_odds_from_a_trick_with_luck() -> None:
    args = ("--modifier", "6", "--trick", "aimed-shot", "--luck-bonus", "3", "--json")
    body = json.loads(_run("odds", "ghostburn", *args).stdout)
    assert body["request"]["trick"] == "aimed-shot"
    # +9 with luck reaches 14 on dice of 5 or more: 94 pairs; it lifts a Fade on dice 5-7: 15.
    assert body["p_success_with_luck"] == "47/50"
    assert body["p_luck_helps"] == "3/20"
    assert body["bands_with_luck"]["success"] == "47/50"


def test_odds_from_a_character(sheet_file: Path) -> None:
    args = ("-c", str(sheet_file), "--trick", "aimed-shot", "--json")
    body = json.loads(_run("odds", "ghostburn", *args).stdout)
    # Agility 3, Firearms 1, smart scope 2 against Moderate (14): 8+ on 2d10
    assert body["p_success"] == "79/100"
    assert body["p_luck_helps"] == "3/20"  # the sheet has Luck Points, Luck Bonus +3


def test_odds_text_has_a_bar_per_band() -> None:
    result = _run("odds", "ghostburn", "--modifier", "6", "--dl", "Hard")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "dl Hard" in lines[0]
    fade = next(line for line in lines if line.strip().startswith("Fade"))
    assert "51.00%" in fade
    assert "█" * 15 in fade


def test_odds_refuses_a_dl_with_a_trick() -> None:
    result = _run("odds", "ghostburn", "--trick", "aimed-shot", "--dl", "Hard")
    assert result.exit_code == 2
    assert "use dl_shift (--dl-shift)" in result.stderr


def test_character_command_shows_each_skills_stacked_bonus(sheet_file: Path) -> None:
    result = _run("character", "ghostburn", str(sheet_file))
    assert result.exit_code == 0
    firearms = next(line for line in result.output.splitlines() if "Firearms" in line)
    assert firearms.split()[-1] == "+6"  # Agility 3, skill 1, smart scope 2 (laser sight ignored)


def test_luck_takes_spend_or_keep(sheet_file: Path) -> None:
    result = _run(*ROLL, "-c", str(sheet_file), "--trick", "aimed-shot", "--luck", "ask")
    assert result.exit_code == 2
    assert "--luck: “ask” will not do; it takes spend or keep" in result.stderr
    assert _luck_points(sheet_file) == 2


def test_two_bad_augs_are_named_not_taken_for_another_games_file(tmp_path: Path) -> None:
    """Unknown keys inside an entry are that entry's problems; only unknown top-level keys
    (and missing ones) say the file is another game's."""
    from rulebound.rulesets.ghostburn.game import GAME
    from rulebound.rulesets.plays import TableRules

    table = TableRules(GAME)
    sheet = table.apply_sheet_form(table.new_sheet("Vex"), {"abilities.agility": "3"})
    sheet["augs"] = [
        {"name": "a", "skill": "firearms", "bonus": 1, "kind": "x"},
        {"name": "b", "skill": "firearms", "bonus": 1, "kind": "y"},
    ]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    done = _run("character", "ghostburn", str(path))
    assert done.exit_code == 2
    assert "another game" not in done.output
    assert "augs.0.kind" in done.output
    assert "augs.1.kind" in done.output
    other = {"name": "Ana", "attributes": {"Strength": "D8"}, "skills": {"Force": "D10"}}
    path.write_text(json.dumps(other), encoding="utf-8")
    elsewhere = _run("character", "ghostburn", str(path))
    assert "another game" in elsewhere.output  # a whole Empty Reach file still is
