"""PostgreSQL's append awaited on the libpq handle itself (issue 13).

A roll on PostgreSQL spends one statement, ``rulebound_append`` (migration 0008), awaited on
the event loop (``rawwrite.RawWrites.appended_async``). Through psycopg's asynchronous
cursor that one statement cost about a sixth of the roll's CPU: the query converted and
its parameters adapted again, the prepared-statement bookkeeping, and a reader added to
the loop and removed again for each of the two waits. Its text and its parameters are
the same every time, so this prepares it once per connection under a name of its own,
sends each call's parameters as text (SQLAlchemy's bind processors ran already; each
placeholder carries its column's cast), and waits for the answer on the connection's
socket once. Failures are psycopg's own exceptions, made from the server's answer, so
the store handles them as before (a unique index's ``IntegrityError``; a dropped
connection's ``OperationalError``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from datetime import datetime
from typing import Any

from psycopg import OperationalError, errors, pq
from psycopg.types.json import Json

from rulebound.store.engine import store_json

NAME = b"rulebound_append_lean"
"""The prepared statement's name (psycopg's own are ``_pg3_N``)."""

_PLACEHOLDER = re.compile(r"%\(([a-z_]+)\)s")


def positional(sql: str) -> tuple[bytes, tuple[str, ...]]:
    """``sql``'s ``%(name)s`` placeholders (SQLAlchemy's for psycopg) as ``$1``, ``$2``...,
    and the names in that order."""
    names: list[str] = []

    def numbered(match: re.Match[str]) -> str:
        names.append(match.group(1))
        return f"${len(names)}"

    text = _PLACEHOLDER.sub(numbered, sql)
    if "%" in text:
        raise ValueError("a statement with a literal % needs psycopg's own escaping")
    return text.encode(), tuple(names)


def as_text(value: Any) -> bytes | None:
    """A parameter in PostgreSQL's text format (the placeholder's cast names its type)."""
    if value is None:
        return None
    if value is True or value is False:
        return b"t" if value else b"f"
    if type(value) is int or type(value) is str:
        return str(value).encode()
    if isinstance(value, Json):
        return store_json(value.obj).encode()
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a timestamp without its time zone")
        return value.isoformat().encode()
    raise TypeError(f"no text form for a {type(value).__name__} parameter")


class Lean:
    """``rulebound_append`` on one autocommit connection's libpq handle: ``call`` sends it
    and awaits its one row (None: no row). Used by one call at a time, on one loop at a
    time. Its socket is watched from its first call until ``unwatch`` (which must come
    before the connection closes: a closed socket's number is soon another's), so a call
    adds no reader to the loop and removes none (two ``epoll_ctl`` each)."""

    def __init__(self, pgconn: pq.abc.PGconn, sql: bytes, names: Sequence[str]) -> None:
        self.pgconn = pgconn
        self.sql = sql
        self.names = names
        self.prepared = False
        pgconn.nonblocking = 1
        self._watched: tuple[asyncio.AbstractEventLoop, int] | None = None
        self._waiter: asyncio.Future[None] | None = None

    @property
    def usable(self) -> bool:
        """The connection is open and idle (not broken, not inside a transaction)."""
        return bool(
            self.pgconn.status == pq.ConnStatus.OK
            and self.pgconn.transaction_status == pq.TransactionStatus.IDLE
        )

    def unwatch(self) -> None:
        """Stop watching the socket (a closed loop has stopped already)."""
        if self._watched is not None:
            loop, fd = self._watched
            self._watched = None
            with suppress(RuntimeError):  # the loop is closed
                loop.remove_reader(fd)

    async def call(self, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        pgconn = self.pgconn
        if not self.prepared:
            pgconn.send_prepare(NAME, self.sql)
            self._check(await self._answer(), pq.ExecStatus.COMMAND_OK)
            self.prepared = True
        pgconn.send_query_prepared(NAME, [as_text(params[name]) for name in self.names])
        result = self._check(await self._answer(), pq.ExecStatus.TUPLES_OK)
        if result.ntuples == 0:
            return None
        key, seq, prev, sealed = (result.get_value(0, i) for i in range(4))
        return (
            None if key is None else int(key),
            None if seq is None else int(seq),
            None if prev is None else prev.decode(),
            None if sealed is None else sealed.decode(),
        )

    def _readable(self) -> None:
        """The loop's reader: wake the call that waits; with none, read what came (the
        server's notice, or its end) so that the socket goes quiet."""
        waiter = self._waiter
        if waiter is not None:
            if not waiter.done():
                waiter.set_result(None)
            return
        try:
            self.pgconn.consume_input()
        except OperationalError:  # dropped while idle: the next call finds it unusable
            self.unwatch()

    async def _answer(self) -> list[pq.abc.PGresult]:
        """Everything the server answers to what was just sent, awaited on the socket."""
        pgconn = self.pgconn
        loop = asyncio.get_running_loop()
        if self._watched is None or self._watched[0] is not loop:
            self.unwatch()
            loop.add_reader(pgconn.socket, self._readable)
            self._watched = loop, pgconn.socket
        while pgconn.flush() == 1:  # a full socket buffer: wait until it takes the rest
            await _writable(loop, pgconn.socket)
        while True:
            self._waiter = loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
            pgconn.consume_input()  # OperationalError where the server dropped it
            if not pgconn.is_busy():
                break
        results = []
        while (result := pgconn.get_result()) is not None:
            results.append(result)
        return results

    def _check(self, results: list[pq.abc.PGresult], wanted: pq.ExecStatus) -> pq.abc.PGresult:
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                raise errors.error_from_result(result, encoding="utf-8")
        if len(results) != 1 or results[0].status != wanted:
            raise OperationalError(f"unexpected answer to {NAME.decode()}: {results!r}")
        return results[0]


async def _writable(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    """Until ``fd`` takes more."""
    ready: asyncio.Future[None] = loop.create_future()

    def done() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_writer(fd, done)
    try:
        await ready
    finally:
        loop.remove_writer(fd)
