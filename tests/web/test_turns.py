"""The turn tracker through the API, on SQLite and PostgreSQL.

Pass criteria: a game master and two players drive a Legacy table through a round (the
order rolled by Legacy's initiative rules, each player ending their own character's turn,
nobody else's); every move is a public log entry that every member, observers too, reads
in the log and the feed; the state (order, whose turn, round) is the same through
``/turns``, the table's JSON and the page; a stale click is refused and a raced one
changes nothing; a game without initiative rules orders by a plain die or as set.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..client import AppClient
from .conftest import Party, seat_party

WHO = ("gm", "player", "other", "observer")


def _turns(party: Party, who: str = "gm") -> dict[str, Any]:
    found = party.client.get(party.url("/turns"), headers=getattr(party, who))
    assert found.status_code == 200, found.text
    state: dict[str, Any] = found.json()
    return state


def _move(party: Party, who: str, action: str, code: int = 201, **params: Any) -> dict[str, Any]:
    done = party.client.post(
        party.url(f"/turns/{action}"), json={"params": params}, headers=getattr(party, who)
    )
    assert done.status_code == code, done.text
    answer: dict[str, Any] = done.json()
    return answer


def test_a_gm_and_two_players_play_a_round_of_legacy(client: AppClient) -> None:
    party = seat_party(client, "legacy")
    ana, bo = party.character(party.player, "Ana"), party.character(party.other, "Bo")
    started = _move(party, "gm", "start", characters=[ana, bo], others="Grue")
    assert (started["kind"], started["privacy"]) == ("turn", "public")
    assert "Legacy Machines and Magic's initiative" in started["summary"]
    state = _turns(party, "observer")
    assert (state["active"], state["round"], state["method"]) == (True, 1, "game")
    order = [c["name"] for c in state["order"]]
    assert sorted(order) == ["Ana", "Bo", "Grue"]
    assert order[-1] == "Grue"  # no sheet to roll from: placed by hand, after the characters
    ranks = [tuple(c["rank"]) for c in state["order"][:2]]
    assert ranks == sorted(ranks, reverse=True)
    players = {f"c{ana}": "player", f"c{bo}": "other"}
    for step, combatant in enumerate(state["order"]):
        now = _turns(party)
        assert now["up"] == combatant["key"]
        assert [c["up"] for c in now["order"]] == [n == step for n in range(3)]
        mover = players.get(combatant["key"], "gm")
        for outsider in (w for w in ("player", "other", "observer") if w != mover):
            _move(party, outsider, "next", 403, ends=combatant["key"])
        ended = _move(party, mover, "next", ends=combatant["key"])
        name = {"gm": "Gina", "player": "Pia", "other": "Oz"}[mover]
        assert ended["summary"].startswith(f"{name} ended {combatant['name']}'s turn")
    after = _turns(party)
    assert (after["round"], after["up"]) == (2, state["order"][0]["key"])
    table = client.get(party.url(), headers=party.player).json()
    assert table["turns"] == after
    for who in WHO:
        log = client.get(party.url("/log"), headers=getattr(party, who)).json()["entries"]
        assert sum(e["kind"] == "turn" for e in log) == 4, who
        feed = client.get(party.url("/feed?follow=false"), headers=getattr(party, who)).text
        assert feed.count('"kind":"turn"') == 4, who


def test_a_stale_click_is_refused_and_a_raced_one_changes_nothing(party: Party) -> None:
    _move(party, "gm", "start", method="set", others="Ana, Bo, Cy")
    first = _turns(party)["up"]
    _move(party, "gm", "next", ends=first)
    refused = _move(party, "gm", "next", 409, ends=first)
    assert "Bo's turn is under way" in refused["detail"]
    assert _turns(party)["up"] == "n2"
    _move(party, "gm", "round")
    assert (_turns(party)["round"], _turns(party)["up"]) == (2, "n1")


def test_two_moves_made_from_the_same_order_log_one(
    party: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two "next" sent at once both read the order before either was logged: both were
    logged ("ended Ana's turn" twice), and without ``ends`` the second ended Bo's turn too.
    A move is checked again against the turn entries logged after it read the order."""
    _move(party, "gm", "start", method="set", others="Ana, Bo, Cy")
    service = party.client.app.state.service
    read = service._turn_entries(party.table_id)
    seen = service.store.last_seq(party.table_id)
    _move(party, "gm", "next", ends="n1")
    monkeypatch.setattr(service, "_turn_entries", lambda table_id: read)
    monkeypatch.setattr(service.store, "last_seq", lambda table_id: seen)
    for params in ({"ends": "n1"}, {}):
        refused = _move(party, "gm", "next", 409, **params)
        assert "changed" in refused["detail"]
    monkeypatch.undo()
    assert _turns(party)["up"] == "n2"
    log = party.client.get(party.url("/log"), headers=party.gm).json()["entries"]
    assert sum("ended" in e["summary"] for e in log if e["kind"] == "turn") == 1


