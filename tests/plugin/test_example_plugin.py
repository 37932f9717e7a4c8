"""A game that lives only in its own package gets every front end through its entry point.

The example (examples/coin_toss) has no line of code in rulebound: it is found by the
``rulebound.rulesets`` entry point, and then the CLI (roll, odds, follow-ups, character
files, creation), the web table (sheets, rolls, follow-ups paid from the sheet) and
``rulebound verify`` of the table's export all work for it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rulebound.rulesets.registry import game_keys, get_game
from rulebound.trust.verify import verify_export
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..client import AppClient

RATES = {f"RULEBOUND_RATE_{k}": "off" for k in ("SESSION", "TABLE", "ANONYMOUS")}


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rulebound.cli", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def test_the_entry_point_registers_the_game(plugin_env: dict[str, str]) -> None:
    assert game_keys()[-1] == "coin-toss"
    assert get_game("coin-toss").title == "Coin Toss (example plug-in)"


def test_the_cli_rolls_follows_up_and_gives_odds(
    plugin_env: dict[str, str], tmp_path: Path
) -> None:
    listed = cli(plugin_env, "roll", "--help")
    assert "coin-toss" in listed.stdout
    odds = cli(plugin_env, "odds", "coin-toss", "--coins", "4", "--need", "2", "--json")
    assert odds.returncode == 0, odds.stderr
    assert json.loads(odds.stdout)["p_success"] == "11/16"
    sheet = tmp_path / "ana.json"
    sheet.write_text(json.dumps({"name": "Ana", "coins": 3, "luck": 1}), encoding="utf-8")
    args = ("roll", "coin-toss", "-c", str(sheet), "--need", "3", "--seed", "2")
    rolled = cli(plugin_env, *args, "--retoss", "2", "--save", "--json")
    assert rolled.returncode == 0, rolled.stderr
    body = json.loads(rolled.stdout)
    assert [r["kind"] for r in body["records"]] == ["roll", "retoss"]
    assert json.loads(sheet.read_text(encoding="utf-8"))["luck"] == 0  # paid, written back
    broke = cli(plugin_env, *args, "--retoss", "2")
    assert broke.returncode == 2
    assert "luck: Ana has no luck token left" in broke.stderr
    made = cli(plugin_env, "character", "new", "coin-toss", "--seed", "3", "--name", "Bo", "--json")
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["name"] == "Bo"


def test_the_web_table_plays_it_and_its_export_verifies(
    plugin_env: dict[str, str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'plugin.sqlite3'}"
    settings = Settings.from_env({"RULEBOUND_DATABASE_URL": url, **RATES})
    with AppClient(create_app(settings)) as client:
        games = client.get("/api/rulesets").json()
        assert "coin-toss" in {g["key"] for g in games}
        made = client.post(
            "/api/tables", json={"name": "T", "ruleset": "coin-toss", "gm_name": "Gina"}
        )
        assert made.status_code == 201, made.text
        table, gm = made.json()["table"]["id"], _bearer(made.json()["session_token"])
        base = f"/api/tables/{table}"
        cid = _ok(client.post(f"{base}/characters", json={"name": "Ana"}, headers=gm))["id"]
        _ok(client.patch(f"{base}/characters/{cid}", json={"form": {"luck": "2"}}, headers=gm))
        chances = _ok(
            client.post(f"{base}/characters/{cid}/chances", json={"form": {"need": 3}}, headers=gm)
        )
        assert chances["success"]["p"] == "1/8"
        rolled = None
        for _ in range(20):  # until a roll fails, so the luck token can matter
            rolled = _ok(
                client.post(f"{base}/characters/{cid}/roll", json={"form": {"need": 3}}, headers=gm)
            )
            if rolled["card"]["succeeded"] is False:
                break
        assert rolled is not None
        assert rolled["card"]["succeeded"] is False
        tails = [n for n, die in enumerate(rolled["card"]["dice"]) if die["selectable"]]
        path = f"{base}/entries/{rolled['id']}/actions/retoss"
        _ok(client.post(path, json={"params": {"coin": tails[:1]}}, headers=gm))
        sheet = _ok(client.get(f"{base}/characters/{cid}", headers=gm))["sheet"]
        assert sheet["luck"] == 1
        _ok(client.post(f"{base}/dice/reveal", headers=gm), 200)
        export = _ok(client.get(f"{base}/log/export?format=json", headers=gm), 200)
    report = verify_export(export)
    assert report.ok, [str(p) for p in report.problems]
    assert report.cards >= 2
    assert report.dice > 0


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _ok(answer: Any, code: int | None = None) -> Any:
    assert answer.status_code in ((code,) if code else (200, 201)), answer.text
    return answer.json()
