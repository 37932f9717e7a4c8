"""This process's notices to the others, sent from a thread of its own."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from rulebound.web.backplane.connection import redis_errors
from rulebound.web.backplane.thread import RETRY_CAP, RETRY_FIRST

if TYPE_CHECKING:
    from redis import Redis

log = logging.getLogger("rulebound.web.backplane")

MAX_QUEUED = 10_000
"""Notices the publisher keeps while Redis is away; past that the oldest are dropped (a
feed's poll covers a lost notice)."""


Notice = tuple[str, str, Hashable | None]
"""(channel, message, key): a notice published with a key has Redis's count of its
listeners passed on with that key."""


class Publisher:
    """Sends notices from a thread of its own, so a commit never waits on Redis: whatever
    has queued up since the last round trip goes out in one pipeline (``PUBLISH`` each, no
    transaction), on a connection the client's pool lends for that round trip. Redis's
    answer to a notice published with a ``key``, how many processes heard it, goes to
    ``heard``. While Redis is away the notices wait (``MAX_QUEUED`` at most, the oldest
    dropped) and the thread tries again, ``RETRY_FIRST`` seconds doubling up to
    ``RETRY_CAP``, or at once on ``retry_now``. Thread-safe; the thread starts with the
    first notice."""

    def __init__(self, client: Redis, heard: Callable[[Hashable, int], None] | None = None) -> None:
        self._client = client
        self._heard = heard
        self._errors = redis_errors()
        self._queue: deque[Notice] = deque()
        self._ready = threading.Condition(threading.Lock())
        self._retry = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._refused = False
        """Redis refused notices (an error answer, not a lost connection) last time."""

    def publish(self, channel: str, message: str, key: Hashable | None = None) -> None:
        with self._ready:
            if self._closed:
                return
            if len(self._queue) >= MAX_QUEUED:
                self._queue.popleft()
            self._queue.append((channel, message, key))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="rulebound-redis-publish", daemon=True
                )
                self._thread.start()
            self._ready.notify()

    def retry_now(self) -> None:
        """Redis is back: send what waits without finishing the back-off."""
        self._retry.set()

    def close(self, seconds: float = 2.0) -> None:
        """Send what is queued (one try), then end the thread."""
        with self._ready:
            self._closed = True
            self._ready.notify()
            thread = self._thread
        self._retry.set()
        if thread is not None:
            thread.join(seconds)

    def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if not self._queue:
                    return
                batch, closing = list(self._queue), self._closed
                self._queue.clear()
            try:
                answers = self._send(batch)
            except self._errors:  # the listener logs the outage
                if closing:
                    return
                with self._ready:  # back in front, in order, for the next try
                    self._queue.extendleft(reversed(batch))
                    while len(self._queue) > MAX_QUEUED:
                        self._queue.popleft()
                self._retry.wait(delay)
                self._retry.clear()
                delay = min(delay * 2, RETRY_CAP)
                continue
            except Exception:  # not Redis's: lose these notices, never the thread
                log.exception("%s notices could not be sent", len(batch))
                continue
            delay = RETRY_FIRST
            self._answered(batch, answers)

    def _send(self, batch: Sequence[Notice]) -> list[Any]:
        with self._client.pipeline(transaction=False) as pipe:
            for channel, message, _ in batch:
                pipe.publish(channel, message)
            return list(pipe.execute(raise_on_error=False))

    def _answered(self, batch: Sequence[Notice], answers: Sequence[Any]) -> None:
        refused = next((a for a in answers if isinstance(a, Exception)), None)
        if refused is not None and not self._refused:
            log.warning("Redis refused notices: %s: %s", type(refused).__name__, refused)
        elif refused is None and self._refused:
            log.warning("Redis accepts notices again")
        self._refused = refused is not None
        if self._heard is None:
            return
        for (_, _, key), answer in zip(batch, answers, strict=True):
            if key is not None and isinstance(answer, int):
                self._heard(key, answer)