def test_a_players_double_click_is_a_stale_click_as_the_game_masters_is(party: Party) -> None:
    ana = party.character(party.player, "Ana")
    _move(party, "gm", "start", method="set", characters=[ana], others="Bo")
    _move(party, "player", "next", ends=f"c{ana}")
    again = _move(party, "player", "next", 409, ends=f"c{ana}")
    assert "Bo's turn is under way" in again["detail"]
    _move(party, "player", "next", 403, ends="n1")  # Bo's turn is not the player's to end


def test_a_refused_start_or_add_names_the_field_it_was_sent_in(party: Party) -> None:
    def refused(action: str, **params: Any) -> tuple[str, Any]:
        body = _move(party, "gm", action, 400, **params)
        return body["field"], body["value"]

    assert refused("start", characters=[999]) == ("characters", 999)
    assert refused("start", others="x" * 300)[0] == "others"
    _move(party, "gm", "start", method="set", others="Grue")
    assert refused("add", character=999) == ("character", 999)
    assert refused("add", name="x" * 300)[0] == "name"
    assert refused("add") == ("character", None)
    assert refused("add", name="Imp, Wolf")[0] == "name"


def test_the_game_master_adds_moves_takes_out_and_ends(party: Party, client: AppClient) -> None:
    ana = party.character(party.player, "Ana")
    _move(party, "gm", "start", method="set", characters=[ana], others="Grue")
    _move(party, "gm", "add", name="Wolf", place=1)
    assert [c["name"] for c in _turns(party)["order"]] == ["Wolf", "Ana", "Grue"]
    assert _turns(party)["up"] == f"c{ana}"  # the turn stays with whoever had it
    _move(party, "gm", "move", key="n1", place=1)
    _move(party, "gm", "remove", key=f"c{ana}")  # the last, whose turn it was: a new round
    state = _turns(party)
    assert [c["name"] for c in state["order"]] == ["Grue", "Wolf"]
    assert (state["up"], state["round"]) == ("n1", 2)
    _move(party, "player", "add", 403, name="Imp")
    _move(party, "gm", "add", 400, character=999)
    ended = _move(party, "gm", "end")
    assert ended["summary"] == "Gina ended the turn order after round 2"
    assert _turns(party) | {"initiative": False} == {
        "active": False,
        "round": 0,
        "up": None,
        "method": "",
        "die": "",
        "order": [],
        "initiative": False,
    }
    _move(party, "gm", "next", 409)


def test_a_game_without_initiative_rules_rolls_a_plain_die(party: Party) -> None:
    ana, bo = party.character(party.player, "Ana"), party.character(party.other, "Bo")
    assert _turns(party)["initiative"] is False
    refused = _move(party, "gm", "start", 400, method="game", characters=[ana])
    assert "no initiative rules" in refused["detail"]
    started = _move(party, "gm", "start", characters=[ana, bo], others="Grue", die="1d6+10")
    card = started["card"]
    assert [d["sides"] for d in card["dice"]] == [6, 6, 6]
    totals = {c["name"]: c["rank"][0] for c in _turns(party)["order"]}
    assert all(11 <= total <= 16 for total in totals.values())
    assert list(totals.values()) == sorted(totals.values(), reverse=True)
    assert _turns(party)["die"] == "1d6+10"
    _move(party, "player", "start", 403, method="set", others="Nobody")
