"""Fixtures for the Discord app: a test key pair, an app serving the interactions endpoint
with the server's committed dice, and a "Discord" that signs each request as Discord would."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from fastapi import FastAPI
from httpx2 import Response
from nacl.signing import SigningKey

from rulebound.app import create_app
from rulebound.discord.interactions import PATH

from ..client import AppClient
from ..trust.conftest import Table, open_table, trust_settings

KEY = SigningKey(bytes(range(32)))
PUBLIC_KEY = KEY.verify_key.encode().hex()
GUILD = "800000000000000001"
USERS = {"gm": "100000000000000001", "player": "100000000000000002", "other": "100000000000000003"}
NAMES = {"gm": "Gina", "player": "Pia", "other": "Oz"}


def new_channel() -> str:
    """A channel id of its own per test: PostgreSQL keeps one database for the whole run."""
    return str(900000000000000000 + secrets.randbelow(10**17))


def new_interaction() -> str:
    """An interaction id of its own (a snowflake, as Discord's): a repeated id is a replay."""
    return str(1100000000000000000 + secrets.randbelow(10**17))


def signed(body: bytes, timestamp: int | None = None, key: SigningKey = KEY) -> dict[str, str]:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    signature = key.sign(stamp.encode() + body).signature.hex()
    return {
        "X-Signature-Ed25519": signature,
        "X-Signature-Timestamp": stamp,
        "Content-Type": "application/json",
    }


@dataclass
class Discord:
    """Sends interactions as Discord does: a JSON body, signed with the application's key."""

    client: AppClient
    channel: str = field(default_factory=new_channel)

    def send(self, payload: dict[str, Any]) -> Response:
        body = json.dumps(payload).encode()
        return self.client.post(PATH, content=body, headers=signed(body))

    def answer(self, payload: dict[str, Any]) -> dict[str, Any]:
        sent = self.send(payload)
        assert sent.status_code == 200, sent.text
        data: dict[str, Any] = sent.json()
        return data

    def base(self, who: str, kind: int) -> dict[str, Any]:
        user = {"id": USERS[who], "username": NAMES[who].lower(), "global_name": NAMES[who]}
        return {
            "id": new_interaction(),
            "application_id": "700000000000000001",
            "type": kind,
            "token": "interaction-token",
            "version": 1,
            "channel_id": self.channel,
            "guild_id": GUILD,
            "member": {"user": user, "nick": None, "roles": []},
        }

    def command(
        self, who: str, name: str, sub: str | None = None, /, **options: Any
    ) -> dict[str, Any]:
        given = [{"name": k, "type": _type(v), "value": v} for k, v in options.items()]
        if sub is not None:
            given = [{"type": 1, "name": sub, "options": given}]
        payload = self.base(who, 2) | {
            "data": {"id": "5", "name": name, "type": 1, "options": given}
        }
        return self.answer(payload)

    def complete(self, who: str, name: str, sub: str, focused: str, /, **options: Any) -> Any:
        given = [
            {"name": k, "type": _type(v), "value": v, **({"focused": True} if k == focused else {})}
            for k, v in options.items()
        ]
        data = {
            "id": "5",
            "name": name,
            "type": 1,
            "options": [{"type": 1, "name": sub, "options": given}],
        }
        return self.answer(self.base(who, 4) | {"data": data})

    def press(
        self,
        who: str,
        custom_id: str,
        values: list[str] | None = None,
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A button (or, with ``values``, a select menu) pressed on ``message`` (the data of
        the message it is on, which Discord sends with the press)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        on = {"id": "600000000000000001", "channel_id": self.channel} | (message or {})
        return self.answer(self.base(who, 3) | {"data": data, "message": on})

    def submit(
        self,
        who: str,
        modal: dict[str, Any],
        values: dict[str, str] | None = None,
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A modal (an answer of type 9) submitted, each input as filled in, or as
        ``values`` says; ``message``: the message whose button opened it."""
        assert modal["type"] == 9, modal
        given = values or {}
        inputs = [c for row in modal["data"]["components"] for c in row["components"]]
        data = {
            "custom_id": modal["data"]["custom_id"],
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 4,
                            "custom_id": i["custom_id"],
                            "value": given.get(i["custom_id"], i.get("value", "")),
                        }
                    ],
                }
                for i in inputs
            ],
        }
        on = {"id": "600000000000000001", "channel_id": self.channel} | (message or {})
        return self.answer(self.base(who, 5) | {"data": data, "message": on})


def _type(value: Any) -> int:
    return 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3


def discord_app(db_url: str) -> FastAPI:
    return create_app(replace(trust_settings(db_url), discord_public_key=PUBLIC_KEY))


@pytest.fixture
def client(db_url: str) -> Iterator[AppClient]:
    with AppClient(discord_app(db_url)) as opened:
        yield opened


@pytest.fixture
def discord(client: AppClient) -> Discord:
    return Discord(client)


@dataclass
class Linked:
    """A web table (``table``) whose channel the game master linked, a player seated from
    Discord, and a character of that player's."""

    table: Table
    discord: Discord
    character: int


def gm_invite(table: Table) -> str:
    return str(table.client.get(table.url(), headers=table.seats["gm"]).json()["invites"]["gm"])


def link(client: AppClient, discord: Discord, ruleset: str = "empty-reach") -> Table:
    table = open_table(client, ruleset)
    linked = discord.command("gm", "rulebound", "link", invite=gm_invite(table))
    assert "now plays at" in linked["data"]["content"], linked
    joined = discord.command("player", "rulebound", "join")
    assert "takes a seat" in joined["data"]["content"], joined
    return table


@pytest.fixture
def linked(client: AppClient, discord: Discord) -> Linked:
    table = link(client, discord)
    made = discord.command("player", "rulebound", "character", name="Ana")
    assert "created Ana" in made["data"]["content"], made
    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    ana = next(row for row in rows if row["name"] == "Ana")
    return Linked(table, discord, int(ana["id"]))
