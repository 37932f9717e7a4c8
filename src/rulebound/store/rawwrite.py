"""The log's busiest write through the database driver itself.

Appending an entry that changes no sheet (every roll that spends nothing, table talk) is
the table's most frequent write. Through SQLAlchemy's connection it spent more time in
the library's per-statement machinery (events, compiled-statement lookup, result setup,
the transaction's bookkeeping) than in the database. This runs its statements compiled
once by SQLAlchemy for the engine's dialect with its own bind processors (the JSON
columns, SQLite's timestamps), on a pooled connection's driver cursor:

- SQLite: ``BEGIN IMMEDIATE`` (under the store's writer lock), the chain's end with
  the seed in force, the insert, the commit: exactly the SQLAlchemy path's statements.
- PostgreSQL: one statement in autocommit, ``SELECT * FROM rulebound_append(...)`` (migrations
  0008, 0009): the server locks the table's row, checks the seed, reads the chain's end, chains
  and inserts the entry and sends the notice, and the statement's end commits. The table's
  lock is held for that alone, not across the network or the Python between statements.
  It runs on connections of its own in autocommit: detached from the pool where a thread
  waits for it, pipelined (``store/pglean``) where the event loop awaits it.

``waiting=False`` (SQLite, ``SqlStore.without_waiting``) takes a connection of its own whose
busy timeout is zero: where the store's writer lock or the database's is held, it raises
``WouldWait`` at once instead of waiting, so that a caller on the event loop can hand the
write to a thread that may wait (the web layer's short path, ``web/writepath``).

Every statement is announced to the engine's ``before_cursor_execute`` listeners as
SQLAlchemy would announce it (the statement-count tests listen there), and every driver
error is raised as SQLAlchemy wraps it (``IntegrityError``, ``OperationalError``...), so
the store and the web layer handle both paths alike.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Engine, Text, bindparam, text
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from rulebound.store.bridge import in_bridge, wait_for
from rulebound.store.engine import _sqlite_connect
from rulebound.store.schema import log_entries

if TYPE_CHECKING:
    from rulebound.store.pglean import Pipeline

INSERT_COLUMNS = tuple(
    c.name for c in log_entries.columns if c.name not in ("id", "client_seed", "nonce")
)
"""What an append inserts: every column but the id and those of the old dice (issue 14)."""


class WouldWait(Exception):
    """A write asked not to wait (``waiting=False``) found a lock held: nothing was written."""


class Statement:
    """One statement compiled once for a dialect: its text, and its parameters made as
    SQLAlchemy makes them (defaults of literal binds, bind processors, the order)."""

    def __init__(self, statement: ClauseElement, engine: Engine, keys: Sequence[str] = ()) -> None:
        compiled = statement.compile(dialect=engine.dialect, column_keys=list(keys) or None)
        assert isinstance(compiled, SQLCompiler)
        self.sql = compiled.string
        self.defaults = {name: bind.value for bind, name in compiled.bind_names.items()}
        self.order = None if compiled.positiontup is None else tuple(compiled.positiontup)
        self.processors: Mapping[str, Callable[[Any], Any]] = {
            k: v for k, v in compiled._bind_processors.items() if callable(v)
        }
        order = self.order or ()
        self._picks = tuple((name, self.defaults.get(name)) for name in order)
        self._processed = tuple(
            (index, self.processors[name])
            for index, name in enumerate(order)
            if name in self.processors
        )
        """Positional: each place that has a processor, and the processor."""

    def params(self, values: Mapping[str, Any]) -> Any:
        if self.order is None:
            merged = self.defaults | dict(values)
            for name, process in self.processors.items():
                if name in merged:
                    merged[name] = process(merged[name])
            return merged
        row = [values.get(name, default) for name, default in self._picks]
        for index, process in self._processed:
            row[index] = process(row[index])
        return tuple(row)


APPEND_COLUMNS = tuple(c for c in INSERT_COLUMNS if c not in ("seq", "prev_hash", "hash", "deltas"))
"""The columns ``rulebound_append`` is given: the chain's are its own, and it writes no deltas."""
APPEND_FUNCTION = text(
    "SELECT * FROM rulebound_append(:table_id, :commitment, :before, :after, :channel, :tail,"
    " :kind, :privacy, :actor_id, :character_id, :parent_id, :record, :card, :summary,"
    " :changed, :created_at, :salt, :contribution, :server_chosen)"
).bindparams(
    *(bindparam(name, type_=Text) for name in ("before", "after", "channel", "tail")),
    *(bindparam(name, type_=log_entries.c[name].type) for name in APPEND_COLUMNS),
)
"""PostgreSQL's append (migration 0008), its parameters typed as the columns they fill."""


APPENDERS = 8
"""PostgreSQL's synchronous appends at once per store (a play in a thread), each on an
autocommit connection of its own that is kept for the next; a ninth waits for one."""
PIPELINES = 4
"""PostgreSQL's awaited appends per store and loop go down this many pipelined connections
(``pglean.Pipeline``), a table's always down the same one (its id modulo this): its
appends queue on one connection rather than on its lock, and a table waiting for its
lock holds up the few others that share its connection, not every table."""


