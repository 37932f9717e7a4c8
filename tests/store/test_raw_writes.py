"""The append through the driver (``store/rawwrite``, issue 13) writes what the SQLAlchemy
path writes: the same row, column for column (JSON text, timestamps, flags), the same
chain, and the same refusals."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from rulebound.store import Conflict, Contribution, NewEntry, NotFound, SqlStore
from rulebound.store import sql as store_sql
from rulebound.store.base import Dice, Staged
from rulebound.store.rawwrite import APPENDERS, WouldWait
from rulebound.store.schema import log_entries

from ..trust.test_chain import _recompute
from .conftest import new_table

SALTED = ("id", "hash", "salt", "prev_hash", "created_at")


def _rows(store: SqlStore, table_id: int) -> list[dict[str, Any]]:
    """Every stored column of a table's log, as the database holds it (``created_at``
    as its text on SQLite), less what differs between two runs (salts, ids, times)."""
    query = select(log_entries).where(log_entries.c.table_id == table_id)
    with store.engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(query.order_by(log_entries.c.seq))]
        if store.sqlite:
            texts = conn.exec_driver_sql(
                "SELECT typeof(created_at), length(created_at), typeof(record), typeof(card),"
                " record, card, changed FROM log_entries WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ).all()
            for row, raw in zip(rows, texts, strict=True):
                row["raw"] = tuple(raw)
    return [{k: v for k, v in row.items() if k not in SALTED} for row in rows]


def _plays(store: SqlStore, table_id: int, actor: int) -> None:
    store.append(NewEntry(table_id, "talk", "public", actor, "Gina: héllo ✓"))
    card = {"title": "Roll", "dice": [{"faces": [3, 6]}], "p": 0.1, "none": None, "ok": True}

    def build(dice: Dice) -> Staged:
        record = {"kind": "roll", "skill": "Force", "draws": [[6, 3], [6, 6]]}
        return NewEntry(table_id, "roll", "gm", actor, "a roll", None, None, record, card), []

    store.append_drawn(table_id, build)  # the first learns the seed: the general path
    store.append_drawn(table_id, build)  # the driver's
    store.append_drawn(table_id, build, Contribution("ab" * 16, store.commitment(table_id)))


def test_the_drivers_append_writes_the_row_the_general_path_writes(db_url: str) -> None:
    fast = SqlStore(db_url)
    table, gm = new_table(fast)
    _plays(fast, table.id, gm.id)
    general = SqlStore(db_url)
    other, gm2 = new_table(general)
    store_sql_raw_kind = store_sql._raw_kind
    try:
        store_sql._raw_kind = lambda *_: False
        _plays(general, other.id, gm2.id)
    finally:
        store_sql._raw_kind = store_sql_raw_kind
    mine, theirs = _rows(fast, table.id)[1:], _rows(general, other.id)[1:]  # after "open"
    for row in mine + theirs:
        row.pop("table_id")
        row.pop("actor_id")
        row.pop("commitment")
        row.pop("contribution")
    assert mine == theirs
    fast.close()
    general.close()


def test_what_the_driver_appends_is_sealed_on_the_chain_and_returned_as_stored(
    store: SqlStore,
) -> None:
    table, gm = new_table(store)
    _plays(store, table.id, gm.id)
    _recompute(table.id, store.log(table.id))  # with hashlib and canonical_json only
    returned = store.append(NewEntry(table.id, "talk", "public", gm.id, "again"))
    assert returned == store.entry(table.id, returned.id)


def test_plain_appends_take_the_drivers_path(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, gm = new_table(store)
    store.append(NewEntry(table.id, "talk", "public", gm.id, "learn nothing"))

    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("the general path was taken")

    monkeypatch.setattr(store_sql, "_append", refused)
    store.append(NewEntry(table.id, "talk", "public", gm.id, "fast"))
    assert store.last_seq(table.id) == 3


def _roll(table_id: int, actor: int) -> Callable[[Dice], Staged]:
    """A play that changes no sheet: a public roll of one fixed draw."""

    def build(dice: Dice) -> Staged:
        record = {"kind": "roll", "draws": [[6, 1]]}
        return NewEntry(table_id, "roll", "public", actor, "r", None, None, record, {}), []

    return build


def test_the_drivers_path_refuses_as_the_general_path_does(store: SqlStore) -> None:
    table, gm = new_table(store)
    with pytest.raises(NotFound):
        store.append(NewEntry(table.id + 99, "talk", "public", gm.id, "nowhere"))
    mine = Contribution("cd" * 16, store.commitment(table.id))
    build = _roll(table.id, gm.id)
    store.append_drawn(table.id, build)
    store.append_drawn(table.id, build, mine)
    seq = store.last_seq(table.id)
    with pytest.raises(Conflict, match="already used"):
        store.append_drawn(table.id, build, mine)
    assert store.last_seq(table.id) == seq  # rolled back: the table takes the next write
    store.append(NewEntry(table.id, "talk", "public", gm.id, "still fine"))
    assert store.last_seq(table.id) == seq + 1


def test_a_write_that_would_wait_says_so_at_once_and_writes_nothing(store: SqlStore) -> None:
    """``without_waiting``: a held writer lock (another thread's, another process's) or any
    write but the driver's append raises ``WouldWait`` before anything is written, never
    "database is locked"; the rules are not run for a play that could not be written."""
    table, gm = new_table(store)
    talk = NewEntry(table.id, "talk", "public", gm.id, "hi")
    built: list[Dice] = []

    def build(dice: Dice) -> Staged:
        built.append(dice)
        record = {"kind": "roll", "draws": [[6, 1]]}
        return NewEntry(table.id, "roll", "public", gm.id, "r", None, None, record, {}), []

    seq = store.last_seq(table.id)
    with store.without_waiting():
        if not store.sqlite:
            with pytest.raises(WouldWait):  # only SQLite writes without waiting
                store.append(talk)
            return
        with pytest.raises(WouldWait):
            store.append_drawn(table.id, build)  # no seed known yet: the general path
        assert built == []
    store.append_drawn(table.id, build)
    with store.without_waiting():
        store.append(talk)
        store.append_drawn(table.id, build)
        assert store.last_seq(table.id) == seq + 3
        with store._lock, pytest.raises(WouldWait):
            store.append_drawn(table.id, build)
        assert len(built) == 2
        assert store.raw.database is not None
        other = sqlite3.connect(store.raw.database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        with pytest.raises(WouldWait):
            store.append(talk)
        assert time.monotonic() - started < 1.0
        other.execute("COMMIT")
        other.close()
        with pytest.raises(WouldWait):
            store.create_character(table.id, gm.id, {"name": "Ana"}, "made")
    assert store.last_seq(table.id) == seq + 3
    store.append(talk)
    assert store.last_seq(table.id) == seq + 4


def test_a_write_whose_connection_fails_holds_no_lock_after(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection that never waits could not be opened (or its ``BEGIN`` failed): the
    write fails, and neither the store's writer lock nor that connection's is left held,
    so the next write on the event loop is not turned away for ever."""
    if not store.sqlite:
        pytest.skip("only SQLite writes without waiting")
    table, gm = new_table(store)
    talk = NewEntry(table.id, "talk", "public", gm.id, "hi")

    def unopened() -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")

    seq = store.last_seq(table.id)
    with monkeypatch.context() as patched:
        patched.setattr(store.raw, "_unwaiting", unopened)
        with store.without_waiting(), pytest.raises(sqlite3.OperationalError):
            store.append(talk)
    assert not store.raw._nowait_lock.locked()
    assert not store._lock.locked()
    with store.without_waiting():
        store.append(talk)
    assert store.last_seq(table.id) == seq + 1


