"""Between server processes: notices of new entries and changes, and shared rate limits.

With Redis (``--redis URL`` or ``RULEBOUND_REDIS_URL``), every process publishes
``ORIGIN:TABLE:SEQ:PARTS`` after each commit (and ``ORIGIN:TABLE:-:PARTS`` after a
change that logs nothing: an invite replaced, an owner set; PARTS names what of the
table changed: ``table``, ``members``, ``characters``), and a thread per process hears
the others' notices: it drops those parts of the table from the store's cache and
wakes the table's feed in the hub, which reads the log once for all its subscribers.
A notice that changes part of a table goes on the ``rulebound:log`` channel, which
every process hears (each may cache any table); one that only says a new entry is
there (a roll's: most of them) goes on the table's own channel,
``rulebound:log:TABLE``, which a process hears only while it has feeds of that table
open (``watch``): Redis then hands a busy table's rolls to no process without a feed
of it, and wakes none of those for nothing. A feed starts reading the log only once
Redis has confirmed its table's subscription, and announces the watch (``TABLE:+:``
on ``rulebound:log``). A process whose last notice on a table no process heard (Redis
answers each ``PUBLISH`` with that count) sends that table's channel nothing for
``QUIET_SECONDS``, or until a watch is announced; a new feed reads the log's end again
shortly after its first read (``hub.SETTLE``) for an entry committed before the watch
was heard. The thread reads the subscription's socket itself, as much as has come at
once, and parses it with hiredis: a notice costs it a few microseconds, and its own
(heard on the shared channel and on tables it watches) less, dropped by their origin's
prefix before they are decoded. Pub/sub may drop a notice; a
feed's poll of the log's last seq and the cache's time limit cover that. Rate limits
live in Redis too (``RedisBuckets``, one atomic Lua script per request), so a client
cannot multiply its budget by spreading requests over processes.

Notices go out on a connection of their own (``Notices``): each ``PUBLISH`` is written
to its socket without waiting for Redis's answer (the count of listeners, which nothing
reads), and the answers that have come are read and dropped at the next notice. A
notice costs the roll one write to a socket instead of a client round trip.

Without Redis, PostgreSQL's ``LISTEN/NOTIFY`` carries the same notices
(``store/listen.py``); a lone process on SQLite needs neither.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import select
import threading
import time
from asyncio import Future
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from contextlib import suppress
from typing import Any

from rulebound.store import LogEntry, SqlStore
from rulebound.store.cache import PARTS
from rulebound.store.listen import ListenerThread
from rulebound.store.sql import parts_changed
from rulebound.web.hub import Hub
from rulebound.web.ratelimit import Charge, RateLimited

log = logging.getLogger(__name__)

CHANNEL = "rulebound:log"
TABLE_CHANNEL = "rulebound:log:{}"
"""A table's own channel: the notices of its new entries that change nothing cached."""
QUIET_SECONDS = 1.0
"""How long a process sends no notices on a table's channel after Redis said that no
process heard the last one, unless one announces it watches that table meanwhile."""
REMEMBERED = 10_000
"""Tables the quiet and watch bookkeeping holds at most; past that it starts afresh (every
table then gets its notices again until Redis answers that nobody heard one)."""
WATCH_SECONDS = 2.0
"""How long a new feed waits for Redis to confirm its table's subscription (then it
starts anyway: its poll of the log covers what it may not hear)."""

TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local levels, waits, short = {}, {}, false
for i, key in ipairs(KEYS) do
  local burst, rate = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local held = redis.call('HMGET', key, 'level', 'at')
  local level, at = tonumber(held[1]), tonumber(held[2])
  if level == nil then level, at = burst, now end
  level = math.min(burst, level + math.max(0, now - at) * rate)
  levels[i] = level
  if level < 1 then
    short = true
    waits[i] = tostring((1 - level) / rate)
  else
    waits[i] = '0'
  end
end
if short then return waits end
for i, key in ipairs(KEYS) do
  local burst, rate = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('HSET', key, 'level', tostring(levels[i] - 1), 'at', tostring(now))
  redis.call('EXPIRE', key, math.ceil(burst / rate) + 1)