@dataclass(frozen=True)
class _Autocommit:
    fairy: Any
    driver: Any
    cursor: Any


class RawWrites:
    """The statements of an append, and a transaction to run them in."""

    def __init__(self, engine: Engine, head: ClauseElement) -> None:
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self.head = Statement(head, engine)
        self.insert = Statement(log_entries.insert(), engine, INSERT_COLUMNS)
        self.append = Statement(APPEND_FUNCTION, engine)
        dbapi = engine.dialect.loaded_dbapi
        self.error: type[Exception] = dbapi.Error
        database = engine.url.database if self.sqlite else None
        self.database = None if database in (None, "", ":memory:") else database
        """The SQLite file, where a write may be asked not to wait (a file of its own)."""
        self._nowait: sqlite3.Connection | None = None
        self._nowait_lock = threading.Lock()
        self._idle: list[_Autocommit] = []
        """PostgreSQL's append connections not in use (``list.pop`` and ``append`` are
        atomic: no lock); with those in use, never more than ``APPENDERS``."""
        self._appenders = threading.BoundedSemaphore(APPENDERS)
        self._pipes: tuple[asyncio.AbstractEventLoop, list[Any]] | None = None
        """One loop's pipelined append connections (``PIPELINES`` slots: a ``Pipeline``, the
        future of one being made, or None)."""
        self._lean_sql: tuple[bytes, tuple[str, ...]] | None = None

    def close(self) -> None:
        while self._idle:
            self._idle.pop().fairy.close()
        self._finish_async()
        if self._nowait is not None:
            self._nowait.close()
            self._nowait = None

    def _unwaiting(self) -> sqlite3.Connection:
        """The SQLite connection whose busy timeout is zero (made on first use)."""
        if self._nowait is None:
            assert self.database is not None
            made = sqlite3.connect(self.database, check_same_thread=False, timeout=0)
            _sqlite_connect(made, None)
            made.execute("PRAGMA busy_timeout=0")
            self._nowait = made
        return self._nowait

    def announce(self, cursor: Any, statement: Statement, params: Any) -> None:
        """Tell the engine's statement listeners, as SQLAlchemy's own execution does."""
        listeners = self.engine.dispatch.before_cursor_execute
        if listeners:
            listeners(None, cursor, statement.sql, params, None, False)

    def run(self, cursor: Any, statement: Statement, values: Mapping[str, Any]) -> None:
        params = statement.params(values)
        self.announce(cursor, statement, params)
        try:
            cursor.execute(statement.sql, params)
        except self.error as exc:
            raise self.wrapped(statement.sql, exc) from exc

    def wrapped(self, sql: str, exc: Exception) -> StatementError:
        """``exc`` as SQLAlchemy raises it (an ``IntegrityError`` for a unique index...)."""
        return DBAPIError.instance(sql, None, exc, self.error, hide_parameters=True)

    def fetch(self, cursor: Any) -> Any:
        """The next row a statement's cursor holds."""
        try:
            return cursor.fetchone()
        except self.error as exc:
            raise self.wrapped("FETCH", exc) from exc

    def transaction(self, lock: threading.Lock, *, waiting: bool = True) -> Transaction:
        """SQLite: under ``lock`` (the store's writer lock), a connection's driver connection
        in a ``BEGIN IMMEDIATE`` transaction. The caller commits (``commit``) and reads what
        the commit returned inside the block; anything raised rolls it back.
        ``waiting=False`` (with a file): neither ``lock`` nor the database's is waited for
        (``WouldWait`` where either is held), on the connection that never waits, under
        ``_nowait_lock``."""
        assert self.sqlite, "PostgreSQL appends in one statement: appended()"
        return Transaction(self, lock, waiting)

    def appended(self, values: Mapping[str, Any]) -> Any:
        """PostgreSQL: ``rulebound_append``'s row (its statement is its transaction); None
        where the table does not exist. It runs on a connection of the appends' own, kept in
        autocommit (``_autocommit``): no transaction to begin or end around it, no pool
        checkout and reset, one round trip in all. At most ``APPENDERS`` at once. In a play
        ``bridged`` on the event loop, the loop awaits it (``appended_async``)."""
        if in_bridge():
            return wait_for(self.appended_async(values))
        with self._appenders:
            connection = self._autocommit()
            try:
                self.run(connection.cursor, self.append, values)
                return self.fetch(connection.cursor)
            finally:
                self._returned(connection)

    async def appended_async(self, values: Mapping[str, Any]) -> Any:
        """``appended`` awaited on the event loop (a play ``bridged`` there, ``store/bridge``),
        pipelined: sent at once down the table's connection (``PIPELINES``), behind the calls
        already waiting on it. The connections belong to the loop they were made on."""
        pipe = await self._pipeline(int(values["table_id"]))
        params = self.append.params(values)
        self.announce(pipe.cursor, self.append, params)
        try:
            return await pipe.call(params)
        except self.error as exc:
            raise self.wrapped(self.append.sql, exc) from exc

    async def _pipeline(self, table_id: int) -> Pipeline:
        """The table's pipelined connection: made on first use, and again once it failed
        (the server dropped it); calls that come while it is being made wait for it."""
        loop = asyncio.get_running_loop()
        if self._pipes is None or self._pipes[0] is not loop:
            self._finish_async()  # another loop's (tests run several)
            self._pipes = loop, [None] * PIPELINES
        slots, index = self._pipes[1], table_id % PIPELINES
        found = slots[index]
        if isinstance(found, asyncio.Future):
            return cast("Pipeline", await asyncio.shield(found))
        if found is not None and found.usable:
            return cast("Pipeline", found)
        if found is not None:
            found.close()
        making: asyncio.Future[Pipeline] = loop.create_future()
        slots[index] = making
        try:
            pipe = await self._pipelined()
        except BaseException as exc:
            slots[index] = None
            making.set_exception(exc)
            making.exception()  # retrieved: the calls waiting for it raise it themselves
            raise
        slots[index] = pipe
        making.set_result(pipe)
        return pipe

    def _finish_async(self) -> None:
        """Close the pipelined connections at once (no loop to await a close on)."""
        if self._pipes is not None:
            for slot in self._pipes[1]:
                if slot is not None and not isinstance(slot, asyncio.Future):
                    slot.close()
            self._pipes = None

    async def _pipelined(self) -> Pipeline:
        import psycopg

        from rulebound.store.pglean import Pipeline, positional

        args, options = self.engine.dialect.create_connect_args(self.engine.url)
        driver = await psycopg.AsyncConnection.connect(*args, **options, autocommit=True)
        if self._lean_sql is None:
            self._lean_sql = positional(self.append.sql)
        return Pipeline(driver, *self._lean_sql)

    def _autocommit(self) -> _Autocommit:
        """An idle connection of the appends', or a new one: a pooled connection detached
        from the pool (made by the engine, with its settings), switched to autocommit."""
        try:
            return self._idle.pop()
        except IndexError:
            pass
        fairy = self.engine.raw_connection()
        driver: Any = fairy.driver_connection
        fairy.detach()
        try:
            driver.autocommit = True
        except BaseException:
            fairy.close()
            raise
        return _Autocommit(fairy, driver, driver.cursor())

    def _returned(self, connection: _Autocommit) -> None:
        """Kept for the next append, unless it broke (the server dropped it)."""
        if connection.driver.closed or connection.driver.broken:
            connection.fairy.close()
        else:
            self._idle.append(connection)

    def begin(self, driver: Any, *, waiting: bool = True) -> None:
        begin = "BEGIN IMMEDIATE"
        cursor = driver.cursor()
        listeners = self.engine.dispatch.before_cursor_execute
        if listeners:
            listeners(None, cursor, begin, (), None, False)
        try:
            cursor.execute(begin)
        except sqlite3.OperationalError as exc:
            if not waiting and "locked" in str(exc):
                raise WouldWait from exc
            raise self.wrapped(begin, exc) from exc

    def commit(self, driver: Any) -> None:
        try:
            driver.commit()
        except self.error as exc:
            raise self.wrapped("COMMIT", exc) from exc


