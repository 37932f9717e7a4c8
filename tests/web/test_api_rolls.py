"""Rolls, follow-ups and sheet actions: a follow-up is a new linked entry, applied atomically."""

from __future__ import annotations

from typing import Any

from rulebound.store import CharacterRow, Scope, SqlStore

from .conftest import Dice, Party

PUSH_ROLL_SEED, PUSH_SEED = 0, 2
"""With Force D6 on a D8 attribute: seed 0 rolls 7 and 4; pushing both dice with seed 2
rolls two 1s (two banes: 2 damage)."""


def _ready(party: Party) -> int:
    cid = party.character(party.player)
    form = {"form": {"skills.Force": "D6"}}
    assert party.client.patch(
        party.url(f"/characters/{cid}"), json=form, headers=party.player
    ).is_success
    return cid


def _roll(
    party: Party, cid: int, privacy: str = "public", who: dict[str, str] | None = None
) -> dict[str, Any]:
    body = {"form": {"skill": "Force"}, "privacy": privacy}
    rolled = party.client.post(
        party.url(f"/characters/{cid}/roll"), json=body, headers=who or party.player
    )
    assert rolled.status_code == 201, rolled.text
    entry: dict[str, Any] = rolled.json()
    return entry


def test_a_roll_is_logged_with_its_card(party: Party, dice: Dice) -> None:
    cid = _ready(party)
    dice.seeds[:] = [PUSH_ROLL_SEED]
    entry = _roll(party, cid)
    card = entry["card"]
    assert entry["kind"] == "roll"
    assert entry["character"] == "Ana"
    assert [(d["label"], d["sides"], d["face"]) for d in card["dice"]] == [
        ("D8", 8, 7),
        ("D6", 6, 4),
    ]
    assert card["outcome"] == "1 success"
    assert entry["record"]["draws"] == [[8, 7], [6, 4]]
    assert entry["can_act"]
    assert card["actions"][0]["key"] == "push"
    assert card["actions"][0]["advice"]


def test_a_push_is_a_new_entry_and_its_damage_lands_with_it(party: Party, dice: Dice) -> None:
    cid = _ready(party)
    dice.seeds[:] = [PUSH_ROLL_SEED, PUSH_SEED]
    root = _roll(party, cid)
    path = party.url(f"/entries/{root['id']}/actions/push")
    pushed = party.client.post(path, json={"params": {"reroll": [0, 1]}}, headers=party.player)
    assert pushed.status_code == 201, pushed.text
    follow = pushed.json()
    assert follow["parent_id"] == root["id"]
    assert follow["seq"] == root["seq"] + 1
    assert [d["face"] for d in follow["card"]["dice"]] == [1, 1]
    assert follow["changed"] == [cid]
    sheet = party.client.get(party.url(f"/characters/{cid}"), headers=party.gm).json()
    assert sheet["sheet"]["damage"] == 2
    again = party.client.get(party.url(f"/entries/{root['id']}"), headers=party.player).json()
    assert again["card"] == root["card"]
    assert not again["can_act"]
    twice = party.client.post(path, json={"params": {"reroll": [0]}}, headers=party.player)
    assert twice.status_code == 409


def test_only_the_characters_players_follow_up(party: Party, dice: Dice) -> None:
    cid = _ready(party)
    dice.seeds[:] = [PUSH_ROLL_SEED, PUSH_SEED]
    root = _roll(party, cid)
    path = party.url(f"/entries/{root['id']}/actions/push")
    assert party.client.post(path, json={}, headers=party.other).status_code == 403
    assert party.client.post(path, json={}, headers=party.observer).status_code == 403
    unknown = party.client.post(
        party.url(f"/entries/{root['id']}/actions/dance"), json={}, headers=party.player
    )
    assert unknown.status_code == 400
    assert unknown.json()["field"] == "action"
    first = party.client.get(party.url("/log?limit=200"), headers=party.gm).json()["entries"][-1]
    joined = party.client.post(
        party.url(f"/entries/{first['id']}/actions/push"), json={}, headers=party.gm
    )
    assert joined.status_code == 409


def test_a_stale_sheet_refuses_the_follow_up(party: Party, dice: Dice) -> None:
    """The sheet moved between reading it and writing the push: nothing is written."""
    cid = _ready(party)
    dice.seeds[:] = [PUSH_ROLL_SEED, PUSH_SEED]
    root = _roll(party, cid)
    store: SqlStore = party.client.app.state.store
    original = store.character

    def stale(
        table_id: int, character_id: int, scope: Scope | None = None, *, shared: bool = False
    ) -> CharacterRow:
        row = original(table_id, character_id, scope, shared=shared)  # the version read is old
        return type(row)(
            **{**{f: getattr(row, f) for f in row.__slots__}, "version": row.version - 1}
        )

    store.character = stale  # type: ignore[method-assign]  # a stale read, on purpose
    try:
        pushed = party.client.post(
            party.url(f"/entries/{root['id']}/actions/push"), json={}, headers=party.player
        )
    finally:
        store.character = original  # type: ignore[method-assign]
    assert pushed.status_code == 409
    assert store.last_seq(party.table_id) == root["seq"]
    assert store.character(party.table_id, cid).sheet["damage"] == 0


def test_sheet_actions_log_and_change_the_sheet(party: Party) -> None:
    cid = _ready(party)
    party.client.patch(
        party.url(f"/characters/{cid}"), json={"form": {"damage": 3}}, headers=party.player
    )
    healed = party.client.post(
        party.url(f"/characters/{cid}/actions/heal"),
        json={"params": {"health": 2}},
        headers=party.player,
    )
    assert healed.status_code == 201
    assert healed.json()["summary"] == "Ana: Ana recovers 2 Health, 0 Resolve"
    assert (
        party.client.get(party.url(f"/characters/{cid}"), headers=party.player).json()["sheet"][
            "damage"
        ]
        == 1
    )
    blank = party.client.post(  # a box holding only white space: not given (once a 500)
        party.url(f"/characters/{cid}/actions/heal"),
        json={"params": {"health": "\x85", "resolve": " "}},
        headers=party.player,
    )
    assert blank.status_code == 201, blank.text
    assert blank.json()["summary"] == "Ana: Ana recovers 0 Health, 0 Resolve"
    nope = party.client.post(
        party.url(f"/characters/{cid}/actions/fly"), json={}, headers=party.player
    )
    assert nope.status_code == 400


def test_table_actions_are_for_the_gm(party: Party) -> None:
    assert party.client.get(party.url("/actions"), headers=party.player).status_code == 403
    assert party.client.get(party.url("/actions"), headers=party.gm).json() == []
    refused = party.client.post(party.url("/actions/initiative"), json={}, headers=party.gm)
    assert refused.status_code == 400
    assert refused.json()["field"] == "action"
    assert (
        party.client.post(
            party.url("/actions/initiative"), json={}, headers=party.player
        ).status_code
        == 403
    )
