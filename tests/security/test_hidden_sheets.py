"""Issue 14, item 6: a hidden play's sheet changes reach only those who may see the play.

Pass criteria, for a push made for the game master, blind and for oneself that raised
damage or stress: every viewer who may not see it (other players, observers; the roller
of a blind push; the game master for a self push) gets the character exactly as before
it (list, sheet, version, tracks, form values, dialog, actions, chances, the sheet page
and the characters fragment, the character file); those who may see it get the change;
someone who cannot see it edits the sheet without undoing it; once the push is visible
to them (as a reveal will make it), its change appears.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from rulebound.store import SqlStore
from rulebound.store.schema import log_entries
from rulebound.web.app import create_app

from ..client import AppClient
from ..trust.conftest import Table, open_table, trust_settings

VIEWERS = ("gm", "player", "other", "observer")
SEES = {
    "gm": {"gm", "player"},
    "blind": {"gm"},
    "self": {"player"},
}
"""Who sees a push the player makes on their own character, by privacy."""
TRACKS = re.compile(r'<dl class="tracks big">.*?</dl>', re.S)


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    """A seated table with the server's own (committed) dice, so that pushes vary."""
    with AppClient(create_app(trust_settings(db_url))) as client:
        yield open_table(client)


def _seen(table: Table, who: str, cid: int) -> dict[str, Any]:
    """Everything a viewer is shown of the character."""
    client, headers = table.client, table.seats[who]
    detail = client.get(table.url(f"/characters/{cid}"), headers=headers).json()
    listed = client.get(table.url("/characters"), headers=headers).json()
    chances = client.post(
        table.url(f"/characters/{cid}/chances"), json={"form": {"skill": "Force"}}, headers=headers
    ).json()
    page = client.get(f"/t/{table.id}/c/{cid}", headers=headers).text
    fragment = client.get(f"/t/{table.id}/fragments/characters", headers=headers).text
    exported = client.get(table.url(f"/characters/{cid}/export"), headers=headers).json()
    detail.pop("may_edit")
    return {
        "detail": detail,
        "listed": [dict(c, may_edit=None) for c in listed],
        "chances": chances,
        "tracks": TRACKS.findall(page),
        "fragment": re.sub(r'value="[0-9a-f]{64}"', "", fragment),
        "file": exported,
    }


def _hidden_push(table: Table, cid: int, privacy: str) -> dict[str, Any]:
    """Roll and push in ``privacy`` until a push changes the sheet (a bane: damage, stress)."""
    store: SqlStore = cast(FastAPI, table.client.app).state.store
    before = store.character(table.id, cid).sheet
    for _ in range(80):
        rolled = table.roll("player", cid, privacy)
        if privacy == "blind":
            rolled = table.client.get(
                table.url(f"/entries/{rolled['id']}"), headers=table.seats["gm"]
            ).json()
        pushed = table.push("gm" if privacy == "blind" else "player", rolled)
        if pushed and store.character(table.id, cid).sheet != before:
            return dict(pushed)
    raise AssertionError("no push changed the sheet in 80 tries")


@pytest.mark.parametrize("privacy", sorted(SEES))
def test_a_hidden_push_changes_only_the_sheets_of_those_who_see_it(
    table: Table, privacy: str
) -> None:
    cid = table.character("player", skill="D10")
    before = {who: _seen(table, who, cid) for who in VIEWERS}
    pushed = _hidden_push(table, cid, privacy)
    after = {who: _seen(table, who, cid) for who in VIEWERS}
    for who in VIEWERS:
        if who in SEES[privacy]:
            assert after[who]["detail"]["version"] > before[who]["detail"]["version"], who
            assert after[who]["detail"]["sheet"] != before[who]["detail"]["sheet"], who
        else:
            assert after[who] == before[who], who
    store: SqlStore = cast(FastAPI, table.client.app).state.store
    hidden = [e.id for e in store.log(table.id) if e.privacy == privacy]
    with store.engine.connect().execution_options(rulebound_write=True) as conn, conn.begin():
        shown = update(log_entries).where(log_entries.c.id.in_(hidden)).values(privacy="public")
        conn.execute(shown)
    store.forget(table.id)  # changed behind the store's back: as another process's notice says
    revealed = {who: _seen(table, who, cid)["detail"] for who in VIEWERS}
    stored = store.character(table.id, cid)
    assert pushed["changed"] == [cid]
    for who in VIEWERS:
        assert (revealed[who]["sheet"], revealed[who]["version"]) == (
            stored.sheet,
            stored.version,
        ), who


def test_an_edit_by_someone_who_cannot_see_keeps_the_hidden_change(table: Table) -> None:
    cid = table.character("player", skill="D10")
    _hidden_push(table, cid, "self")
    store: SqlStore = cast(FastAPI, table.client.app).state.store
    gm_view = table.client.get(table.url(f"/characters/{cid}"), headers=table.seats["gm"]).json()
    edit = {"form": {"name": "Ana the Bold"}, "version": gm_view["version"]}
    answer = table.client.patch(
        table.url(f"/characters/{cid}"), json=edit, headers=table.seats["gm"]
    )
    assert answer.status_code == 200, answer.text
    mine = table.client.get(table.url(f"/characters/{cid}"), headers=table.seats["player"]).json()
    stored = store.character(table.id, cid)
    assert mine["sheet"] == stored.sheet
    assert mine["sheet"]["name"] == "Ana the Bold"
    assert answer.json()["sheet"] == dict(gm_view["sheet"], name="Ana the Bold")
    assert answer.json()["sheet"] != stored.sheet


@pytest.mark.parametrize("privacy", ["blind", "gm"])
def test_a_revealed_push_changes_every_sheet_and_a_later_hidden_one_does_not(
    table: Table, privacy: str
) -> None:
    """Issue 12 and issue 14 item 6: once the game master reveals a hidden push through the
    API, every viewer gets the character with its change (sheet, version, list, tracks,
    chances, file), can edit from that version, and a hidden push after it stays hidden."""
    store: SqlStore = cast(FastAPI, table.client.app).state.store
    cid = table.character("player", skill="D10")
    pushed = _hidden_push(table, cid, privacy)
    pushes = [e.id for e in store.log(table.id) if (e.kind, e.privacy) == ("follow-up", privacy)]
    assert pushed["id"] in pushes
    for push in pushes:  # the pushes before it (the sheet kept) count a change each too
        table.post("gm", f"/entries/{push}/reveal")
    stored = store.character(table.id, cid)
    seen = {who: _seen(table, who, cid) for who in VIEWERS}
    for who in VIEWERS:
        assert (seen[who]["detail"]["sheet"], seen[who]["detail"]["version"]) == (
            stored.sheet,
            stored.version,
        ), who
        for part in ("detail", "listed", "chances", "tracks", "file"):
            assert seen[who][part] == seen["gm"][part], (who, part)

    edit = {"form": {"name": "Ana the Bold"}, "version": seen["other"]["detail"]["version"]}
    answer = table.client.patch(
        table.url(f"/characters/{cid}"), json=edit, headers=table.seats["player"]
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["sheet"] == dict(stored.sheet, name="Ana the Bold")

    before = {who: _seen(table, who, cid)["detail"] for who in VIEWERS}
    _hidden_push(table, cid, privacy)
    after = {who: _seen(table, who, cid)["detail"] for who in VIEWERS}
    for who in VIEWERS:
        if who in SEES[privacy]:
            assert after[who]["version"] > before[who]["version"], who
        else:
            assert after[who] == before[who], who
