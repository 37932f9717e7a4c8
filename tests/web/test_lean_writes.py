"""A roll is lean (issue 13): a handful of statements, one write transaction, nothing read
back after the insert, lookups served from the cache."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from rulebound.store import SqlStore

from .conftest import Party

ROLL = {"form": {"skill": "Force"}, "privacy": "public"}


def _second_roll(party: Party) -> tuple[SqlStore, Any, list[str]]:
    """A character's second roll (the first fills the caches), and the SQL it ran."""
    store: SqlStore = party.client.app.state.store  # type: ignore[attr-defined]
    made = party.client.post(party.url("/characters"), json={"name": "Ana"}, headers=party.player)
    path = party.url(f"/characters/{made.json()['id']}/roll")
    assert party.client.post(path, json=ROLL, headers=party.player).status_code == 201
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        rolled = party.client.post(path, json=ROLL, headers=party.player)
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
    assert rolled.status_code == 201, rolled.text
    return store, rolled, seen


APPEND = "SELECT * FROM rulebound_append("
"""PostgreSQL's append, one statement that inserts the entry (migration 0008)."""


def test_a_roll_runs_at_most_six_statements_and_reads_nothing_back(party: Party) -> None:
    store, rolled, seen = _second_roll(party)
    assert len(seen) <= 6, seen
    writes = [s.startswith("INSERT" if store.sqlite else APPEND) for s in seen]
    assert sum(writes) == 1
    after = seen[writes.index(True) + 1 :]
    assert not any("FROM log_entries" in s or "FROM members" in s for s in after), after
    assert not any(s.startswith("SELECT game_tables.id, game_tables.name") for s in seen)
    assert rolled.json()["seq"] == store.last_seq(party.table_id)
    stored = store.entry(party.table_id, rolled.json()["id"])
    assert rolled.json()["card"] == stored.card
    assert rolled.json()["created_at"] == stored.created_at.isoformat()


def test_a_roll_takes_the_sheet_from_the_cache_and_writes_in_four_statements(
    party: Party,
) -> None:
    """Once the roller's view of the character is cached, a roll reads nothing before its
    write transaction: on SQLite ``BEGIN IMMEDIATE``, the chain's end, the insert; on
    PostgreSQL one statement, ``rulebound_append`` (the lock, the chain's end, the insert
    and the notice are its own, inside the server)."""
    store, _, seen = _second_roll(party)
    assert not any("FROM characters" in s for s in seen), seen
    if store.sqlite:
        assert len(seen) <= 4, seen
        assert seen[0].startswith("BEGIN IMMEDIATE"), seen
    else:
        assert len(seen) == 1, seen
        assert seen[0].startswith(APPEND), seen
