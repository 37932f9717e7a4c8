"""Migration 0002 backfills the chain and the seeds of a database written before it.

Pass criteria: on SQLite and PostgreSQL, a log written at revision 0001 is
chained in seq order after the upgrade (each table from the genesis hash), each
existing table gets one committed seed, new plays extend the chain with
committed dice, and the export verifies (the old plays counted as uncommitted);
downgrading to 0001 and upgrading again works.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import text

from rulebound.store import Dice, NewEntry, Scope, SqlStore, Staged
from rulebound.store.engine import make_engine
from rulebound.store.migrate import alembic_config, upgrade
from rulebound.store.testing import reset_postgres
from rulebound.trust.chain import GENESIS
from rulebound.web.app import create_app

from .conftest import Table, bearer, trust_settings, verify


def _old_database(url: str) -> list[int]:
    """Two tables and a few entries (one roll with draws, one follow-up), written at 0001."""
    if not url.startswith("sqlite"):
        reset_postgres(url)
    engine = make_engine(url)
    upgrade(engine, "0001")
    now = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    new_table = text(
        "INSERT INTO game_tables (name, ruleset, variants, gm_token, player_token, created_at)"
        " VALUES (:name, 'empty-reach', '{}', :gm, :player, :now)"
    )
    new_entry = text(
        "INSERT INTO log_entries (table_id, seq, kind, privacy, record, summary, changed,"
        " created_at, parent_id) VALUES (:t, :seq, :kind, :privacy, :record, :summary, '[]',"
        " :now, :parent)"
    )
    last = text("SELECT max(id) FROM log_entries")
    with engine.connect().execution_options(rulebound_write=True) as conn, conn.begin():
        ids = []
        for name in ("Old one", "Old two"):
            tokens = {"gm": f"{name} gm", "player": f"{name} player"}
            conn.execute(new_table, {"name": name, "now": now} | tokens)
            ids.append(int(conn.execute(text("SELECT max(id) FROM game_tables")).scalar_one()))
        one, two = ids
        rows = [
            (one, 1, "note", "public", {}, "opened", False),
            (one, 2, "roll", "gm", {"kind": "roll", "draws": [[8, 3], [6, 6]]}, "Ana: x", False),
            (one, 3, "follow-up", "gm", {"kind": "push", "draws": [[8, 5]]}, "Ana: y", True),
            (two, 1, "note", "public", {}, "ünïcode ✓", False),
        ]
        for table_id, seq, kind, privacy, record, summary, follows in rows:
            parent = conn.execute(last).scalar() if follows else None
            values = {"t": table_id, "seq": seq, "kind": kind, "privacy": privacy}
            values |= {"record": json.dumps(record), "summary": summary, "now": now}
            conn.execute(new_entry, values | {"parent": parent})
    engine.dispose()
    return ids


def _assert_chained(store: SqlStore, table_id: int) -> None:
    prev = GENESIS
    for entry in store.log(table_id):
        assert entry.prev_hash == prev
        assert len(entry.salt) == 64
        prev = entry.hash
    assert store.log(table_id)


def test_the_upgrade_chains_old_logs_and_commits_a_seed(db_url: str, tmp_path: Path) -> None:
    tables = _old_database(db_url)
    store = SqlStore(db_url)
    try:
        for table_id in tables:
            _assert_chained(store, table_id)
            assert len(store.seeds(table_id)) == 1
            assert store.fairness(table_id).nonce == 0
        one, two = tables

        def play(dice: Dice) -> Staged:
            record = {"draws": [[6, dice.source().draw(6)]]}
            return NewEntry(one, "roll", "public", None, "new", record=record), []

        logged = store.append_drawn(one, play)
        assert (logged.seq, logged.nonce) == (4, 1)
        _assert_chained(store, one)
        assert [e.summary for e in store.entries(two, Scope(0, True), after=0)] == ["ünïcode ✓"]
    finally:
        store.close()


def test_the_migrated_log_exports_and_verifies(db_url: str, tmp_path: Path) -> None:
    one, _ = _old_database(db_url)
    with TestClient(create_app(trust_settings(db_url))) as client:
        store: SqlStore = client.app.state.store  # type: ignore[attr-defined]
        _, token = store.add_member(one, "gm", "Gina")
        table = Table(client, one, {"gm": bearer(token)})
        doc = table.export("gm")
    assert [e["seq"] for e in doc["entries"]] == [1, 2, 3]
    strict = verify(doc, tmp_path)
    assert (strict.code, strict.first) == (1, 2)
    assert "not drawn from a committed seed" in strict.problems[0]["detail"]
    allowed = verify(doc, tmp_path, "--allow-uncommitted")
    assert allowed.code == 0
    assert "uncommitted: 2 plays" in allowed.out


def test_downgrade_and_upgrade_again(db_url: str) -> None:
    tables = _old_database(db_url)
    engine = make_engine(db_url)
    upgrade(engine)
    config = alembic_config()
    with engine.connect().execution_options(rulebound_write=True) as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
        connection.commit()
    engine.dispose()
    store = SqlStore(db_url)
    try:
        for table_id in tables:
            _assert_chained(store, table_id)
            assert len(store.seeds(table_id)) == 1
    finally:
        store.close()
