"""Issue 14, item 4: a host with the database cannot choose or foresee a player's dice.

The attacks of the issue, replayed by a game master who reads the server seed from the
database (as a host can):

- grinding a table-wide client seed offline and setting it: there is no such seed to set
  any more (the route is gone), and the player's faces are ``HMAC(seed, contribution)``
  for the contribution the player sent, whatever the game master does;
- burning nonces with their own hidden rolls before the player's: the player's faces do
  not move (nothing but the seed and the player's own contribution enters them);
- knowing a player's value before the next commitment: a contribution counts once at a
  table, so no value made before a commitment can be used after it, and one made under
  another commitment is refused.

Pass criteria: the above; a roll that sends no contribution is marked ``server_chosen``
(in the log, the export and ``rulebound verify``'s summary); a malformed contribution is
refused naming its field.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, cast

from fastapi import FastAPI
from sqlalchemy import select

from rulebound.core.verifiable import VerifiableSource
from rulebound.store import SqlStore
from rulebound.store.schema import table_seeds

from ..client import AppClient
from .conftest import Table, verify


def _server_seed(table: Table) -> str:
    """What a host reads from its own database."""
    store: SqlStore = cast(FastAPI, table.client.app).state.store
    query = select(table_seeds.c.server_seed).where(
        table_seeds.c.table_id == table.id, table_seeds.c.revealed_at.is_(None)
    )
    with store.engine.connect() as conn:
        return str(conn.execute(query).scalar_one())


def _faces(seed: str, value: str, sides: list[int]) -> list[list[int]]:
    source = VerifiableSource(seed, value, 0)
    return [[s, source.draw(s)] for s in sides]


def _roll(table: Table, who: str, cid: int, body: dict[str, Any], code: int = 201) -> Any:
    answer = table.client.post(
        table.url(f"/characters/{cid}/roll"), json=body, headers=table.seats[who]
    )
    assert answer.status_code == code, answer.text
    return answer.json()


def test_the_game_master_cannot_set_what_enters_a_players_dice(table: Table) -> None:
    cid = table.character("player")
    seed = _server_seed(table)
    wanted = [[8, 1], [6, 1]]
    chosen = next(
        f"gm{n}" for n in range(100_000) if _faces(seed, f"gm{n}", [8, 6]) == wanted
    )  # a table-wide value the game master would like every roll to use
    put = table.client.put(
        table.url("/dice/client-seed"), json={"client_seed": chosen}, headers=table.seats["gm"]
    )
    assert put.status_code in (404, 405)
    for n in range(3):  # burning whatever the game master can before the player rolls
        table.roll("gm", cid, "self")
        mine = secrets.token_hex(16)
        rolled = table.roll("player", cid, dice=table.contribution(mine))
        assert rolled["dice"]["contribution"] == mine
        assert rolled["record"]["draws"] == _faces(seed, mine, [8, 6]), n


def test_a_contribution_is_refused_under_another_commitment_or_twice(table: Table) -> None:
    cid = table.character("player")
    early = table.contribution()
    table.reveal()
    body = {"form": {"skill": "Force"}, "dice": early}
    refused = _roll(table, "player", cid, body, 409)
    assert "re-committed" in refused["detail"]
    fresh = table.contribution()
    _roll(table, "player", cid, {"form": {"skill": "Force"}, "dice": fresh})
    again = _roll(table, "player", cid, {"form": {"skill": "Force"}, "dice": fresh}, 409)
    assert "already used" in again["detail"]
    other = _roll(table, "other", cid, {"form": {"skill": "Force"}, "dice": fresh}, 403)
    assert other["error"] == "forbidden"


def test_a_roll_without_a_contribution_is_marked_as_the_servers_choice(
    table: Table, tmp_path: Path
) -> None:
    cid = table.character("player")
    rolled = _roll(table, "player", cid, {"form": {"skill": "Force"}})
    assert rolled["dice"]["server_chosen"] is True
    assert len(rolled["dice"]["contribution"]) == 32
    followed = table.client.post(
        table.url(f"/entries/{rolled['id']}/actions/push"),
        json={"params": {}},
        headers=table.seats["player"],
    )
    if followed.status_code == 201:
        assert followed.json()["dice"]["server_chosen"] is True
    table.reveal()
    verdict = verify(table.export("observer"), tmp_path)
    assert verdict.code == 0, verdict.problems
    assert "server-chosen: " in verdict.out


def test_a_malformed_contribution_is_refused_naming_its_field(client: AppClient) -> None:
    from .conftest import open_table

    table = open_table(client)
    cid = table.character("player")
    for bad in ("xyz", "AB" * 16, "ab" * 8, "ab" * 40, 7):
        body = {"form": {"skill": "Force"}, "dice": {"contribution": bad, "commitment": "0" * 64}}
        answer = _roll(table, "player", cid, body, 422)
        assert "contribution" in str(answer["detail"])
    page = client.post(
        f"/t/{table.id}/c/{cid}/roll",
        data={"skill": "Force", "contribution": "xyz", "commitment": table.commitment()},
        headers=table.seats["player"] | {"Sec-Fetch-Site": "same-origin"},
    )
    assert page.status_code == 400
