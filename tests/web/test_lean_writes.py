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
    store: SqlStore = party.client.app.state.store
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


def test_a_roll_runs_at_most_six_statements_and_reads_nothing_back(party: Party) -> None:
    """One write transaction: the table's lock (PostgreSQL), the chain's end, the check that
    the sheet it rolled from is still current, the insert (and PostgreSQL's notice); nothing
    is read back after the insert."""
    store, rolled, seen = _second_roll(party)
    assert len(seen) <= 6, seen
    writes = [s.startswith("INSERT INTO log_entries") for s in seen]
    assert sum(writes) == 1
    after = seen[writes.index(True) + 1 :]
    assert all(s.startswith("SELECT pg_notify") for s in after), after
    assert not any(s.startswith("SELECT game_tables.id, game_tables.name") for s in seen)
    assert rolled.json()["seq"] == store.last_seq(party.table_id)
    stored = store.entry(party.table_id, rolled.json()["id"])
    assert rolled.json()["card"] == stored.card
    assert rolled.json()["created_at"] == stored.created_at.isoformat()


def test_a_roll_takes_the_sheet_from_the_cache_and_checks_only_its_version(party: Party) -> None:
    """Once the roller's view of the character is cached, a roll reads no sheet and no seat:
    it only checks, in its write transaction, that the character is still at the version it
    rolled from."""
    store, _, seen = _second_roll(party)
    assert not any("characters.sheet" in s or "FROM members" in s for s in seen), seen
    versions = [s for s in seen if "FROM characters" in s]
    assert versions == [s for s in seen if s.startswith("SELECT characters.id, characters.version")]
    assert len(versions) == 1, seen
    if store.sqlite:
        assert seen[0].startswith("BEGIN IMMEDIATE"), seen
