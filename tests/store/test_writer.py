"""The writer's group commit: what waits is written in one transaction, a refused write is
refused alone, and nothing is answered before its commit."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from sqlalchemy import event

from rulebound.store import (
    Conflict,
    Contribution,
    Dice,
    LogEntry,
    NewEntry,
    NotFound,
    Scope,
    SheetChange,
    SqlStore,
    Staged,
    Stale,
)
from rulebound.store.writer import MAX_BATCH, Batch
from rulebound.trust.chain import GENESIS

from .conftest import character, new_table


@pytest.fixture
def store(db_url: str) -> Iterator[SqlStore]:
    """A store with one writer thread (PostgreSQL's default is several): its batches are
    exactly what was queued while the one before it ran."""
    opened = SqlStore(db_url, writers=1)
    yield opened
    opened.close()


@contextmanager
def held(store: SqlStore) -> Iterator[threading.Event]:
    """The writer busy in a transaction until the event is set: what is queued meanwhile
    waits for the next batch."""
    release = threading.Event()
    started = threading.Event()

    def hold(_batch: Batch) -> Callable[[], None]:
        started.set()
        release.wait(30)
        return lambda: None

    with ThreadPoolExecutor(1) as pool:
        holder = pool.submit(store.writer.run, hold)
        assert started.wait(10)
        try:
            yield release
        finally:
            release.set()
            holder.result(10)


def commits(store: SqlStore) -> list[int]:
    """A counter of the store's committed transactions (each batch is one)."""
    counted = [0]

    def count(_conn: Any) -> None:
        counted[0] += 1

    event.listen(store.engine, "commit", count)
    return counted


def note(table_id: int, text: str, parent: int | None = None) -> NewEntry:
    return NewEntry(table_id, "note", "public", None, text, parent_id=parent)


def queued(
    store: SqlStore, pool: ThreadPoolExecutor, work: list[Callable[[], Any]]
) -> list[Future[Any]]:
    """Submit each write from a thread of its own, in order: each is in the queue before the
    next is submitted."""
    futures = []
    pause = threading.Event()
    for write in work:
        before = store.writer.waiting
        futures.append(pool.submit(write))
        for _ in range(1000):
            if store.writer.waiting > before:
                break
            pause.wait(0.005)
        assert store.writer.waiting > before
    return futures


def test_what_waits_is_written_in_one_transaction_of_at_most_max_batch(store: SqlStore) -> None:
    table, _ = new_table(store)
    counted = commits(store)
    count = MAX_BATCH + 5
    with ThreadPoolExecutor(count) as pool:
        with held(store):
            start = counted[0]
            futures = queued(
                store, pool, [partial(store.append, note(table.id, f"n{n}")) for n in range(count)]
            )
            assert not any(f.done() for f in futures)  # nothing answered before its commit
        written = [f.result(10) for f in futures]
    assert counted[0] - start == 1 + 2  # the held transaction, then MAX_BATCH and the rest
    seqs = sorted(e.seq for e in written)
    assert seqs == list(range(seqs[0], seqs[0] + count))  # one chain, no gap
    log = store.log(table.id)
    for before, after in itertools.pairwise(log):
        assert after.prev_hash == before.hash
    assert log[0].prev_hash == GENESIS


def test_a_refused_write_is_refused_alone_and_the_others_commit(store: SqlStore) -> None:
    table, _ = new_table(store)
    with ThreadPoolExecutor(4) as pool:
        with held(store):
            futures = queued(
                store,
                pool,
                [
                    lambda: store.append(note(table.id, "first")),
                    lambda: store.append(note(999_999, "no such table")),
                    lambda: store.append(note(table.id, "third")),
                ],
            )
        first, refused, third = futures
        with pytest.raises(NotFound):
            refused.result(10)
        entries = [first.result(10), third.result(10)]
    assert [e.summary for e in entries] == ["first", "third"]
    assert [e.seq for e in entries] == [2, 3]
    assert [e.summary for e in store.log(table.id)] == ["open", "first", "third"]


def test_a_second_follow_up_in_the_same_batch_is_a_conflict_and_the_rest_commit(
    store: SqlStore,
) -> None:
    """Two follow-ups of one result reach the writer together: the unique index refuses the
    batch at its insert, each write runs again alone, and only the second is refused."""
    table, _ = new_table(store)
    parent = store.append(note(table.id, "a roll"))
    with ThreadPoolExecutor(4) as pool:
        with held(store):
            futures = queued(
                store,
                pool,
                [
                    lambda: store.append(note(table.id, "push", parent.id)),
                    lambda: store.append(note(table.id, "unrelated")),
                    lambda: store.append(note(table.id, "push again", parent.id)),
                ],
            )
        push, unrelated, again = futures
        assert push.result(10).parent_id == parent.id
        assert unrelated.result(10).summary == "unrelated"
        with pytest.raises(Conflict, match="already followed up"):
            again.result(10)
    assert [e.summary for e in store.log(table.id)] == ["open", "a roll", "push", "unrelated"]


def poison(store: SqlStore) -> None:
    """Inserting an entry summed up "poison" fails, as a full disk would fail it."""
    with store.engine.begin() as conn:
        if store.sqlite:
            conn.exec_driver_sql(
                "CREATE TRIGGER poison BEFORE INSERT ON log_entries WHEN NEW.summary = 'poison'"
                " BEGIN SELECT RAISE(ABORT, 'poisoned'); END"
            )
            return
        conn.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION poison() RETURNS trigger AS $$ BEGIN"
            " IF NEW.summary = 'poison' THEN RAISE EXCEPTION 'poisoned'"
            " USING ERRCODE = '53100'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql"
        )
        conn.exec_driver_sql(
            "CREATE TRIGGER poison BEFORE INSERT ON log_entries"
            " FOR EACH ROW EXECUTE FUNCTION poison()"
        )


