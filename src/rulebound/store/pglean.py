"""PostgreSQL's append awaited on the libpq handle itself, pipelined (issue 13).

A roll on PostgreSQL spends one statement, ``rulebound_append`` (migrations 0008, 0009),
awaited on the event loop (``rawwrite.RawWrites.appended_async``). Through psycopg's
asynchronous cursor that one statement cost about a sixth of the roll's CPU: the query
converted and its parameters adapted again, the prepared-statement bookkeeping, a reader
added to the loop and removed again for each wait. Its text and its parameters are the
same every time, so this prepares it once per connection under a name of its own and
sends each call's parameters as text (SQLAlchemy's bind processors ran already; each
placeholder carries its column's cast).

The calls go out in libpq's pipeline mode (``Pipeline``): each is sent as soon as it is
made, followed by a sync, so it is a transaction of its own, committed before its answer
comes back; the server runs them one after another and answers in order, while the
caller sends more. A table's appends take one lock in turn anyway; on one connection they
queue in the server's socket instead of in its lock manager, so the server no longer
wakes one backend per call and puts the others back to sleep on the lock, and one read
of the socket brings several answers. Against a connection per call (eight at once per
process), this cut PostgreSQL's CPU per roll by about 40 % and the workers' by about
12 % (docs/performance.md, session 14). Failures are psycopg's own exceptions, made from
the server's answer, so the store handles them as before (a unique index's
``IntegrityError``; a dropped connection's ``OperationalError``): a call that fails fails
alone, and a connection that drops fails the calls waiting on it, not later ones.
"""

from __future__ import annotations

import asyncio
import re
from collections import deque
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


class Pipeline:
    """``rulebound_append`` on one autocommit connection's libpq handle in pipeline mode:
    ``call`` sends a call and a sync at once and awaits its answer, its one row (None: no
    row); calls made while others wait are sent behind them. The loop watches the socket
    from the first call to ``close``, and each time it is readable, every answer that has
    come is handed to its call. Used on one loop."""

    def __init__(self, driver: Any, sql: bytes, names: Sequence[str]) -> None:
        self.driver = driver
        """The psycopg connection that made the handle (kept: it owns it)."""
        self.pgconn: pq.abc.PGconn = driver.pgconn
        self.cursor = driver.cursor()
        """What the statement listeners are told the call runs on."""
        self.sql = sql
        self.names = names
        self.pgconn.nonblocking = 1
        self.pgconn.enter_pipeline_mode()
        self.prepared = False
        self.preparing: asyncio.Future[pq.abc.PGresult] | None = None
        """The prepare's answer, while it has not come."""
        self.waiting: deque[asyncio.Future[pq.abc.PGresult]] = deque()
        """A future per call (and the prepare) sent and not answered yet, in order."""
        self._result: pq.abc.PGresult | None = None
        self._ended = False
        """Of the oldest waiting call: its result came (``_result``), and its end."""
        self._watched: tuple[asyncio.AbstractEventLoop, int] | None = None
        self.broken: Exception | None = None

    @property
    def usable(self) -> bool:
        """Not failed, and the connection is open."""
        return self.broken is None and self.pgconn.status == pq.ConnStatus.OK

    def close(self) -> None:
        """Stop watching the socket (before it closes: a closed socket's number is soon
        another's), fail what still waits, and close the connection."""
        self._fail(OperationalError("the append connection was closed"))
        with suppress(Exception):
            self.pgconn.finish()

    async def call(self, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        if self.broken is not None:
            raise OperationalError(f"the append connection failed: {self.broken}")
        pgconn = self.pgconn
        loop = asyncio.get_running_loop()
        if self._watched is None:
            loop.add_reader(pgconn.socket, self._readable)
            self._watched = loop, pgconn.socket
        if self.preparing is None and not self.prepared:
            pgconn.send_prepare(NAME, self.sql)
            self.preparing = self._synced(loop)
        prepare = self.preparing
        pgconn.send_query_prepared(NAME, [as_text(params[name]) for name in self.names])
        answer = self._synced(loop)
        while pgconn.flush() == 1:  # a full socket buffer: wait until it takes the rest
            await _writable(loop, pgconn.socket)
        if prepare is not None:
            try:
                _checked(await asyncio.shield(prepare), pq.ExecStatus.COMMAND_OK)
            except BaseException:
                answer.cancel()  # its answer, a failure too, is read and dropped
                raise
        result = _checked(await answer, pq.ExecStatus.TUPLES_OK)
        if result.ntuples == 0:
            return None
        key, seq, prev, sealed = (result.get_value(0, i) for i in range(4))
        return (
            None if key is None else int(key),
            None if seq is None else int(seq),
            None if prev is None else prev.decode(),
            None if sealed is None else sealed.decode(),
        )

    def _synced(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[pq.abc.PGresult]:
        """A sync after what was just sent (its transaction ends there), and its future."""
        self.pgconn.pipeline_sync()
        future: asyncio.Future[pq.abc.PGresult] = loop.create_future()
        self.waiting.append(future)
        return future

    def _readable(self) -> None:
        """Every answer that has come, to its call: a call's result, its end (no result),
        then its sync's, which settles its future."""
        pgconn = self.pgconn
        try:
            pgconn.consume_input()  # OperationalError where the server dropped it
            while self.waiting and not pgconn.is_busy():
                result = pgconn.get_result()
                if self._result is None:
                    if result is None:
                        raise OperationalError(f"no answer to {NAME.decode()}")
                    self._result = result
                elif not self._ended:
                    if result is not None:
                        raise OperationalError(f"a second answer to {NAME.decode()}")
                    self._ended = True
                else:
                    if result is None or result.status != pq.ExecStatus.PIPELINE_SYNC:
                        raise OperationalError(f"no sync after {NAME.decode()}")
                    future, answered = self.waiting.popleft(), self._result
                    self._result, self._ended = None, False
                    if future is self.preparing:
                        self.preparing = None
                        self.prepared = answered.status == pq.ExecStatus.COMMAND_OK
                        if not self.prepared:  # the calls behind it fail: start afresh
                            self.broken = OperationalError(f"{NAME.decode()} not prepared")
                    if not future.done():  # not cancelled: its caller waits
                        future.set_result(answered)
        except OperationalError as exc:
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        """Failed for good: unwatched, and every waiting call fails with ``exc``."""
        self.broken = exc
        if self._watched is not None:
            loop, fd = self._watched
            self._watched = None
            with suppress(RuntimeError):  # the loop is closed
                loop.remove_reader(fd)
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(OperationalError(str(exc)))


def _checked(result: pq.abc.PGresult, wanted: pq.ExecStatus) -> pq.abc.PGresult:
    if result.status == pq.ExecStatus.FATAL_ERROR:
        raise errors.error_from_result(result, encoding="utf-8")
    if result.status != wanted:
        raise OperationalError(f"unexpected answer to {NAME.decode()}: {result!r}")
    return result


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
