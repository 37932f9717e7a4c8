"""Rate limits: token buckets per session, per table and per client address, in memory.

Each bucket holds up to ``burst`` tokens and refills at ``per_second``; a request
takes one token from every bucket it is charged to, or none if any is empty, and
is then refused with 429 and ``Retry-After`` (whole seconds until the emptiest
bucket has a token again).

``Buckets`` live in this process's memory: a restart refills them, and old keys are
dropped once ``max_keys`` are held. With Redis (``--redis``) the app takes them from
``backplane.RedisBuckets`` instead, the same buckets shared by every server process
(one atomic Lua script per request), so a client cannot multiply its budget by
reaching another process. While Redis does not answer, ``RedisBuckets`` takes them from
``Buckets`` of its own process (and says so in the log, once as it falls back and once as
it goes back): a write is then limited per process, never refused for Redis's absence.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleboundError


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``burst`` requests at once, then ``per_second`` on average."""

    burst: int
    per_second: float

    def __post_init__(self) -> None:
        if self.burst < 1 or not self.per_second > 0:
            raise InvalidInput("rate", f"{self.burst}/{self.per_second}", "BURST/PER_SECOND > 0")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"30/5"`` is a burst of 30 refilled at 5 per second; ``"off"`` is no limit."""
        if text.strip().lower() in ("off", "none", "0"):
            return None
        burst, _, rate = text.partition("/")
        try:
            return cls(int(burst), float(rate))
        except ValueError:
            raise InvalidInput("rate", text, "BURST/PER_SECOND, e.g. 30/5, or off") from None


class RateLimited(RuleboundError):
    """Too many requests: answered 429 with ``Retry-After: retry_after``."""

    def __init__(self, scope: str, retry_after: int) -> None:
        self.scope = scope
        self.retry_after = retry_after
        self.detail = f"too many requests for this {scope}: try again in {retry_after} s"
        super().__init__(self.detail)


Charge = tuple[str, Hashable, Rate]
"""(what is limited, for the message; the bucket's key; its rate)."""


class Buckets:
    """Token buckets by key; thread-safe (handlers run in a thread pool)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_keys: int = 50_000) -> None:
        self._clock = clock
        self._max_keys = max_keys
        self._lock = threading.Lock()
        self._held: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()

    def take(self, charges: Sequence[Charge]) -> None:
        """Take one token from each bucket, or raise RateLimited and take none."""
        with self._lock:
            now = self._clock()
            levels = [self._level(key, rate, now) for _, key, rate in charges]
            waits = [
                (math.ceil((1 - level) / rate.per_second), scope)
                for level, (scope, _, rate) in zip(levels, charges, strict=True)
                if level < 1
            ]
            if waits:
                wait, scope = max(waits)
                raise RateLimited(scope, max(1, wait))
            for level, (_, key, _) in zip(levels, charges, strict=True):
                self._held[key] = (level - 1, now)
                self._held.move_to_end(key)
            while len(self._held) > self._max_keys:
                self._held.popitem(last=False)

    def _level(self, key: Hashable, rate: Rate, now: float) -> float:
        level, then = self._held.get(key, (float(rate.burst), now))
        return min(float(rate.burst), level + (now - then) * rate.per_second)