class Transaction:
    """``RawWrites.transaction``'s block (a class rather than a generator: it is the busiest
    write's, and a generator's context costs several calls more)."""

    __slots__ = ("driver", "fairy", "lock", "nowait", "raw", "waiting")

    def __init__(self, raw: RawWrites, lock: threading.Lock, waiting: bool) -> None:
        self.raw, self.lock, self.waiting = raw, lock, waiting
        self.fairy: Any = None
        self.driver: Any = None
        self.nowait = False
        """Whether this block holds ``RawWrites._nowait_lock``."""

    def __enter__(self) -> Any:
        raw = self.raw
        if self.waiting:
            self.lock.acquire()
        elif raw.database is None or not self.lock.acquire(blocking=False):
            raise WouldWait
        try:
            if self.waiting:
                self.fairy = raw.engine.raw_connection()
                self.driver = self.fairy.driver_connection
            else:
                self.nowait = raw._nowait_lock.acquire(blocking=False)
                if not self.nowait:
                    raise WouldWait
                self.driver = raw._unwaiting()
            raw.begin(self.driver, waiting=self.waiting)
        except BaseException:
            self._release()
            raise
        return self.driver

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            if kind is not None:
                self.driver.rollback()
        finally:
            self._release()

    def _release(self) -> None:
        try:
            if self.fairy is not None:
                self.fairy.close()
        finally:
            if self.nowait:
                self.raw._nowait_lock.release()
            self.fairy = self.driver = None
            self.nowait = False
            self.lock.release()