def unpoison(store: SqlStore) -> None:
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            "DROP TRIGGER IF EXISTS poison" + ("" if store.sqlite else " ON log_entries")
        )


def test_a_batch_whose_insert_fails_runs_each_write_alone_and_acknowledges_only_the_committed(
    store: SqlStore,
) -> None:
    """A failure the batch cannot pin on one write (its one insert) rolls it back: each write
    runs again alone, the poisoned one fails, and the others commit."""
    table, _ = new_table(store)
    poison(store)
    try:
        with ThreadPoolExecutor(3) as pool:
            with held(store):
                futures = queued(
                    store,
                    pool,
                    [
                        lambda: store.append(note(table.id, "before")),
                        lambda: store.append(note(table.id, "poison")),
                        lambda: store.append(note(table.id, "after")),
                    ],
                )
            before, poisoned, after = futures
            with pytest.raises(Exception) as failed:  # noqa: PT011 (either, by backend)
                poisoned.result(10)
            # SQLite reports a trigger's abort as a broken constraint
            assert isinstance(failed.value, Conflict) or "poisoned" in str(failed.value)
            acknowledged = [before.result(10), after.result(10)]
    finally:
        unpoison(store)
    logged = store.log(table.id)
    assert [e.summary for e in logged] == ["open", "before", "after"]
    assert [(e.id, e.seq) for e in acknowledged] == [(e.id, e.seq) for e in logged[1:]]


def test_a_rotation_in_the_middle_of_a_batch_reseeds_the_plays_after_it(store: SqlStore) -> None:
    """A play computed under the old seed is recomputed under the new one when a rotation
    lands before it in the same batch; a contribution made under the old commitment is
    refused openly."""
    table, gm = new_table(store)
    old = store.commitment(table.id)

    def build(dice: Dice) -> Staged:
        return Staged(NewEntry(table.id, "roll", "public", gm.id, dice.commitment))

    def rotate() -> LogEntry:
        return store.rotate_seed(
            table.id, lambda _old, _new: NewEntry(table.id, "seed", "public", gm.id, "rotated")
        )

    with ThreadPoolExecutor(4) as pool:
        with held(store):
            futures = queued(
                store,
                pool,
                [
                    lambda: store.append_drawn(table.id, build),
                    rotate,
                    lambda: store.append_drawn(table.id, build),
                    lambda: store.append_drawn(table.id, build, Contribution("ab" * 16, old)),
                ],
            )
        before, rotated, after, stale = futures
        assert rotated.result(10).summary == "rotated"
        new = store.commitment(table.id)
        assert new != old
        assert before.result(10).summary == old == before.result(10).commitment
        assert after.result(10).summary == new == after.result(10).commitment
        with pytest.raises(Conflict, match="re-committed"):
            stale.result(10)


def test_a_play_from_a_sheet_changed_since_is_refused_stale(store: SqlStore) -> None:
    """A play names the sheet versions it read: one that changed meanwhile (by a write this
    process did not see coming) refuses the play, so it is computed again."""
    table, _ = new_table(store)
    row = character(store, table.id, None, {"name": "Ana", "damage": 0})
    store.append(
        NewEntry(table.id, "sheet", "public", None, "hit", row.id),
        [SheetChange.of(row, dict(row.sheet, damage=1))],
    )
    with pytest.raises(Stale):
        store.append(
            NewEntry(table.id, "roll", "public", None, "from the old sheet", row.id),
            read=[(row.id, row.stored_version)],
        )
    fresh = store.character(table.id, row.id)
    rolled = store.append(
        NewEntry(table.id, "roll", "public", None, "from the fresh sheet", row.id),
        read=[(fresh.id, fresh.stored_version)],
    )
    assert rolled.summary == "from the fresh sheet"
    shown = store.entries(table.id, Scope(0, True), after=0)
    assert [e.summary for e in shown][-2:] == ["hit", "from the fresh sheet"]


