"""Between server processes: notices of new entries and changes, and shared rate limits.

With Redis (``--redis URL`` or ``RULEBOUND_REDIS_URL``), every process publishes
``ORIGIN:TABLE:SEQ:PARTS`` on the ``rulebound:log`` channel after each commit (and
``ORIGIN:TABLE:-:PARTS`` after a change that logs nothing: an invite replaced, an
owner set; PARTS names what of the table changed: ``table``, ``members``,
``characters``), and a thread per process hears the others' notices: it drops those
parts of the table from the store's cache and wakes the table's feed in the hub,
which reads the log once for all its subscribers. Pub/sub may drop a notice; a
feed's poll of the log's last seq and the cache's time limit cover that. Rate limits
live in Redis too (``RedisBuckets``, one atomic Lua script per request), so a client
cannot multiply its budget by spreading requests over processes.

Without Redis, PostgreSQL's ``LISTEN/NOTIFY`` carries the same notices
(``store/listen.py``); a lone process on SQLite needs neither.
"""

from __future__ import annotations

import math
import secrets
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


class RedisBackplane(ListenerThread):
    """Publishes this process's notices and hears the others' (one listener thread)."""

    def __init__(self, url: str, store: SqlStore, hub: Hub) -> None:
        import redis

        super().__init__("rulebound-redis", (redis.RedisError,))
        self.client = redis.Redis.from_url(url)
        self.origin = secrets.token_hex(8)
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
        import redis

        # the commit stands without it: the other processes' feeds find it at their next poll
        with suppress(redis.RedisError):
            self.client.publish(CHANNEL, f"{self.origin}:{notice}")

    def stop(self) -> None:
        super().stop()
        self.client.close()

    def _listen(self) -> None:
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        try:
            pubsub.subscribe(CHANNEL)
            self.listening.set()
            while not self._stop.is_set():
                message = pubsub.get_message(timeout=0.2)
                if message is not None:
                    self.heard(message["data"])
        finally:
            pubsub.close()

    def heard(self, data: bytes | str) -> None:
        text = data.decode() if isinstance(data, bytes) else data
        origin, table, seq, parts = [*text.split(":"), "", "", ""][:4]
        if origin == self.origin or not table.isdecimal():
            return
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