end
return {}
"""
"""Token buckets, all or none: each bucket refilled by the time since it was last charged
(Redis's own clock, the same for every process), then one token taken from each, or
none and the seconds each short bucket needs."""


def _key(key: Hashable) -> str:
    parts = key if isinstance(key, tuple) else (key,)
    return "rulebound:rate:" + ":".join(str(part) for part in parts)


class RedisBuckets:
    """``ratelimit.Buckets`` shared by every process through Redis."""

    def __init__(self, client: Any) -> None:
        self._script = client.register_script(TAKE)

    def take(self, charges: Sequence[Charge]) -> None:
        if not charges:
            return
        keys = [_key(key) for _, key, _ in charges]
        args: list[float] = []
        for _, _, rate in charges:
            args += [rate.burst, rate.per_second]
        waits = self._script(keys=keys, args=args)
        if waits:
            short = [
                (max(1, math.ceil(float(wait))), scope)
                for wait, (scope, _, _) in zip(waits, charges, strict=True)
                if float(wait) > 0
            ]
            wait, scope = max(short)
            raise RateLimited(scope, wait)


class Notices:
    """``PUBLISH`` on one connection of its own without waiting for the answers: the
    command is written straight to the socket, and the answers that have come (a few
    bytes each) are read every ``DRAIN`` notices, never let pile up; the answer to a
    notice published with a ``key`` (how many processes heard it) goes to ``heard``.
    Thread-safe. A failed connection is dropped and made again (with the URL's
    credentials, by redis-py) for the next notice; the notice it failed on is lost, as
    pub/sub may lose one anyway (the feeds' poll covers it)."""

    DRAIN = 32

    def __init__(self, client: Any, heard: Callable[[Hashable, int], None] | None = None) -> None:
        self._pool = client.connection_pool
        self._heard = heard
        self._lock = threading.Lock()
        self._connection: Any = None
        self._socket: Any = None
        self._reader: Any = None
        self._keys: deque[Hashable | None] = deque()
        """The key of each notice whose answer has not been read yet, in order."""
        self._unread = 0

    def publish(self, channel: str, message: str, key: Hashable | None = None) -> None:
        import redis

        command = _command(b"PUBLISH", [channel.encode(), message.encode()])
        with self._lock:
            try:
                if self._socket is None:
                    import hiredis

                    self._connection = self._pool.make_connection()
                    self._connection.connect()
                    self._socket = self._connection._sock
                    self._reader = hiredis.Reader()
                self._socket.sendall(command)
                self._keys.append(key)
                self._unread += 1
                if self._unread >= self.DRAIN:
                    self._drain()
            except (redis.RedisError, OSError):
                self._drop()

    def _drain(self) -> None:
        while select.select([self._socket], [], [], 0)[0]:
            data = self._socket.recv(65536)
            if not data:
                raise ConnectionResetError("Redis closed the connection")
            self._reader.feed(data)
            while (answer := self._reader.gets()) is not False:
                key = self._keys.popleft() if self._keys else None
                if key is not None and self._heard is not None and isinstance(answer, int):
                    self._heard(key, answer)
        self._unread = 0

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        if self._connection is not None:
            with suppress(Exception):
                self._connection.disconnect()
        self._connection = self._socket = self._reader = None
        self._keys.clear()
        self._unread = 0


class RedisBackplane(ListenerThread):
    """Publishes this process's notices and hears the others' (one listener thread)."""

    def __init__(self, url: str, store: SqlStore, hub: Hub) -> None:
        import redis

        super().__init__("rulebound-redis", (redis.RedisError, OSError))
        self.client = redis.Redis.from_url(url)
        self.notices = Notices(self.client, self._counted)
        self.origin = secrets.token_hex(8)
        self._own = f"{self.origin}:".encode()
        self._url = url
        self._store = store
        self._hub = hub
        self._lock = threading.Lock()
        self._socket: Any = None
        """The subscription's socket while the listener holds one (under ``_lock``)."""
        self._watched: set[int] = set()
        self._confirming: dict[bytes, list[tuple[asyncio.AbstractEventLoop, Future[None]]]] = {}
        """Per table channel, the feeds waiting for Redis to confirm its subscription."""
        self._quiet: dict[int, float] = {}
        """Tables whose notices no process heard, and until when to send them none."""
        self._watches: dict[int, int] = {}
        """Per table, how many times another process announced it watches it."""

    def attach(self) -> None:
        """Publish after every commit and change of ``store``; subscribe to the channel of
        each table the hub has feeds of."""
        self._store.committed.append(self.published)
        self._store.changed.append(self.changed)
        self._hub.watch, self._hub.unwatch = self.watch, self.unwatch

    def published(self, entry: LogEntry) -> None:
        parts = ",".join(parts_changed(entry.kind, bool(entry.changed)))
        notice = f"{entry.table_id}:{entry.seq}:{parts}"
        if parts:
            self._publish(notice)
            return
        table = entry.table_id
        until = self._quiet.get(table)
        if until is not None:
            if time.monotonic() < until:
                return  # no process has a feed of it open
            self._quiet.pop(table, None)
        key = (table, self._watches.get(table, 0))
        self.notices.publish(TABLE_CHANNEL.format(table), f"{self.origin}:{notice}", key)

    def _counted(self, key: Hashable, heard: int) -> None:
        """Redis's answer to a table's notice: how many processes heard it. None did, and
        none announced a watch since it went out: be quiet on that table for a while."""
        assert isinstance(key, tuple)
        table, watches = key
        if heard == 0 and self._watches.get(table, 0) == watches:
            if len(self._quiet) >= REMEMBERED:
                self._quiet.clear()
            self._quiet[table] = time.monotonic() + QUIET_SECONDS

    def changed(self, table_id: int, parts: Sequence[str]) -> None:
        self._publish(f"{table_id}:-:{','.join(parts)}")

    def _publish(self, notice: str) -> None:
        # the commit stands without it: the other processes' feeds find it at their next poll
        self.notices.publish(CHANNEL, f"{self.origin}:{notice}")

    async def watch(self, table_id: int) -> None:
        """Hear the notices on ``table_id``'s channel from now on: back once Redis has
        confirmed it (or after ``WATCH_SECONDS``; while the listener is away, it subscribes
        to every watched table when it is back)."""
        channel = TABLE_CHANNEL.format(table_id).encode()
        loop = asyncio.get_running_loop()
        confirmed: Future[None] = loop.create_future()
        with self._lock:
            self._watched.add(table_id)
            self._confirming.setdefault(channel, []).append((loop, confirmed))
            self._send(_command(b"SUBSCRIBE", [channel]))
        try:
            await asyncio.wait_for(confirmed, WATCH_SECONDS)
        except TimeoutError:
            log.warning("Redis did not confirm %s within %s s", channel.decode(), WATCH_SECONDS)
        finally:
            with self._lock:
                waiting = self._confirming.get(channel, [])
                if (loop, confirmed) in waiting:
                    waiting.remove((loop, confirmed))
        self._publish(f"{table_id}:+:")  # a process quiet on the table sends notices again

    def unwatch(self, table_id: int) -> None:
        """This process has no feed of ``table_id`` open any more."""
        with self._lock:
            self._watched.discard(table_id)
            self._send(_command(b"UNSUBSCRIBE", [TABLE_CHANNEL.format(table_id).encode()]))

    def _send(self, command: bytes) -> None:
        """Write a command on the subscription (under ``_lock``); lost with a broken socket,
        whose listener subscribes again to every watched table."""
        if self._socket is not None:
            with suppress(OSError):
                self._socket.sendall(command)

    def stop(self) -> None:
        super().stop()
        self.notices.close()
        self.client.close()

    def _listen(self) -> None:
        import hiredis
        import redis

        connection: Any = self.client.connection_pool.make_connection()
        try:
            connection.connect()  # with the URL's credentials and database, by redis-py
            sock, reader = connection._sock, hiredis.Reader()
            with self._lock:  # the global channel and every watched table's, at once
                watched = [TABLE_CHANNEL.format(table).encode() for table in self._watched]
                sock.sendall(_command(b"SUBSCRIBE", [CHANNEL.encode(), *watched]))
                self._socket = sock
            while not self._stop.is_set():
                if not select.select([sock], [], [], 0.2)[0]:
                    continue
                data = sock.recv(65536)
                if not data:
                    raise redis.ConnectionError("Redis closed the subscription")
                reader.feed(data)
                while (reply := reader.gets()) is not False:
                    self._reply(reply)
        finally:
            with self._lock:
                self._socket = None
            connection.disconnect()

    def _reply(self, reply: Any) -> None:
        """One reply on the subscription: its confirmation, or a notice; an error (Redis
        refused the subscription: an ACL without pub/sub, say) ends this listen."""
        if isinstance(reply, Exception):  # hiredis hands error replies back as exceptions
            import redis

            raise redis.ResponseError(f"Redis refused the subscription: {reply}")
        if not isinstance(reply, list) or len(reply) != 3:
            return
        kind, channel, data = reply
        if kind == b"subscribe":
            if channel == CHANNEL.encode():
                self.listening.set()
            with self._lock:
                confirmed = self._confirming.pop(channel, [])
            for loop, future in confirmed:
                with suppress(RuntimeError):  # that loop has closed
                    loop.call_soon_threadsafe(_settle, future)
        elif kind == b"message" and not data.startswith(self._own):  # another process's
            _, table, seq, parts = [*data.decode().split(":"), "", "", ""][:4]
            if not table.isdecimal():
                return
            if seq == "+":  # another process watches the table: send it notices
                if len(self._watches) >= REMEMBERED:
                    self._watches.clear()
                self._watches[int(table)] = self._watches.get(int(table), 0) + 1
                self._quiet.pop(int(table), None)
                return
            hear(self._store, self._hub, int(table), seq, parts)


def _command(name: bytes, args: Sequence[bytes]) -> bytes:
    """A Redis command as the protocol writes it."""
    words = [name, *args]
    return b"*%d\r\n" % len(words) + b"".join(b"$%d\r\n%b\r\n" % (len(w), w) for w in words)


def _settle(future: Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def hear(store: SqlStore, hub: Hub, table_id: int, seq: str, parts: str) -> None:
    """Another process wrote ``seq`` of a table (``-``: changed it without logging),
    changing ``parts`` of it (comma-separated names)."""
    named = [part for part in PARTS if part in parts.split(",")]
    if named:
        store.forget(table_id, named)
    if seq.isdecimal():
        hub.notice(table_id, int(seq))
    else:
        hub.changed(table_id)


def pg_heard(store: SqlStore, hub: Hub) -> Callable[[int, str, str, str], None]:
    """The PostgreSQL listener's callback: notices from other processes only."""

    def heard(table_id: int, seq: str, sender: str, parts: str) -> None:
        if sender != store.origin:
            hear(store, hub, table_id, seq, parts)

    return heard
