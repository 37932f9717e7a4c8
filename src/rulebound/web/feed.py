"""The live feed: server-sent events read from the log by seq.

The log is the source of truth, so a feed survives restarts and works across
processes: a client reconnecting with ``Last-Event-ID: N`` gets every entry
after N that it may see, and nothing is lost. The ``Hub`` only makes a waiting
feed look sooner: the store wakes it after each commit in this process, and
PostgreSQL's NOTIFY wakes it for commits in other processes. Without a wake-up
a feed still polls the log every ``poll`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from starlette.concurrency import run_in_threadpool

from rulebound.store import LogEntry, Scope, Store

BATCH = 100


class Hub:
    """Wakes the feeds of one table; safe to call from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}

    def wake(self, table_id: int, _seq: int = 0) -> None:
        with self._lock:
            waiters = list(self._waiters.get(table_id, ()))
        for loop, event in waiters:
            with suppress(RuntimeError):  # the loop has closed: nothing left to wake
                loop.call_soon_threadsafe(event.set)

    @contextmanager
    def subscribe(self, table_id: int) -> Iterator[asyncio.Event]:
        item = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.setdefault(table_id, set()).add(item)
        try:
            yield item[1]
        finally:
            with self._lock:
                self._waiters[table_id].discard(item)
                if not self._waiters[table_id]:
                    del self._waiters[table_id]

    def waiting(self, table_id: int) -> int:
        with self._lock:
            return len(self._waiters.get(table_id, ()))


def sse(seq: int, event: str, data: Any) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {seq}\nevent: {event}\ndata: {payload}\n\n"


async def stream(
    store: Store,
    hub: Hub,
    table_id: int,
    scope: Scope,
    after: int,
    render: Callable[[list[LogEntry]], list[dict[str, Any] | None]],
    allowed: Callable[[], bool],
    *,
    follow: bool = True,
    poll: float = 2.0,
    keepalive: float = 15.0,
) -> AsyncIterator[str]:
    """Yield SSE text: every entry after ``after`` that ``scope`` may see, then live ones.

    ``render`` returns the viewer's views of a batch of entries (None: send nothing);
    ``allowed`` is checked before each batch, so a revoked member's feed ends.
    """
    yield "retry: 1000\n\n"
    last, idle = after, 0.0
    while True:
        with hub.subscribe(table_id) as woken:
            batch = await run_in_threadpool(store.entries, table_id, scope, after=last, limit=BATCH)
            if not batch:
                if not follow:
                    return
                try:
                    await asyncio.wait_for(woken.wait(), poll)
                except TimeoutError:
                    idle += poll
                    if idle >= keepalive:
                        idle = 0.0
                        yield ": keepalive\n\n"
                continue
        if not await run_in_threadpool(allowed):
            yield sse(last, "revoked", {})
            return
        views = await run_in_threadpool(render, batch)
        for entry, view in zip(batch, views, strict=True):
            if view is not None:
                yield sse(entry.seq, "entry", view)
            last = entry.seq