def test_a_batch_reads_the_versions_its_plays_read_in_one_statement(store: SqlStore) -> None:
    """Plays from several sheets waiting together cost one read of their versions, not one
    each; a play computed from a sheet that an earlier write of its batch changed is still
    refused stale, and the rest of the batch commits."""
    table, _ = new_table(store)
    rows = [character(store, table.id, None, {"name": f"C{n}", "damage": 0}) for n in range(4)]
    versions: list[str] = []

    def seen(_c: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("SELECT characters.id, characters.version"):
            versions.append(statement)

    def played(n: int) -> LogEntry:
        return store.append(
            NewEntry(table.id, "roll", "public", None, f"r{n}", rows[n].id),
            read=[(rows[n].id, rows[n].stored_version)],
        )

    def hit() -> LogEntry:
        return store.append(
            NewEntry(table.id, "sheet", "public", None, "hit", rows[0].id),
            [SheetChange.of(rows[0], dict(rows[0].sheet, damage=1))],
        )

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        with ThreadPoolExecutor(4) as pool:
            with held(store):
                plays = queued(store, pool, [partial(played, n) for n in range(4)])
            assert [f.result(10).summary for f in plays] == ["r0", "r1", "r2", "r3"]
            assert len(versions) == 1, versions
            with held(store):
                first, stale = queued(store, pool, [hit, partial(played, 0)])
            assert first.result(10).summary == "hit"
            with pytest.raises(Stale):
                stale.result(10)
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)


def test_a_batch_inserts_its_entries_in_one_statement(store: SqlStore) -> None:
    """The entries of a batch, at two tables, go in with one INSERT, not one each (SQLite
    cannot promise RETURNING's order, so each id is matched to its row by table and seq),
    and each answered entry is the row stored under its id."""
    tables = [new_table(store, name)[0].id for name in ("A", "B")]
    inserts: list[str] = []

    def seen(_c: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("INSERT INTO log_entries"):
            inserts.append(statement)

    work: list[Callable[[], Any]] = [
        partial(store.append, note(tables[n % 2], f"n{n}")) for n in range(6)
    ]
    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        with ThreadPoolExecutor(6) as pool:
            with held(store):
                plays = queued(store, pool, work)
            answered = [f.result(10) for f in plays]
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
    assert len(inserts) == 1, inserts
    assert [e.summary for e in answered] == [f"n{n}" for n in range(6)]
    for entry in answered:
        stored = store.entry(entry.table_id, entry.id)
        assert (stored.table_id, stored.seq, stored.summary, stored.hash) == (
            entry.table_id,
            entry.seq,
            entry.summary,
            entry.hash,
        )


def test_batches_on_several_connections_lock_their_tables_in_one_order(db_url: str) -> None:
    """PostgreSQL's writer threads each hold a connection: a batch takes every table lock
    its writes need at its start, in id order, so two batches writing to the same tables
    in opposite orders never deadlock (PostgreSQL would kill one and its writes would run
    again alone)."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer")
    store = SqlStore(db_url, writers=4)
    try:
        tables = [new_table(store, name)[0].id for name in ("A", "B", "C")]

        def deadlocks() -> int:
            with store.engine.connect() as conn:
                conn.exec_driver_sql("SELECT pg_stat_clear_snapshot()")
                found = conn.exec_driver_sql(
                    "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"
                ).scalar()
            return int(found or 0)

        before = deadlocks()
        orders = [tables, tables[::-1], tables[1:] + tables[:1]]
        work = [
            partial(store.append, note(table, f"{n}:{table}"))
            for n in range(60)
            for table in orders[n % 3]
        ]
        with ThreadPoolExecutor(24) as pool:
            done = [f.result(30) for f in [pool.submit(w) for w in work]]
        assert len(done) == len(work)
        pause = threading.Event()
        pause.wait(1.5)  # PostgreSQL's statistics are flushed within a second
        assert deadlocks() == before
        for table in tables:
            log = store.log(table)
            assert [e.seq for e in log] == list(range(1, len(log) + 1))
    finally:
        store.close()
