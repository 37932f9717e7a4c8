"""Issue 15, Wrong 6: one validation of a Legacy sheet, on every entry point.

``wounds: 99`` against STM 26 and ``fate: 9`` against a cap of 2 (LCK 24, bonus 2, a Surface
origin with no bonus point) are refused by the library, the table, every CLI command that
reads a character file (roll, odds, show, a helper, the opposed side, a resumed chain), the
records a table replays, and the web API (import, replace, edit); and the CLI and the web both
call the game's one ``Sheets.validate``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core import Draw, InvalidInput, ReplaySource
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.plays import TableRules
from rulebound.store.testing import sqlite_url
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..client import AppClient
from .conftest import SCORES, make_sheet

runner = CliRunner()
TABLE = TableRules(GAME)
GOOD = make_sheet(scores={**SCORES, "STM": 26}).model_dump(mode="json")
BAD = {
    "wounds": ({"wounds": 99}, "wounds", 99, "0 to 26"),
    "fate": ({"fate": 9}, "fate", 9, "0 to 2"),
}


@pytest.fixture(params=sorted(BAD))
def bad(request: pytest.FixtureRequest) -> tuple[dict[str, Any], str, int, str]:
    change, field, value, expected = BAD[request.param]
    return GOOD | change, field, value, expected


def file(tmp_path: Path, sheet: dict[str, Any], name: str = "c.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(sheet), "utf-8")
    return str(path)


def test_the_good_sheet_is_accepted() -> None:
    assert validated(GOOD).max_wounds == 26
    assert validated(GOOD).fate_cap() == 2


def test_the_library_and_the_table_refuse_it(bad: Any) -> None:
    sheet, field, value, expected = bad
    for check in (validated, TABLE.validate_sheet):
        with pytest.raises(InvalidInput) as info:
            check(sheet)
        assert (info.value.field, info.value.value) == (field, value)
        assert expected in info.value.expected


def cli(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 2, done.output
    return done.output


def test_every_cli_command_that_reads_a_character_refuses_it(tmp_path: Path, bad: Any) -> None:
    sheet, field, value, expected = bad
    good, wrong = file(tmp_path, GOOD, "good.json"), file(tmp_path, sheet)
    chain = str(tmp_path / "chain.json")
    started = runner.invoke(
        app, ["roll", "legacy", "--character", good, "--characteristic", "STR", "--chain", chain]
    )
    assert started.exit_code == 0, started.output
    commands = [
        ["roll", "legacy", "--character", wrong, "--characteristic", "STR", "--seed", "1"],
        ["odds", "legacy", "--character", wrong, "--characteristic", "STR"],
        ["character", "legacy", wrong],
        ["roll", "legacy", "--score", "30", "--helper", wrong, "--seed", "1"],
        ["roll", "legacy", "--score", "30", "--opposed-character", wrong, "--seed", "1"],
        ["roll", "legacy", "--chain", chain, "--character", wrong, "--follow", "fate-reroll"],
    ]
    for args in commands:
        shown = cli(*args)
        assert f"{field}: {value} will not do" in shown, (args, shown)
        assert expected in shown, (args, shown)


def test_a_record_holding_it_is_refused_on_replay(bad: Any) -> None:
    sheet = bad[0]
    roll = TABLE.roll(GOOD, {"characteristic": "STR"}, {}, ReplaySource([Draw(20, 5)])).record
    hurt = TABLE.sheet_act(GOOD, "fatigue", {"amount": 1}, {}, ReplaySource([])).record
    for record in ({**roll, "sheet": sheet}, {**hurt, "sheet": sheet}):
        with pytest.raises(InvalidInput, match=bad[1]):
            TABLE.card([record])
    with pytest.raises(InvalidInput, match=bad[1]):
        TABLE.act(sheet, [roll], "fate-reroll", {}, {}, ReplaySource([Draw(20, 5)]))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[AppClient]:
    settings = Settings(database_url=sqlite_url(tmp_path), source=lambda _table: ReplaySource([]))
    with AppClient(create_app(settings)) as opened:
        yield opened


def gm_table(client: AppClient) -> tuple[str, dict[str, str]]:
    body = {"name": "Ledger", "ruleset": "legacy", "gm_name": "Gina", "observers": False}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    token = {"Authorization": f"Bearer {made.json()['session_token']}"}
    return f"/api/tables/{made.json()['table']['id']}", token


def test_the_web_api_refuses_it_on_import_replace_and_edit(client: AppClient, bad: Any) -> None:
    sheet, field, value, expected = bad
    url, gm = gm_table(client)
    refused = client.post(url + "/characters", json={"sheet": sheet}, headers=gm)
    assert refused.status_code == 400, refused.text
    body = refused.json()
    assert (body["field"], body["value"]) == (field, value)
    assert expected in body["expected"]
    made = client.post(url + "/characters", json={"sheet": GOOD}, headers=gm)
    assert made.status_code == 201, made.text
    cid = made.json()["id"]
    replaced = client.put(url + f"/characters/{cid}/sheet", json={"sheet": sheet}, headers=gm)
    assert (replaced.status_code, replaced.json()["field"]) == (400, field)
    edited = client.patch(url + f"/characters/{cid}", json={"form": {field: value}}, headers=gm)
    assert (edited.status_code, edited.json()["field"]) == (400, field)


def test_the_cli_and_the_web_call_the_one_validation(
    client: AppClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def spy(sheet: Any) -> Any:
        seen.append(str(sheet.get("name")))
        raise InvalidInput("sheet", "spied", "the game's own Sheets.validate")

    monkeypatch.setattr(GAME.sheets, "validate", spy)
    shown = cli("character", "legacy", file(tmp_path, GOOD | {"name": "From the CLI"}))
    url, gm = gm_table(client)
    web = client.post(
        url + "/characters", json={"sheet": GOOD | {"name": "From the web"}}, headers=gm
    )
    assert seen == ["From the CLI", "From the web"]
    assert "the game's own Sheets.validate" in shown
    assert web.json()["expected"] == "the game's own Sheets.validate"


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"rest_points": 4}, "rest_points", "0 to 3"),  # CON 31: bonus 3
        ({"rest_points": -1}, "rest_points", "0 to 3"),
        ({"fatigue_taken": 3}, "fatigue_taken", "0 to 2"),  # STM 26: bonus 2
    ],
)
def test_every_track_is_held_to_its_maximum_on_every_entry_point(
    tmp_path: Path, change: dict[str, Any], field: str, expected: str
) -> None:
    """The edit form alone used to hold rest points and fatigue to their maxima."""
    sheet = GOOD | change
    with pytest.raises(InvalidInput) as info:
        TABLE.validate_sheet(sheet)
    assert (info.value.field, expected in info.value.expected) == (field, True)
    shown = cli("roll", "legacy", "--character", file(tmp_path, sheet), "--characteristic", "STR")
    assert f"{field}: " in shown
    assert "will not do" in shown
