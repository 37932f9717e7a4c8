"""What every part of the SQL store shares: the engine, the read cache and the writer.

Reads run on a pooled connection of the caller's thread. Writes go to the writer
(``store/writer``): a method builds a write (a function of the batch's transaction),
the writer runs it with whatever else is waiting, and answers it after the commit.
After each commit the cache drops what the batch changed and the listeners hear of it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Engine, RowMapping, Select, text
from sqlalchemy.exc import IntegrityError

from rulebound.store.base import CharacterRow, Conflict, LogEntry, Member, NotFound
from rulebound.store.cache import MISS, Cache, Part
from rulebound.store.checkpoints import Checkpoints
from rulebound.store.sealing import parts_changed
from rulebound.store.writer import Batch, Write, Writer

T = TypeVar("T")
_Row = Member | CharacterRow
"""What ``_by_ids`` reads: a row with an id."""

AppendListener = Callable[[int, int], None]
"""Called after a commit with (table id, seq): wakes the table's waiting feeds."""
EntryListener = Callable[[LogEntry], None]
ChangeListener = Callable[[int, tuple[Part, ...]], None]
"""Called after a change that logs nothing, with the table and the parts it changed."""

NOTIFY_CHANNEL = "rulebound_log"
NOTIFY = text("SELECT pg_notify(:channel, :payload)")
SQLITE_WRITERS = 1
"""SQLite has one writer at a time: one thread writes, batching what waits."""
PG_WRITERS = 2
"""PostgreSQL's writer threads per process: a second lets other tables' writes go on while
one batch waits for a table's row lock (held by another process); more split what waits
into smaller batches, each paying its own lock, reads and commit."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


WHOLE = ("character", "reveal")
"""Kinds of entries that change what every viewer sees of the table's characters."""


def _rows_of(changed: set[int]) -> Callable[[Hashable], bool]:
    """The cached keys of these characters' rows (and the table's list of them)."""

    def which(key: Hashable) -> bool:
        return key == "all" or (isinstance(key, tuple) and key[1] in changed)

    return which


class StoreBase:
    """The engine, the cache and the writer, and the reads and writes built on them."""

    engine: Engine
    sqlite: bool
    cache: Cache
    writer: Writer
    origin: str
    """Names this process in its notices, so it can ignore its own."""
    pg_notify: bool
    """Send ``pg_notify`` with each commit (the fallback backplane when there is no Redis)."""
    checkpoints: Checkpoints | None
    listeners: list[AppendListener]
    committed: list[EntryListener]
    """Called after each commit with each entry just written (the hub's source)."""
    changed: list[ChangeListener]
    """Called after a write that logs nothing but changes a table (tokens, owners)."""

    # reads

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def _one(
        self, query: Select[Any], values: Mapping[str, Any], what: str, key: object
    ) -> RowMapping:
        """The row ``query`` finds with ``values`` (columns by name), or NotFound naming
        ``what`` and ``key``."""
        with self._read() as conn:
            row = conn.execute(query, values).mappings().first()
        if row is None:
            raise NotFound(what, key)
        return row

    def _cached(self, table_id: int, part: Part, key: Hashable, load: Callable[[], T]) -> T:
        """``load()``, kept in the cache until a write drops that part of the table."""
        value = self.cache.get(table_id, part, key)
        if value is not MISS:
            return cast(T, value)
        generation = self.cache.generation(table_id, part)
        loaded = load()
        self.cache.put(table_id, part, key, loaded, generation)
        return loaded

    def _by_ids(
        self,
        table_id: int,
        part: Part,
        ids: Iterable[int],
        key: Callable[[int], Hashable],
        query: Select[Any],
        row_of: Callable[[RowMapping], _Row],
    ) -> Mapping[int, Any]:
        """The rows of ``ids`` that exist, by id: from the table's whole part where it is
        held, else each from the cache (``key``), those it lacks in one statement (``query``,
        of ``table_id`` and ``ids``; so an answer at a crowded table reads its author, not
        every seat)."""
        wanted = set(ids)
        held = self.cache.get(table_id, part, "all")
        if held is not MISS:
            return MappingProxyType(
                {r.id: r for r in cast("Sequence[_Row]", held) if r.id in wanted}
            )
        found: dict[int, Any] = {}
        missing = []
        for one_id in wanted:
            one = self.cache.get(table_id, part, key(one_id))
            if one is MISS:
                missing.append(one_id)
            else:
                found[one_id] = one
        if missing:
            generation = self.cache.generation(table_id, part)
            values = {"table_id": table_id, "ids": sorted(missing)}
            with self._read() as conn:
                read = [row_of(row) for row in conn.execute(query, values).mappings()]
            for row in read:
                self.cache.put(table_id, part, key(row.id), row, generation)
                found[row.id] = row
        return MappingProxyType(found)

    def forget(self, table_id: int, parts: Sequence[Part] = ()) -> None:
        """Another process changed ``parts`` of this table (none named: maybe anything):
        drop them from the cache."""
        self.cache.drop(table_id, *parts)

    # writes

    def _write(self, write: Write[T], tables: Iterable[int] = ()) -> T:
        """Run ``write`` in the writer's next batch (``tables``: those whose locks it takes),
        and answer with what it answers; a constraint it broke is a Conflict."""
        try:
            return self.writer.run(write, tables)
        except IntegrityError as exc:
            raise Conflict("log", "a concurrent write won; try again") from exc

    def _before_commit(self, batch: Batch) -> None:
        """Inside the transaction: PostgreSQL sends each notice when it commits."""
        if not self.pg_notify:
            return
        payloads = [
            f"{e.table_id}:{e.seq}:{self.origin}:{','.join(parts_changed(e.kind, bool(e.changed)))}"
            for e in batch.committed
        ]
        payloads += [f"{t}:-:{self.origin}:{','.join(parts)}" for t, parts in batch.changed]
        if payloads:
            channel = {"channel": NOTIFY_CHANNEL}
            batch.conn.execute(NOTIFY, [channel | {"payload": p} for p in payloads])

    def _after_commit(self, batch: Batch) -> None:
        """After the commit: drop what changed from the cache, tell the listeners."""
        if self.checkpoints is not None:
            self.checkpoints.written()
        for table_id, parts in batch.changed:
            self.cache.drop(table_id, *parts)
            for on_change in self.changed:
                on_change(table_id, parts)
        for entry in batch.committed:
            parts = parts_changed(entry.kind, bool(entry.changed))
            if parts == ("characters",) and entry.kind not in WHOLE:
                self.cache.drop_where(entry.table_id, parts, _rows_of(set(entry.changed)))
            elif parts:
                self.cache.drop(entry.table_id, *parts)
            for on_commit in self.committed:
                on_commit(entry)
            for listener in self.listeners:
                listener(entry.table_id, entry.seq)
