"""Fixtures for the trust tests: an app with the default (committed-seed) dice on SQLite and,
with RULEBOUND_TEST_PG_URL, PostgreSQL; a seated party; the export and ``rulebound verify``."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app as cli_app
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..client import AppClient

UNLIMITED = {
    "RULEBOUND_RATE_SESSION": "off",
    "RULEBOUND_RATE_TABLE": "off",
    "RULEBOUND_RATE_ANONYMOUS": "off",
}


def trust_settings(url: str) -> Settings:
    """The server's own defaults (committed dice), minus the rate limits a test would hit."""
    return Settings.from_env({"RULEBOUND_DATABASE_URL": url, **UNLIMITED})


@pytest.fixture
def client(db_url: str) -> Iterator[AppClient]:
    with AppClient(create_app(trust_settings(db_url))) as opened:
        yield opened


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Table:
    """A table seated through the API: bearer headers per member."""

    client: Any
    id: int
    seats: dict[str, dict[str, str]]

    def url(self, path: str = "") -> str:
        return f"/api/tables/{self.id}{path}"

    def post(self, who: str, path: str, body: Any = None, code: int = 201) -> Any:
        answer = self.client.post(self.url(path), json=body or {}, headers=self.seats[who])
        assert answer.status_code == code, answer.text
        return answer.json()

    def character(self, who: str, name: str = "Ana", skill: str = "D6") -> int:
        made = self.post(who, "/characters", {"name": name})
        edit = {"form": {"skills.Force": skill}}
        patched = self.client.patch(
            self.url(f"/characters/{made['id']}"), json=edit, headers=self.seats[who]
        )
        assert patched.status_code == 200, patched.text
        return int(made["id"])

    def contribution(self, value: str | None = None) -> dict[str, str]:
        """What a roller sends with a roll: a fresh random value and the commitment it saw."""
        return {"contribution": value or secrets.token_hex(16), "commitment": self.commitment()}

    def commitment(self) -> str:
        return str(self.dice()["commitment"])

    def roll(
        self, who: str, cid: int, privacy: str = "public", dice: dict[str, str] | None = None
    ) -> Any:
        body = {"form": {"skill": "Force"}, "privacy": privacy, "dice": dice or self.contribution()}
        return self.post(who, f"/characters/{cid}/roll", body)

    def push(self, who: str, rolled: Any) -> Any:
        """Push a roll's first die that may be rerolled; None when the card offers no push."""
        card = rolled["card"] or {}
        dice = [n for n, die in enumerate(card.get("dice", ())) if die["selectable"]]
        if not dice or not any(a["key"] == "push" for a in card.get("actions", ())):
            return None
        body = {"params": {"reroll": dice[:1]}, "dice": self.contribution()}
        return self.post(who, f"/entries/{rolled['id']}/actions/push", body)

    def dice(self, who: str = "gm") -> Any:
        return self.client.get(self.url("/dice"), headers=self.seats[who]).json()

    def reveal(self) -> Any:
        return self.post("gm", "/dice/reveal", code=200)

    def export(self, who: str = "gm") -> dict[str, Any]:
        answer = self.client.get(self.url("/log/export?format=json"), headers=self.seats[who])
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data


def open_table(client: Any, ruleset: str = "empty-reach") -> Table:
    body = {"name": "Night run", "ruleset": ruleset, "gm_name": "Gina", "observers": True}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    seats = {"gm": bearer(made.json()["session_token"])}
    for who, link, name in (
        ("player", "player", "Pia"),
        ("other", "player", "Oz"),
        ("observer", "observer", "Obi"),
    ):
        token = table["invites"][link].rsplit("/", 1)[1]
        joined = client.post(f"/api/join/{token}", json={"name": name})
        assert joined.status_code == 201, joined.text
        seats[who] = bearer(joined.json()["session_token"])
    return Table(client, table["id"], seats)


@pytest.fixture
def table(client: AppClient) -> Table:
    return open_table(client)


@dataclass(frozen=True)
class Verdict:
    code: int
    out: str
    problems: list[dict[str, Any]]

    @property
    def first(self) -> int | None:
        return self.problems[0]["seq"] if self.problems else None


def verify(doc: dict[str, Any], folder: Path, *args: str) -> Verdict:
    """Run ``rulebound verify --json`` on an export, as a user would."""
    path = folder / "log.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    done = CliRunner().invoke(cli_app, ["verify", str(path), "--json", *args])
    assert done.exit_code in (0, 1), done.output
    report = json.loads(done.stdout)
    return Verdict(done.exit_code, done.stdout, report["problems"])
