"""Group commit: every write of a process goes through one queue, and what waits is written
together.

A write is a function of a ``Batch`` (a write transaction) that returns what gives its
answer once the transaction has committed. Writer threads (one per database connection
they hold: one for SQLite, which has one writer at a time anyway, a few for PostgreSQL)
each take every write waiting in the queue, up to ``MAX_BATCH``, and run them in one
transaction, in the order they came: each table's lock is taken once, each table's chain
end is read once and then advanced in Python as entries are sealed onto it
(``trust.chain``), the versions of the sheets the writes declare they read are read in one
statement, the entries go in with one multi-row insert, and one commit ends it.
Only then is any write answered.

A write that raises is refused alone: the transaction is rolled back, that write gets its
error (the writes before it in the batch ran first, as they would have one at a time, so
its refusal is what it would have been), and the others run again as a batch of their own.
A failure the batch cannot pin on one write (the insert, or the commit) rolls it back and
runs each write again on its own, so each is answered with its own outcome. A write is
therefore run again after a rollback: it must be a function of the database it reads, not
of an earlier run.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine, bindparam, select

from rulebound.store.base import LogEntry, Stale
from rulebound.store.cache import Part
from rulebound.store.engine import WRITE_OPTION
from rulebound.store.schema import characters, game_tables, log_entries
from rulebound.store.sealing import Head, Row, read_head

T = TypeVar("T")
Write = Callable[["Batch"], Callable[[], T]]
"""A write: run inside the batch's transaction, it returns what answers it after the commit."""

MAX_BATCH = 64
"""Writes one transaction takes at most: a batch that fails is run again, so it stays small."""

log = logging.getLogger("rulebound.store")

LOCK_TABLES = (
    select(game_tables.c.id)
    .where(game_tables.c.id.in_(bindparam("tables", expanding=True)))
    .order_by(game_tables.c.id)
    .with_for_update()
)
VERSIONS = select(characters.c.id, characters.c.version).where(
    characters.c.id.in_(bindparam("ids", expanding=True))
)
INSERT = log_entries.insert().returning(log_entries.c.id, log_entries.c.table_id, log_entries.c.seq)
"""Each id comes back with its row's table and seq, which name the row: SQLite does not
promise RETURNING's order, and SQLAlchemy would insert one row per statement to keep it."""


@dataclass(eq=False)
class Appended:
    """An entry sealed in a batch: its row, and its id once the batch has inserted it."""

    row: Row
    after_insert: Callable[[Connection, int], None] | None = None
    entry: LogEntry | None = None

    def logged(self) -> LogEntry:
        assert self.entry is not None, "an entry is answered only once its batch committed"
        return self.entry


@dataclass(eq=False)
class Batch:
    """One write transaction of several writes: the tables it holds, their chains' ends."""

    conn: Connection
    sqlite: bool
    _heads: dict[int, Head] = field(default_factory=dict)
    _locked: set[int] = field(default_factory=set)
    _sealed: list[Appended] = field(default_factory=list)
    _versions: dict[int, int] = field(default_factory=dict)
    committed: list[LogEntry] = field(default_factory=list)
    """The entries this batch logged, in order (filled by ``insert``)."""
    changed: list[tuple[int, tuple[Part, ...]]] = field(default_factory=list)
    """Tables this batch changed without logging it, and what of each (for the caches)."""

    def lock(self, tables: Iterable[int]) -> None:
        """Hold these tables until the commit (PostgreSQL: their rows, in id order, so two
        batches never wait on each other; SQLite's ``BEGIN IMMEDIATE`` holds them all)."""
        wanted = sorted(set(tables) - self._locked)
        if wanted and not self.sqlite:
            self.conn.execute(LOCK_TABLES, {"tables": wanted})
        self._locked.update(wanted)

    def head(self, table_id: int) -> Head:
        """The table's chain end and unrevealed seed, read once per batch under its lock."""
        found = self._heads.get(table_id)
        if found is None:
            self.lock([table_id])
            found = self._heads[table_id] = read_head(self.conn, table_id)
        return found

    def moved(self, table_id: int, head: Head) -> None:
        """The table's chain end or seed changed in this batch (a write that did it says so)."""
        self._heads[table_id] = head

    def read_versions(self, character_ids: Iterable[int]) -> None:
        """Read the versions of these sheets now, in one statement, unless already read."""
        missing = sorted({cid for cid in character_ids if cid not in self._versions})
        if missing:
            for cid, version in self.conn.execute(VERSIONS, {"ids": missing}):
                self._versions[int(cid)] = int(version)

    def check_versions(self, read: Sequence[tuple[int, int]]) -> None:
        """Refuse (``Stale``) a play computed from a sheet that has changed since: each
        (character, version) it read must still hold. Versions are read once per batch."""
        self.read_versions(cid for cid, _ in read)
        for cid, version in read:
            if self._versions.get(cid) != version:
                raise Stale(cid)

    def changed_version(self, character_id: int, version: int) -> None:
        """A write in this batch moved a character to ``version``."""
        self._versions[character_id] = version

    def seal(self, table_id: int, make: Callable[[Head], tuple[Row, Head]], **kw: Any) -> Appended:
        """Seal a row onto the table's chain end (``make``: the row and the new end); it is
        inserted with the batch's other entries."""
        row, head = make(self.head(table_id))
        self._heads[table_id] = head
        appended = Appended(row, **kw)
        self._sealed.append(appended)
        return appended

    def pending(self, table_id: int) -> list[Row]:
        """The rows of ``table_id`` this batch has sealed and not yet inserted, in order."""
        return [
            a.row for a in self._sealed if a.entry is None and a.row.values["table_id"] == table_id
        ]

    def insert(self) -> None:
        """Insert every entry sealed since the last insert, in one statement."""
        pending = [a for a in self._sealed if a.entry is None]
        if not pending:
            return
        returned = self.conn.execute(INSERT, [a.row.values for a in pending])
        ids = {(table_id, seq): entry_id for entry_id, table_id, seq in returned}
        for appended in pending:
            entry_id = ids[appended.row.values["table_id"], appended.row.values["seq"]]
            appended.entry = appended.row.written(int(entry_id))
            if appended.after_insert is not None:
                appended.after_insert(self.conn, int(entry_id))
            self.committed.append(appended.entry)


