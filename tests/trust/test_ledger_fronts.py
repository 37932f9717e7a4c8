"""The story of the dice tells the same figures everywhere: the JSON API, the page, and
``rulebound ledger`` on the export (which ``rulebound verify`` passes)."""

from __future__ import annotations

import html
import json
from pathlib import Path

from click.testing import CliRunner

from rulebound.cli.app import app as cli_app
from rulebound.ledger import ledger, ledger_json
from rulebound.render.ledger_text import headline

from ..client import AppClient
from .conftest import Table, verify


def _play(table: Table) -> None:
    ana = table.character("player", "Ana", "D8")
    bo = table.character("other", "Bo", "D6")
    for turn in range(8):
        rolled = table.roll("player", ana)
        if turn % 3 == 0:
            table.push("player", rolled)
        table.roll("other", bo, privacy="blind" if turn == 5 else "public")
        if turn == 4:
            table.post("gm", "/scene/close")


def test_the_api_the_page_and_the_cli_tell_the_same_story(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    _play(table)
    export = table.export("player")
    assert verify(export, tmp_path).code == 0  # verify vouches for what the ledger reads
    found = ledger(export)
    api = client.get(table.url("/ledger"), headers=table.seats["player"])
    assert api.status_code == 200, api.text
    assert api.json() == ledger_json(found)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    as_json = CliRunner().invoke(cli_app, ["ledger", str(path), "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.output) == api.json()
    text = CliRunner().invoke(cli_app, ["ledger", str(path)]).output
    page = client.get(f"/t/{table.id}/story", headers=table.seats["player"])
    assert page.status_code == 200
    shown = html.unescape(page.text)
    assert [m["name"] for m in api.json()["members"]] == ["Pia", "Oz"]
    for _, line in found.members:
        assert headline(line) in text
        assert headline(line) in shown
    assert f"You</strong>: {headline(found.members[0][1])}" in shown
    assert [n for n, _ in found.sessions] == [1, 2]
    assert found.whole.bought
    assert found.whole.bought[0].action == "push"


def test_the_plot_is_drawn(table: Table, tmp_path: Path) -> None:
    _play(table)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(table.export("gm")), encoding="utf-8")
    chart = tmp_path / "story.svg"
    made = CliRunner().invoke(cli_app, ["ledger", str(path), "--plot", str(chart)])
    assert made.exit_code == 0, made.output
    assert chart.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert "Each member's place" in chart.read_text(encoding="utf-8")


def test_a_file_that_is_not_an_export_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    refused = CliRunner().invoke(cli_app, ["ledger", str(path)])
    assert refused.exit_code == 2
    assert "rulebound-log/2" in refused.output
