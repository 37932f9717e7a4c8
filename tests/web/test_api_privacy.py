"""Every log endpoint filters per viewer; a hidden result never leaves the server."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from .conftest import Dice, Party

MODES = ("public", "gm", "blind", "self")
# Who knows of a roll made by the player (a hidden blind roll still shows as "it happened").
KNOWS = {
    "public": {"gm", "player", "other", "observer"},
    "gm": {"gm", "player"},
    "blind": {"gm", "player"},
    "self": {"player"},
}
SEES_RESULT = KNOWS | {"blind": {"gm"}}
SECRET_OUTCOME = "1 success"  # seed 0 on D8 + D6


def _roll(party: Party, privacy: str) -> dict[str, Any]:
    cid = party.character(party.player)
    party.client.patch(
        party.url(f"/characters/{cid}"), json={"form": {"skills.Force": "D6"}}, headers=party.player
    )
    body = {"form": {"skill": "Force"}, "privacy": privacy}
    rolled = party.client.post(
        party.url(f"/characters/{cid}/roll"), json=body, headers=party.player
    )
    assert rolled.status_code == 201
    entry: dict[str, Any] = rolled.json()
    return entry


def _everything(party: Party, who: str) -> str:
    """All a member can fetch about the log, as one string."""
    headers = getattr(party, who)
    client = party.client
    parts = [
        client.get(party.url("/log"), headers=headers).text,
        _shown(client.get(party.url("/log/export?format=json"), headers=headers).json()),
        client.get(party.url("/log/export?format=csv"), headers=headers).text,
        client.get(party.url("/feed?follow=false"), headers=headers).text,
    ]
    return "\n".join(parts)


def _shown(export: dict[str, Any]) -> str:
    """The export without its withheld links: a link names the seq and privacy of an entry
    only so the chain can be recomputed (docs/security.md), never its content."""
    for link in (e for e in export["entries"] if e.get("withheld")):
        assert set(link) == {"withheld", "seq", "privacy", "dice", "body_hash", "prev_hash", "hash"}
    export["entries"] = [e for e in export["entries"] if not e.get("withheld")]
    return json.dumps(export, separators=(",", ":"))


@pytest.mark.parametrize("privacy", MODES)
def test_each_mode_reaches_exactly_its_viewers(party: Party, dice: Dice, privacy: str) -> None:
    dice.seeds[:] = [0]
    entry = _roll(party, privacy)
    for who in ("gm", "player", "other", "observer"):
        seen = _everything(party, who)
        knows = f'"seq":{entry["seq"]}' in seen.replace(" ", "")
        assert knows == (who in KNOWS[privacy]), (who, privacy)
        assert (SECRET_OUTCOME in seen) == (who in SEES_RESULT[privacy]), (who, privacy)
        single = party.client.get(party.url(f"/entries/{entry['id']}"), headers=getattr(party, who))
        assert single.status_code == (200 if who in KNOWS[privacy] else 404)


def test_the_blind_roller_learns_only_that_it_happened(party: Party, dice: Dice) -> None:
    dice.seeds[:] = [0]
    entry = _roll(party, "blind")
    assert entry["hidden"]
    assert entry["card"] is None
    assert entry["record"] is None
    assert SECRET_OUTCOME not in json.dumps(entry)
    gm_view = party.client.get(party.url(f"/entries/{entry['id']}"), headers=party.gm).json()
    assert gm_view["card"]["outcome"] == SECRET_OUTCOME
    assert not gm_view["hidden"]
    push = party.url(f"/entries/{entry['id']}/actions/push")
    # its roller may push it unseen (issue 12): the push stays blind to them
    pushed = party.client.post(push, json={}, headers=party.player)
    assert pushed.status_code == 201
    assert pushed.json()["hidden"]
    assert SECRET_OUTCOME not in pushed.text
    assert party.client.post(push, json={}, headers=party.gm).status_code == 409
    follow = party.client.get(party.url("/log"), headers=party.player).json()["entries"][0]
    assert follow["privacy"] == "blind"
    assert follow["hidden"]


def test_exports_hold_the_viewers_log(party: Party, dice: Dice) -> None:
    dice.seeds[:] = [0]
    _roll(party, "public")
    data = json.loads(
        party.client.get(party.url("/log/export?format=json"), headers=party.observer).text
    )
    assert data["table"] == "Night run"
    assert [e["kind"] for e in data["entries"]][-1] == "roll"
    rows = list(
        csv.reader(
            io.StringIO(
                party.client.get(party.url("/log/export?format=csv"), headers=party.observer).text
            )
        )
    )
    assert rows[0][:4] == ["seq", "created_at", "kind", "privacy"]
    assert rows[-1][2] == "roll"
    assert rows[-1][8] == SECRET_OUTCOME