@dataclass(eq=False)
class _Job(Generic[T]):
    write: Write[T]
    tables: tuple[int, ...] = ()
    characters: tuple[int, ...] = ()
    future: Future[T] = field(default_factory=Future)


Hook = Callable[[Batch], None]


class Writer:
    """The writer threads of one store, and the queue they drain."""

    def __init__(
        self,
        engine: Engine,
        *,
        threads: int,
        before_commit: Hook,
        after_commit: Hook,
    ) -> None:
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self._before_commit = before_commit
        self._after_commit = after_commit
        self._queue: queue.SimpleQueue[_Job[Any] | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._run, name=f"rulebound-writer-{i}", daemon=True)
            for i in range(threads)
        ]
        self._closed = False
        self._local = threading.local()
        for thread in self._threads:
            thread.start()

    @property
    def threads(self) -> int:
        """How many transactions may be under way at once."""
        return len(self._threads)

    @property
    def waiting(self) -> int:
        """Writes queued and not yet taken into a batch."""
        return self._queue.qsize()

    def run(self, write: Write[T], tables: Iterable[int] = (), characters: Iterable[int] = ()) -> T:
        """Queue ``write`` and wait for its answer (raised: its refusal, or the batch's
        failure; nothing of it was committed then). ``tables``: the tables whose locks it
        takes; the batch takes all of its writes' locks at its start, in id order, so two
        batches on two connections never wait on each other. ``characters``: the sheets
        whose versions it checks, as far as known when it is queued; the batch reads all
        of its writes' in one statement once it holds their tables."""
        if getattr(self._local, "writer", False):
            raise RuntimeError("a write cannot wait for another write from a writer thread")
        if self._closed:
            raise RuntimeError("the store is closed")
        job: _Job[T] = _Job(write, tuple(tables), tuple(characters))
        self._queue.put(job)
        return job.future.result()

    def close(self) -> None:
        """Answer what is queued, then stop the threads."""
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join(10)

    def _run(self) -> None:
        self._local.writer = True
        while True:
            first = self._queue.get()
            if first is None:
                return
            jobs: list[_Job[Any]] = [first]
            stop = False
            while len(jobs) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                jobs.append(more)
            try:
                self._written(jobs)
            except BaseException as exc:  # never leave a writer waiting for an answer
                log.exception("the writer failed")
                for job in jobs:
                    if not job.future.done():
                        job.future.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
            if stop:
                return

    def _written(self, jobs: list[_Job[Any]]) -> None:
        """Run ``jobs`` as one batch, or as several where some are refused."""
        while jobs:
            try:
                batch, answers = self._transaction(jobs)
            except _Refused as refused:
                jobs[refused.index].future.set_exception(refused.error)
                jobs = jobs[: refused.index] + jobs[refused.index + 1 :]
                continue
            except Exception as exc:
                if len(jobs) == 1:
                    jobs[0].future.set_exception(exc)
                else:  # not one write's: each again on its own, for its own answer
                    for job in jobs:
                        self._written([job])
                return
            self._answer(batch, jobs, answers)
            return

    def _transaction(self, jobs: Sequence[_Job[Any]]) -> tuple[Batch, list[Callable[[], Any]]]:
        with self.engine.connect() as conn:
            conn.execution_options(**{WRITE_OPTION: True})
            with conn.begin():
                batch = Batch(conn, self.sqlite)
                batch.lock(table for job in jobs for table in job.tables)
                batch.read_versions(cid for job in jobs for cid in job.characters)
                answers = []
                for index, job in enumerate(jobs):
                    try:
                        answers.append(job.write(batch))
                    except Exception as exc:
                        raise _Refused(index, exc) from exc
                batch.insert()
                self._before_commit(batch)
        return batch, answers

    def _answer(
        self, batch: Batch, jobs: Sequence[_Job[Any]], answers: list[Callable[[], Any]]
    ) -> None:
        try:
            self._after_commit(batch)
        except Exception:  # the writes are committed: a listener's failure is only logged
            log.exception("after a commit")
        for job, answer in zip(jobs, answers, strict=True):
            try:
                job.future.set_result(answer())
            except Exception as exc:
                job.future.set_exception(exc)


class _Refused(Exception):
    def __init__(self, index: int, error: Exception) -> None:
        self.index = index
        self.error = error
