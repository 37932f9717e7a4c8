"""SQLite's WAL checkpoints run in the store's own thread, not in a committing write
(``store/checkpoints``, issue 13)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from rulebound.store import NewEntry, SqlStore
from rulebound.store.checkpoints import BACKSTOP

from .conftest import new_table


def _in_database_file(path: Path) -> int | None:
    """The log's rows the database file itself holds, its WAL ignored (``immutable``).

    An immutable reader takes no lock, so it can read the file while a checkpoint is
    writing it and see a torn page ("malformed"); that is None, "not yet", and the
    file's soundness is checked once the store has closed.
    """
    try:
        with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as conn:
            return int(conn.execute("SELECT count(*) FROM log_entries").fetchone()[0])
    except sqlite3.DatabaseError:
        return None


def _wait_for(test: Callable[[], object], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.02)
    return False


def test_committed_rows_reach_the_database_file_without_a_commit_checkpointing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.sqlite3"
    store = SqlStore(f"sqlite:///{path}")
    try:
        with store.engine.connect() as conn:  # a commit checkpoints only past the backstop
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == BACKSTOP
        table, gm = new_table(store)
        for n in range(50):
            store.append(NewEntry(table.id, "talk", "public", gm.id, f"Gina: {n}"))
        checkpoints = store.checkpoints
        assert checkpoints is not None
        assert _wait_for(lambda: _in_database_file(path) == 51), _in_database_file(path)
        assert checkpoints.done >= 1
    finally:
        store.close()
    assert store.checkpoints is not None
    assert store.checkpoints._thread is not None
    assert not store.checkpoints._thread.is_alive()
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("SELECT count(*) FROM log_entries").fetchone() == (51,)


def test_a_store_that_writes_nothing_starts_no_thread(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'idle.sqlite3'}")  # its migrations ran
    try:
        assert store.checkpoints is not None
        assert store.checkpoints._thread is None
    finally:
        store.close()


def test_an_in_memory_database_has_no_checkpoints() -> None:
    store = SqlStore("sqlite://")
    try:
        assert store.checkpoints is None
        table, gm = new_table(store)
        store.append(NewEntry(table.id, "talk", "public", gm.id, "Gina: hi"))
    finally:
        store.close()