def test_a_refused_write_leaves_every_pooled_connection_transactional(store: SqlStore) -> None:
    """The driver's append rolls a refusal back mid-transaction (on PostgreSQL, inside
    its pipeline): every pooled connection afterwards is still usable and not left in
    autocommit, or a later multi-statement write would commit statement by statement."""
    table, gm = new_table(store)
    mine = Contribution("ef" * 16, store.commitment(table.id))
    build = _roll(table.id, gm.id)
    store.append_drawn(table.id, build)
    store.append_drawn(table.id, build, mine)
    with pytest.raises(Conflict, match="already used"):
        store.append_drawn(table.id, build, mine)
    held = [store.engine.raw_connection() for _ in range(store.engine.pool.checkedin())]
    try:
        for fairy in held:
            if not store.sqlite:
                assert fairy.driver_connection.autocommit is False  # type: ignore[union-attr]
            cursor = fairy.cursor()
            cursor.execute("SELECT 1")
            assert cursor.fetchone()[0] == 1
    finally:
        for fairy in held:
            fairy.close()
    store.append(NewEntry(table.id, "talk", "public", gm.id, "after"))
    assert [e.summary for e in store.log(table.id)][-1] == "after"


def test_an_append_connection_the_server_dropped_is_not_used_again(store: SqlStore) -> None:
    """PostgreSQL appends on connections of their own, kept in autocommit: one the server
    dropped fails the append it was taken for (no retry: the entry might have been written)
    and is discarded, and the next append makes a new one."""
    if store.sqlite:
        pytest.skip("PostgreSQL's append connections")
    table, gm = new_table(store)
    store.append(NewEntry(table.id, "talk", "public", gm.id, "learn nothing"))
    store.append(NewEntry(table.id, "talk", "public", gm.id, "the driver's"))
    (idle,) = store.raw._idle
    assert idle.driver.autocommit is True
    with store.engine.connect() as conn:
        conn.exec_driver_sql(f"SELECT pg_terminate_backend({idle.driver.info.backend_pid})")
    time.sleep(0.3)
    seq = store.last_seq(table.id)
    with pytest.raises(OperationalError):
        store.append(NewEntry(table.id, "talk", "public", gm.id, "lost with it"))
    assert store.raw._idle == []
    store.append(NewEntry(table.id, "talk", "public", gm.id, "on a new one"))
    assert [e.summary for e in store.log(table.id)][-1] == "on a new one"
    assert store.last_seq(table.id) == seq + 1


def test_appends_at_once_share_a_bounded_set_of_connections(store: SqlStore) -> None:
    """Sixteen threads appending at once on PostgreSQL: every entry chained in turn, on at
    most ``APPENDERS`` autocommit connections (the rest waited for one)."""
    if store.sqlite:
        pytest.skip("PostgreSQL's append connections")
    table, gm = new_table(store)
    store.append(NewEntry(table.id, "talk", "public", gm.id, "learn nothing"))
    seq = store.last_seq(table.id)
    start = threading.Barrier(16)

    def talk(n: int) -> None:
        start.wait()
        for k in range(5):
            store.append(NewEntry(table.id, "talk", "public", gm.id, f"{n}.{k}"))

    threads = [threading.Thread(target=talk, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    log = store.log(table.id)
    assert [e.seq for e in log] == list(range(1, seq + 81))
    assert len({e.summary for e in log[seq:]}) == 80
    assert 1 <= len(store.raw._idle) <= APPENDERS
