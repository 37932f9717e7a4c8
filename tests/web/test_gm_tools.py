"""Game-master tools through the generic table: a Legacy extended check run turn by turn."""

from __future__ import annotations

from ..client import AppClient
from .conftest import bearer, seat_party


def test_extended_check_turns_are_linked_follow_ups(client: AppClient) -> None:
    made = client.post("/api/tables", json={"name": "T", "ruleset": "legacy", "gm_name": "G"})
    table, gm = made.json()["table"]["id"], bearer(made.json()["session_token"])
    hero = client.post(f"/api/tables/{table}/characters", json={"name": "Ana"}, headers=gm)
    assert hero.status_code == 201, hero.text
    params = {
        "character": "Ana",
        "characteristic": "INT",
        "success_threshold": 3,
        "failure_threshold": 30,
        "max_rolls": 4,
    }
    started = client.post(
        f"/api/tables/{table}/actions/extended-check", json={"params": params}, headers=gm
    )
    assert started.status_code == 201, started.text
    entry = started.json()
    turns = 0
    while any(a["key"] == "extended-roll" for a in entry["card"]["actions"]):
        path = f"/api/tables/{table}/entries/{entry['id']}/actions/extended-roll"
        turn = client.post(path, json={"params": {}}, headers=gm)
        assert turn.status_code == 201, turn.text
        assert turn.json()["parent_id"] == entry["id"]
        entry = turn.json()
        turns += 1
    assert 1 <= turns <= 4
    stale = client.post(
        f"/api/tables/{table}/entries/{started.json()['id']}/actions/extended-roll",
        json={"params": {}},
        headers=gm,
    )
    assert stale.status_code == 409


def test_only_the_gm_runs_a_gm_tool(client: AppClient) -> None:
    party = seat_party(client, "legacy")
    party.character(party.gm)
    params = {
        "character": "Ana",
        "characteristic": "STR",
        "success_threshold": 3,
        "failure_threshold": 30,
        "max_rolls": 2,
    }
    denied = client.post(
        party.url("/actions/extended-check"), json={"params": params}, headers=party.player
    )
    assert denied.status_code == 403
    started = client.post(
        party.url("/actions/extended-check"), json={"params": params}, headers=party.gm
    )
    assert started.status_code == 201, started.text
    path = party.url(f"/entries/{started.json()['id']}/actions/extended-roll")
    assert client.post(path, json={"params": {}}, headers=party.player).status_code == 403
    assert client.post(path, json={"params": {}}, headers=party.observer).status_code == 403
