"""``roll rainwall``, ``odds rainwall`` and ``character rainwall`` through a local app."""

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from rulebound.cli.rainwall import register
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


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    # Only this module's commands, so other rulesets' work in progress cannot break these tests.
    root, rolls, odds, characters = typer.Typer(), typer.Typer(), typer.Typer(), typer.Typer()
    root.add_typer(rolls, name="roll")
    root.add_typer(odds, name="odds")
    root.add_typer(characters, name="character")
    register(rolls, odds, characters)
    return root


@pytest.fixture
def sheet_file(tmp_path: Path) -> Path:
    path = tmp_path / "picker.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    return path


def run(app: typer.Typer, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_seeded_json_roll_is_one_object_that_replays(app: typer.Typer) -> None:
    code, out, _ = run(app, *ROLL, "--seed", "42", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["digest"]
    assert body["alternatives"][0]["successes"] == body["successes"]
    draws = [Draw(d["sides"], d["face"]) for d in body["provenance"]["draws"]]
    replayed = roll_check(RainwallRequest(7, 5, 4, 3), ReplaySource(draws))
    assert [d.face for d in replayed.dice] == [d["face"] for d in body["dice"]]
    assert (replayed.degree.value, list(replayed.allocation)) == (
        body["degree"],
        body["allocation"],
    )


def test_same_seed_same_text(app: typer.Typer) -> None:
    first = run(app, *ROLL, "--seed", "7")
    assert first[0] == 0
    assert first == run(app, *ROLL, "--seed", "7")
    assert "IoS:" in first[1]
    assert "Degree:" in first[1]


def test_manual_allocation_links_to_the_optimal_result(app: typer.Typer) -> None:
    code, out, _ = run(app, *ROLL, "--seed", "3", "--allocate", "d7=0", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["allocation_kind"] == "manual"
    assert body["allocation"] == [0] * 7  # the player keeps every point
    assert body["successes"] == body["raw_successes"]
    assert body["parent"]["allocation_kind"] == "optimal"


def test_character_and_skill_name(app: typer.Typer, sheet_file: Path) -> None:
    args = ("roll", "rainwall", "--character", str(sheet_file), "--skill", "Lockpicking")
    code, out, _ = run(app, *args, "--dr", "4", "--seed", "1", "--json")
    assert code == 0
    request = json.loads(out)["request"]
    assert (request["dice"], request["skill"], request["bonus"]) == (7, 5, 1)
    assert request["skill_name"] == "Lockpicking"


def test_character_command_shows_the_sheet(app: typer.Typer, sheet_file: Path) -> None:
    code, out, _ = run(app, "character", "rainwall", str(sheet_file))
    assert code == 0
    assert "Lockpicking" in out
    assert "Dexterity (7 dice)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--dice", "11", "--skill", "5"), "dice: got 11"),
        (("--skill", "5"), "--dice: got None"),
        (("--dice", "3", "--skill", "Lockpicking"), "--skill: got 'Lockpicking'"),
        (("--dice", "3", "--skill", "5", "--variant", "miss-ios"), "--variant: got 'miss-ios'"),
        (("--dice", "3", "--skill", "5", "--variant", "barely=never"), "variants.barely"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    app: typer.Typer, args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(app, "roll", "rainwall", "--dr", "2", *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_overspent_allocation_is_refused(app: typer.Typer) -> None:
    code, _, err = run(app, *ROLL, "--seed", "3", "--allocate", "d7=4", "--allocate", "d1=0")
    assert code == 2
    assert "bonus points: spent 4 but the bonus is +3" in err


def test_odds_json_contract(app: typer.Typer) -> None:
    code, out, _ = run(app, *ODDS, "--json")
    assert code == 0
    body = json.loads(out)
    assert (body["p_success"], body["p_success_float"]) == ("7/20", 0.35)
    assert body["degrees"]["barely"] == "1/10"
    assert body["degrees_float"]["barely"] == 0.1
    assert set(body["degrees"]) == {
        "critical",
        "success",
        "barely",
        "failure",
        "disaster",
        "flubbed",
    }
    # no success: both dice fail and neither is a 6 (1/4 * 16/25)
    assert body["ios"] == {"-1": "4/25", "0": "49/100", "1": "7/20"}


def test_odds_text_has_a_summary_and_bars(app: typer.Typer) -> None:
    code, out, _ = run(app, *ODDS)
    assert code == 0
    assert "P(success) = 35.000%  (exactly 7/20)" in out
    barely = next(line for line in out.splitlines() if "Barely Succeeding" in line)
    assert "10.000%" in barely
    assert "#" in barely
