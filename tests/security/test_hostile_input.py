"""Issue 14, item 8: hostile input gets a clear 4xx and changes nothing, never a 500.

Pass criteria: each request below (each was a 500, or was accepted though it must not be)
answers 400, 404, 409 or 422 with a JSON (or HTML, for pages) body that encodes, and the
database holds exactly what it held before (tables, members, characters, log entries).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import text

from rulebound.store import SqlStore

from ..client import AppClient
from ..web.conftest import Party, seat_party

JSON = {"content-type": "application/json"}
SAME = {"Sec-Fetch-Site": "same-origin"}
TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')
DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def open_client(app: FastAPI) -> Iterator[AppClient]:
    """A client that shows a server error as the 500 it is, instead of raising it."""
    with AppClient(app, raise_server_exceptions=False) as opened:
        yield opened


@pytest.fixture
def scene(open_client: AppClient) -> tuple[Party, int, str]:
    party = seat_party(open_client)
    cid = party.character(party.gm, "Ana")
    cookie = party.gm["Authorization"].removeprefix("Bearer ")
    open_client.cookies.set(f"rb_table_{party.table_id}", cookie)
    match = TOKEN.search(open_client.get(f"/t/{party.table_id}").text)
    assert match
    return party, cid, match.group(1)


Send = Callable[[Party, int, str], Any]


def _api(method: str, path: str, raw: bytes | str, **headers: str) -> Send:
    def send(party: Party, cid: int, csrf: str) -> Any:
        url = path.format(t=party.table_id, c=cid, player=_token(party))
        body = raw.encode() if isinstance(raw, str) else raw
        sent = JSON | ({} if url.startswith("/api/join") else party.gm) | headers
        return party.client.request(method, url, content=body, headers=sent)

    return send


def _page(path: str, form: dict[str, Any]) -> Send:
    def send(party: Party, cid: int, csrf: str) -> Any:
        url = path.format(t=party.table_id, c=cid)
        return party.client.post(url, data=form | {"csrf": csrf}, headers=SAME)

    return send


def _feed(last_event_id: bytes) -> Send:
    def send(party: Party, cid: int, csrf: str) -> Any:
        headers = [(b"authorization", party.gm["Authorization"].encode())]
        headers.append((b"last-event-id", last_event_id))
        return party.client.get(f"/api/tables/{party.table_id}/feed?follow=false", headers=headers)

    return send


def _token(party: Party) -> str:
    return str(party.invites["player"]).rsplit("/", 1)[1]


ROLL = "/api/tables/{t}/characters/{c}/roll"
CHANCES = "/api/tables/{t}/characters/{c}/chances"
CHAR = "/api/tables/{t}/characters/{c}"
CASES: dict[str, Send] = {
    "helpers -1 (roll)": _api("POST", ROLL, '{"form": {"skill": "Force", "helpers": -1}}'),
    "helpers -1 (chances)": _api("POST", CHANCES, '{"form": {"skill": "Force", "helpers": -1}}'),
    "helpers -1 (page roll)": _page("/t/{t}/c/{c}/roll", {"skill": "Force", "helpers": "-1"}),
    "21 situations (roll)": _api(
        "POST",
        ROLL,
        '{"form": {"skill": "Force", "situations": ' + '["x"],' * 0 + '["a"' + ',"a"' * 20 + "]}}",
    ),
    "21 situations (chances)": _api(
        "POST", CHANCES, '{"form": {"skill": "Force", "situations": ["a"' + ',"a"' * 20 + "]}}"
    ),
    "21 situations (page roll)": _page(
        "/t/{t}/c/{c}/roll", {"skill": "Force", "situations": ["a"] * 21}
    ),
    "a lone surrogate as a contribution": _api(
        "POST",
        ROLL,
        '{"form": {"skill": "Force"}, "dice": {"contribution": "\\ud800", "commitment": "0"}}',
    ),
    "NaN in a roll form": _api("POST", ROLL, '{"form": {"skill": "Force", "helpers": NaN}}'),
    "Infinity in chances": _api("POST", CHANCES, '{"form": {"modifier": Infinity}}'),
    "NaN in a sheet edit": _api("PATCH", CHAR, '{"form": {"damage": NaN}}'),
    "NaN in a member patch": _api("PATCH", "/api/tables/{t}/members/1", '{"revoked": NaN}'),
    "NaN as a version": _api("PATCH", CHAR, '{"form": {}, "version": NaN}'),
    "a lone surrogate as a table name": _api(
        "POST", "/api/tables", '{"name": "\\ud800", "ruleset": "empty-reach", "gm_name": "G"}'
    ),
    "a lone surrogate as a member name": _api(
        "POST", "/api/join/{player}", '{"name": "Pia\\ud800"}'
    ),
    "a lone surrogate as a character name": _api(
        "POST", "/api/tables/{t}/characters", '{"name": "\\udfff"}'
    ),
    "a lone surrogate in a sheet": _api(
        "PUT", CHAR + "/sheet", '{"sheet": {"name": "Ana", "notes": "\\ud800"}}'
    ),
    "a lone surrogate in a form": _api("POST", ROLL, '{"form": {"skill": "\\ud800"}}'),
    "a lone surrogate in an action": _api(
        "POST", "/api/tables/{t}/characters/{c}/actions/x\\ud800", "{}"
    ),
    "Last-Event-ID: ²": _feed(b"\xb2"),
    "Last-Event-ID: 99999999999999999999": _feed(b"99999999999999999999"),
    "the page sheet form with version=abc": _page("/t/{t}/c/{c}/sheet", {"version": "abc"}),
    "an import nested 5,000 levels deep (API)": _api(
        "PUT", CHAR + "/sheet", '{"sheet": {"name": "Ana", "x": ' + DEEP + "}}"
    ),
    "an import nested 5,000 levels deep (page)": _page(
        "/t/{t}/c/{c}/import", {"sheet": '{"name": "Ana", "x": ' + DEEP + "}"}
    ),
    "guided creation with state e30.é": _api(
        "POST", "/api/tables/{t}/creation", '{"state": "e30.\\u00e9"}'
    ),
    "damage 10**4000": _api("PATCH", CHAR, '{"form": {"damage": 1' + "0" * 4000 + "}}"),
    "a name of zero-width characters": _api(
        "POST", "/api/tables/{t}/characters", '{"name": "\\u200b\\u200c\\u2060"}'
    ),
    "a name with a bidirectional override": _api(
        "POST", "/api/join/{player}", '{"name": "Gina\\u202e (GM)"}'
    ),
    "a sheet name with a bidirectional override": _api(
        "PUT", CHAR + "/sheet", '{"sheet": {"name": "Ana\\u202e"}}'
    ),
}


def _counts(party: Party) -> dict[str, Any]:
    store: SqlStore = party.client.app.state.store
    with store.engine.connect() as conn:
        counted = {
            name: conn.execute(text(f"SELECT count(*) FROM {name}")).scalar()
            for name in ("game_tables", "members", "characters", "log_entries")
        }
        counted["sheets"] = conn.execute(text("SELECT version FROM characters")).scalars().all()
    return counted


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_input_is_refused_and_changes_nothing(
    scene: tuple[Party, int, str], name: str
) -> None:
    party, cid, csrf = scene
    before = _counts(party)
    answer = CASES[name](party, cid, csrf)
    assert answer.status_code in (400, 404, 409, 422), (answer.status_code, answer.text[:300])
    assert answer.content.decode("utf-8")
    if answer.headers["content-type"].startswith("application/json"):
        assert answer.json()
    assert _counts(party) == before
