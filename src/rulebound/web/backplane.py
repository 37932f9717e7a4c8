"""Between server processes: notices of new entries and changes, and shared rate limits.

With Redis (``--redis URL`` or ``RULEBOUND_REDIS_URL``), every process publishes
``ORIGIN:TABLE:SEQ:PARTS`` on the ``rulebound:log`` channel after each commit (and
``ORIGIN:TABLE:-:PARTS`` after a change that logs nothing: an invite replaced, an
owner set; PARTS names what of the table changed: ``table``, ``members``,
``characters``), and a thread per process hears the others' notices: it drops those
parts of the table from the store's cache and wakes the table's feed in the hub,
which reads the log once for all its subscribers. The thread reads the subscription's
socket itself, as much as has come at once, and parses it with hiredis: a notice costs
it a few microseconds, and its own (every process hears every notice) less, dropped by
their origin's prefix before they are decoded. Pub/sub may drop a notice; a
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

import math
import secrets
import select
import threading
from collections.abc import Callable, Hashable, Sequence
from contextlib import suppress
from typing import Any

from rulebound.store import LogEntry, SqlStore
from rulebound.store.cache import PARTS
from rulebound.store.listen import ListenerThread
from rulebound.store.sql import parts_changed
from rulebound.web.hub import Hub
from rulebound.web.ratelimit import Charge, RateLimited

CHANNEL = "rulebound:log"

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
    bytes each) are read and dropped every ``DRAIN`` notices, never let pile up.
    Thread-safe. A failed connection is dropped and made again (with the URL's
    credentials, by redis-py) for the next notice; the notice it failed on is lost, as
    pub/sub may lose one anyway (the feeds' poll covers it)."""

    DRAIN = 32

    def __init__(self, client: Any) -> None:
        self._pool = client.connection_pool
        self._lock = threading.Lock()
        self._connection: Any = None
        self._socket: Any = None
        self._unread = 0

    def publish(self, channel: str, message: str) -> None:
        import redis

        head, body = channel.encode(), message.encode()
        command = b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%b\r\n$%d\r\n%b\r\n" % (
            len(head),
            head,
            len(body),
            body,
        )
        with self._lock:
            try:
                if self._socket is None:
                    self._connection = self._pool.make_connection()
                    self._connection.connect()
                    self._socket = self._connection._sock
                self._socket.sendall(command)
                self._unread += 1
                if self._unread >= self.DRAIN:
                    self._drain()
            except (redis.RedisError, OSError):
                self._drop()

    def _drain(self) -> None:
        while select.select([self._socket], [], [], 0)[0]:
            if not self._socket.recv(65536):
                raise ConnectionResetError("Redis closed the connection")
        self._unread = 0

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        if self._connection is not None:
            with suppress(Exception):
                self._connection.disconnect()
        self._connection = self._socket = None
        self._unread = 0


class RedisBackplane(ListenerThread):
    """Publishes this process's notices and hears the others' (one listener thread)."""

    def __init__(self, url: str, store: SqlStore, hub: Hub) -> None:
        import redis

        super().__init__("rulebound-redis", (redis.RedisError, OSError))
        self.client = redis.Redis.from_url(url)
        self.notices = Notices(self.client)
        self.origin = secrets.token_hex(8)
        self._own = f"{self.origin}:".encode()
        self._url = url
        self._store = store
        self._hub = hub

    def attach(self) -> None:
        """Publish after every commit and change of ``store``."""
        self._store.committed.append(self.published)
        self._store.changed.append(self.changed)

    def published(self, entry: LogEntry) -> None:
        parts = ",".join(parts_changed(entry.kind, bool(entry.changed)))
        self._publish(f"{entry.table_id}:{entry.seq}:{parts}")

    def changed(self, table_id: int, parts: Sequence[str]) -> None:
        self._publish(f"{table_id}:-:{','.join(parts)}")

    def _publish(self, notice: str) -> None:
        # the commit stands without it: the other processes' feeds find it at their next poll
        self.notices.publish(CHANNEL, f"{self.origin}:{notice}")

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
            channel = CHANNEL.encode()
            sock.sendall(b"*2\r\n$9\r\nSUBSCRIBE\r\n$%d\r\n%b\r\n" % (len(channel), channel))
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
            connection.disconnect()

    def _reply(self, reply: Any) -> None:
        """One reply on the subscription: its confirmation, or a notice; an error (Redis
        refused the subscription: an ACL without pub/sub, say) ends this listen."""
        if isinstance(reply, Exception):  # hiredis hands error replies back as exceptions
            import redis

            raise redis.ResponseError(f"Redis refused the subscription: {reply}")
        if not isinstance(reply, list) or len(reply) != 3:
            return
        kind, _, data = reply
        if kind == b"subscribe":
            self.listening.set()
        elif kind == b"message" and not data.startswith(self._own):  # another process's
            _, table, seq, parts = [*data.decode().split(":"), "", "", ""][:4]
            if table.isdecimal():
                hear(self._store, self._hub, int(table), seq, parts)


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
