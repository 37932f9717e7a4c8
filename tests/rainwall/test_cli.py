"""``roll rainwall``, ``odds rainwall``, ``character rainwall`` and ``content rainwall``:
the generic CLI over the Rainwall game."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.rainwall import RainwallRequest, roll_check

runner = CliRunner()
ROLL = ("roll", "rainwall", "--dice", "7", "--skill", "5", "--dr", "4", "--bonus", "3")
ODDS = ("odds", "rainwall", "--dice", "2", "--skill", "5", "--dr", "2", "--bonus", "1")
SHEET = {
    "name": "Picker",
    "traits": {"Dexterity": 7},
    "skills": {"Lockpicking": {"score": 5, "bonus": 1}},
}


@pytest.fixture
def sheet_file(tmp_path: Path) -> Path:
    path = tmp_path / "picker.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_seeded_json_roll_is_one_object_that_replays() -> None:
    code, out, _ = run(*ROLL, "--seed", "42", "--json")
    assert code == 0
    body = json.loads(out)
    result = body["result"]
    assert result["digest"]
    assert body["records"][0]["kind"] == "roll"
    draws = [Draw(d["sides"], d["face"]) for d in result["provenance"]["draws"]]
    assert [[d.sides, d.face] for d in draws] == body["records"][0]["draws"]
    replayed = roll_check(RainwallRequest(7, 5, 4, 3), ReplaySource(draws))
    assert [d.face for d in replayed.dice] == [d["face"] for d in result["dice"]]
    assert (replayed.degree.value, list(replayed.allocation)) == (
        result["degree"],
        result["allocation"],
    )
    assert body["card"]["outcome"].startswith(replayed.degree.label)


def test_same_seed_same_text() -> None:
    first = run(*ROLL, "--seed", "7")
    assert first[0] == 0
    assert first == run(*ROLL, "--seed", "7")
    assert "IoS:" in first[1]
    assert "Result: " in first[1]
    assert "reallocate: Reallocate the +3 bonus points" in first[1]


def test_manual_allocation_links_to_the_optimal_result() -> None:
    code, out, _ = run(*ROLL, "--seed", "3", "--allocate", "d7=0", "--json")
    assert code == 0
    body = json.loads(out)
    result = body["result"]
    assert result["allocation_kind"] == "manual"
    assert result["allocation"] == [0] * 7  # the player keeps every point
    assert result["successes"] == result["raw_successes"]
    assert result["parent"]["allocation_kind"] == "optimal"
    assert body["records"][1] == {"kind": "reallocate", "allocation": [0] * 7, "draws": []}


def test_character_and_skill_name(sheet_file: Path) -> None:
    args = ("roll", "rainwall", "--character", str(sheet_file), "--skill", "lockpicking")
    code, out, _ = run(*args, "--dr", "4", "--seed", "1", "--json")
    assert code == 0
    body = json.loads(out)
    request = body["request"]["request"]
    assert (request["dice"], request["skill"], request["bonus"]) == (7, 5, 1)
    assert request["skill_name"] == "Lockpicking"
    assert body["character"] == SHEET


def test_a_bad_character_file_is_refused_like_the_web_refuses_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**SHEET, "traits": {"Dexterity": 11}}), encoding="utf-8")
    code, out, err = run("roll", "rainwall", "-c", str(path), "--skill", "Lockpicking", "--dr", "2")
    assert (code, out) == (2, "")
    assert "traits.Dexterity: 11 will not do; it takes a number of at most 10." in err


def test_character_command_shows_the_sheet(sheet_file: Path) -> None:
    code, out, _ = run("character", "rainwall", str(sheet_file))
    assert code == 0
    assert "Lockpicking: 7d10 vs 5, +1" in out
    assert "Dexterity: 7" in out


def test_content_lists_traits_and_skills() -> None:
    code, out, _ = run("content", "rainwall", "--json")
    assert code == 0
    tables = {t["title"]: t for t in json.loads(out)["tables"]}
    assert tables["Skills"]["rows"][0][:2] == ["Lockpicking", "Dexterity"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--dice", "11", "--skill", "5"), "--dice [Dice (the trait score)]: 11 will not do"),
        (("--skill", "5"), "--dice [Dice (the trait score)] is needed"),
        (
            ("--dice", "3", "--skill", "Lockpicking"),
            "--skill [Skill score (the target)]: “Lockpicking” will not do",
        ),
        (
            ("--dice", "3", "--skill", "5", "--variant", "miss-ios"),
            "--variant: “miss-ios” will not do; it takes KEY=VALUE",
        ),
        (
            ("--dice", "3", "--skill", "5", "--variant", "barely=never"),
            "--barely [A success that needed bonus points]: “never” will not do",
        ),
        (
            ("--dice", "3", "--skill", "5", "--barely", "never"),
            "--barely [A success that needed bonus points]: “never” will not do",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, out, err = run("roll", "rainwall", "--dr", "2", *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_every_bad_option_at_once() -> None:
    code, _, err = run("roll", "rainwall", "--dice", "11", "--skill", "x", "--dr", "0")
    assert code == 2
    assert err.splitlines() == [
        "error: 3 problems:",
        "  --dice [Dice (the trait score)]: 11 will not do; it takes a whole number from 1 to 10.",
        "  --skill [Skill score (the target)]: “x” will not do;"
        " it takes a whole number from 1 to 10.",
        "  --dr [Difficulty Rating]: 0 will not do; it takes a whole number from 1 to 99.",
    ]


def test_overspent_allocation_is_refused() -> None:
    code, _, err = run(*ROLL, "--seed", "3", "--allocate", "d7=4", "--allocate", "d1=0")
    assert code == 2
    assert "bonus points: spent 4 but the bonus is +3" in err


def test_odds_json_contract() -> None:
    code, out, _ = run(*ODDS, "--json")
    assert code == 0
    body = json.loads(out)
    assert (body["p_success"], body["p_success_float"]) == ("7/20", 0.35)
    assert body["degrees"]["barely"] == "1/10"
    assert body["degrees_float"]["barely"] == 0.1
    assert set(body["degrees"]) == {
        "critical",
        "success",
        "basic",
        "barely",
        "failure",
        "disaster",
        "flubbed",
    }
    # no success: both dice fail and neither is a 6 (1/4 * 16/25)
    assert body["ios"] == {"-1": "4/25", "0": "49/100", "1": "7/20"}


def test_odds_text_has_a_summary_and_bars() -> None:
    code, out, _ = run(*ODDS)
    assert code == 0
    assert "success (any degree)" in out.splitlines()[1]
    assert "35.00%  7/20" in out.splitlines()[1]
    barely = next(line for line in out.splitlines() if "Barely Succeeding" in line)
    assert "10.00%" in barely
    assert "█" in barely


def test_odds_for_a_character(sheet_file: Path) -> None:
    code, out, _ = run(
        "odds", "rainwall", "-c", str(sheet_file), "--skill", "Lockpicking", "--dr", "4", "--json"
    )
    assert code == 0
    body = json.loads(out)
    assert body["request"]["character"] == "Picker"
    assert body["p_success"] == run_odds_numbers()


def run_odds_numbers() -> str:
    _, out, _ = run(
        "odds", "rainwall", "--dice", "7", "--skill", "5", "--dr", "4", "--bonus", "1", "--json"
    )
    return str(json.loads(out)["p_success"])
