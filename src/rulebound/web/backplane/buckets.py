"""Rate limits shared by every process through Redis (one atomic Lua script a request),
falling back to each process's own buckets while Redis does not answer."""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from rulebound.web.backplane.connection import redis_errors, where
from rulebound.web.backplane.thread import RETRY_CAP, RETRY_FIRST
from rulebound.web.ratelimit import Buckets, Charge, RateLimited

if TYPE_CHECKING:
    from redis import Redis

log = logging.getLogger("rulebound.web.backplane")

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
    """``ratelimit.Buckets`` shared by every process through Redis.

    While Redis does not answer, each process limits with its own ``Buckets`` instead, so
    a write is never refused for Redis's absence (a client may then reach each process's
    budget). That is logged once as it falls back and once as it goes back. Meanwhile one
    request at a time tries Redis again, ``RETRY_FIRST`` seconds after the failure,
    doubling up to ``RETRY_CAP``; the others use the process's buckets without waiting."""

    def __init__(self, client: Redis, local: Buckets | None = None) -> None:
        self._script = client.register_script(TAKE)
        self._where = where(client)
        self._local = local if local is not None else Buckets()
        self._errors = redis_errors()
        self._lock = threading.Lock()
        self._trying = threading.Lock()
        self._retry_at: float | None = None
        """While falling back: when to try Redis again (None: Redis answers)."""
        self._delay = RETRY_FIRST

    def take(self, charges: Sequence[Charge]) -> None:
        if not charges:
            return
        waits = self._tried(charges)
        if waits is None:  # Redis is away: this process's own buckets
            self._local.take(charges)
            return
        if waits:
            short = [
                (max(1, math.ceil(float(wait))), scope)
                for wait, (scope, _, _) in zip(waits, charges, strict=True)
                if float(wait) > 0
            ]
            wait, scope = max(short)
            raise RateLimited(scope, wait)

    def _tried(self, charges: Sequence[Charge]) -> list[Any] | None:
        """Redis's answer (the waits of the short buckets), or None while Redis is away:
        then one request at a time, once the back-off has run, tries it again."""
        retry_at = self._retry_at
        falling_back = retry_at is not None
        if retry_at is not None and (
            time.monotonic() < retry_at or not self._trying.acquire(blocking=False)
        ):
            return None
        try:
            waits = self._shared(charges)
        except self._errors as exc:
            self._away(exc)
            return None
        finally:
            if falling_back:
                self._trying.release()
        if falling_back:
            self._back()
        return waits

    def _shared(self, charges: Sequence[Charge]) -> list[Any]:
        keys = [_key(key) for _, key, _ in charges]
        args: list[float] = []
        for _, _, rate in charges:
            args += [rate.burst, rate.per_second]
        return list(self._script(keys=keys, args=args))

    def _away(self, exc: BaseException) -> None:
        with self._lock:
            first = self._retry_at is None
            if first:
                self._delay = RETRY_FIRST
            else:
                self._delay = min(self._delay * 2, RETRY_CAP)
            self._retry_at = time.monotonic() + self._delay
        if first:
            log.warning(
                "rate limits fall back to this process's own buckets: Redis at %s does not"
                " answer (%s: %s); trying it again, backing off from %s to %s s",
                self._where,
                type(exc).__name__,
                str(exc).replace("\n", " "),
                RETRY_FIRST,
                RETRY_CAP,
            )

    def _back(self) -> None:
        with self._lock:
            was_away = self._retry_at is not None
            self._retry_at = None
        if was_away:
            log.warning(
                "rate limits shared by every process again: Redis at %s answers", self._where
            )
