"""Concurrent writers queue, never fail: threads in one process and two processes on one file."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rulebound.store import Conflict, NewEntry, Scope, SheetChange, SqlStore
from rulebound.store.testing import sqlite_url

from .conftest import character, new_table

THREADS = 6
EACH = 20


def _bump(store: SqlStore, table_id: int, char_id: int) -> int:
    """Read, compute, write with the version read; retry when another writer won."""
    tries = 0
    while True:
        tries += 1
        row = store.character(table_id, char_id)
        sheet = dict(row.sheet, damage=row.sheet["damage"] + 1)
        try:
            store.append(
                NewEntry(table_id, "roll", "public", None, "hit", char_id),
                [SheetChange.of(row, sheet)],
            )
            return tries
        except Conflict:
            continue


def test_threads_never_lose_an_update_nor_break_the_sequence(store: SqlStore) -> None:
    table = new_table(store, "T", {}, observers=False)[0]
    char = character(store, table.id, None, {"name": "Ana", "damage": 0})
    with ThreadPoolExecutor(THREADS) as pool:
        jobs = [pool.submit(_bump, store, table.id, char.id) for _ in range(THREADS * EACH)]
        assert all(job.result() >= 1 for job in jobs)
    after = store.character(table.id, char.id)
    assert after.sheet["damage"] == THREADS * EACH
    assert after.version == 1 + THREADS * EACH
    seqs = [e.seq for e in store.entries(table.id, Scope(0, True), after=2, limit=1000)]
    assert seqs == list(range(3, THREADS * EACH + 3))


WRITER = textwrap.dedent(
    """
    import sys
    from rulebound.store import NewEntry, SqlStore
    store = SqlStore(sys.argv[1])
    for i in range(int(sys.argv[3])):
        store.append(NewEntry(int(sys.argv[2]), "note", "public", None, f"{sys.argv[4]}{i}"))
    store.close()
    """
)


def test_two_processes_on_one_sqlite_file_never_see_database_is_locked(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    store = SqlStore(url)
    table = new_table(store, "T", {}, observers=False)[0]
    count = 60
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, str(table.id), str(count), name],
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    errors = [proc.communicate(timeout=120)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], errors
    assert not any("locked" in e for e in errors)
    seen = store.entries(table.id, Scope(0, True), after=1, limit=1000)
    assert [e.seq for e in seen] == list(range(2, 2 * count + 2))
    assert sorted(e.summary for e in seen) == sorted(f"{n}{i}" for n in "ab" for i in range(count))
    store.close()
