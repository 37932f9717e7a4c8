"""The live feed's hub: one per process, pushing each new entry to every open feed.

A ``TableFeed`` exists while a table has open feeds. When an entry is committed (in
this process: the store hands over the entry itself; in another: a notice through
the backplane, and the feed reads the log once, for all its subscribers), the feed
groups its subscribers by what they may be shown of that entry (``views.share_keys``:
one group per redaction level, one per member where the view holds something of
theirs), renders the entry once per group and queues the same prepared bytes for
every subscriber of the group. No subscriber runs a query of its own per entry.

The log stays the source of truth: a subscriber first reads what it missed from
the log (``Last-Event-ID``), and one that falls too far behind drops its queue and
reads the log again from its last seq, so nothing is lost. An idle subscriber holds
only its socket and a keep-alive timer; a table's feed reads the log's last seq once
every ``poll`` seconds (for writers it hears of no other way), whatever the number
of viewers.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Any

from rulebound.store import LogEntry, Member, Store
from rulebound.web.auth import Viewer
from rulebound.web.views import Context, context_for, entry_view, share_keys

log = logging.getLogger(__name__)

BATCH = 100
SETTLE = 0.05
"""A watched table's feed reads the log's end again this soon after its first read: a
process that sent no notices on the table (no feed of it was open) may commit one more
entry unheard before it hears of the watch (``backplane.RedisBackplane.watch``)."""
MAX_QUEUED = 500
"""A subscriber with more prepared events waiting than this reads the log instead."""

RenderHtml = Callable[[Viewer, dict[str, Any]], str]


def sse(seq: int, event: str, data: Any) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {seq}\nevent: {event}\ndata: {payload}\n\n"


def prepared(entry: LogEntry, ctx: Context, render_html: RenderHtml) -> bytes | None:
    """The SSE bytes of ``entry`` as ``ctx.viewer`` is shown it (None: nothing)."""
    view = entry_view(entry, ctx)
    if view is None:
        return None
    view["html"] = render_html(ctx.viewer, view)
    return sse(entry.seq, "entry", view).encode()


@dataclass(eq=False)
class Subscriber:
    viewer: Viewer
    last: int = 0
    """The seq of the last entry this subscriber was sent."""
    queue: deque[tuple[int, bytes]] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    behind: bool = False
    revoked: bool = False
    ping: bool = False
    """A keep-alive comment is due (the table's feed asks for them all at once)."""

    def push(self, seq: int, data: bytes) -> None:
        if self.behind or self.revoked:
            return
        if len(self.queue) >= MAX_QUEUED:
            self.queue.clear()
            self.behind = True  # the consumer reads the log from its last seq instead
        else:
            self.queue.append((seq, data))
        self.ready.set()

    def revoke(self) -> None:
        self.revoked = True
        self.ready.set()

    def keepalive(self) -> None:
        self.ping = True
        self.ready.set()


class TableFeed:
    """One table's open feeds in this process and the task that feeds them."""

    def __init__(self, hub: Hub, table_id: int) -> None:
        self.hub = hub
        self.table_id = table_id
        self.subscribers: set[Subscriber] = set()
        self.last: int | None = None
        self.ready = asyncio.Event()
        self.woken = asyncio.Event()
        self.fresh: dict[int, LogEntry] = {}
        self.heard = 0
        self.refresh = False
        self.stopping = False
        self.task = asyncio.get_running_loop().create_task(self._run())

    def notice(self, seq: int, entry: LogEntry | None) -> None:
        if entry is not None:
            self.fresh[seq] = entry
        else:
            self.refresh = True  # written elsewhere: members may have changed too
        self.heard = max(self.heard, seq)
        self.woken.set()

    async def _run(self) -> None:
        store = self.hub.store
        if self.hub.watch is not None:  # hear the table's notices before the first read
            try:
                await self.hub.watch(self.table_id)
            except Exception:  # the backplane is away: the poll covers what goes unheard
                log.warning("table %s: its notices are not heard yet", self.table_id)
        while self.last is None and not self.stopping:
            try:
                self.last = await asyncio.to_thread(store.last_seq, self.table_id)
            except Exception:  # the database is away for now: try again
                await asyncio.sleep(min(self.hub.poll, 1.0))
        self.ready.set()
        loop = asyncio.get_running_loop()
        first_poll = SETTLE if self.hub.watch is not None else self.hub.poll
        next_poll, next_ping = loop.time() + first_poll, loop.time() + self.hub.keepalive
        while not self.stopping:
            timeout = max(0.0, min(next_poll, next_ping) - loop.time())
            with suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), timeout)
            self.woken.clear()
            if self.stopping:
                return
            now = loop.time()
            polled = now >= next_poll
            if polled:
                next_poll = now + self.hub.poll
            if now >= next_ping:
                next_ping = now + self.hub.keepalive
                for sub in self.subscribers:  # one timer for every idle subscriber
                    sub.keepalive()
            try:
                await self._pump(polled)
            except Exception:  # a failing read must not end the table's feeds: retry
                await asyncio.sleep(min(self.hub.poll, 1.0))
                self.woken.set()

    async def _pump(self, polled: bool) -> None:
        assert self.last is not None
        store, table_id = self.hub.store, self.table_id
        fresh, self.fresh = self.fresh, {}
        target = self.heard
        if polled:
            target = max(target, await asyncio.to_thread(store.last_seq, table_id))
        while target > self.last:
            wanted = range(self.last + 1, min(target, self.last + BATCH) + 1)
            if all(seq in fresh for seq in wanted):
                batch = [fresh[seq] for seq in wanted]
                followed: set[int] | None = set()
            else:
                batch = await asyncio.to_thread(store.tail, table_id, self.last, BATCH)
                followed = None
                if not batch:
                    return
            await self._dispatch(batch, followed)
            self.last = batch[-1].seq

    async def _dispatch(self, batch: Sequence[LogEntry], followed: set[int] | None) -> None:
        refresh = self.refresh or any(e.kind in ("join", "member") for e in batch)
        self.refresh = False
        subscribers = list(self.subscribers)
        render_html = self.hub.render_html
        store = self.hub.store

        def prepare() -> tuple[list[tuple[Subscriber, Member | None]], list[Any]]:
            seated: list[tuple[Subscriber, Member | None]] = []
            if refresh:
                members = {m.id: m for m in store.members(self.table_id)}
                seated = [(s, members.get(s.viewer.member.id)) for s in subscribers]
            viewers = [(s, s.viewer) for s in subscribers]
            if seated:
                viewers = [
                    (s, s.viewer if m == s.viewer.member else replace(s.viewer, member=m))
                    for s, m in seated
                    if m is not None and not m.revoked
                ]
            if not viewers:
                return seated, []
            base = context_for(store, viewers[0][1], batch, followed)
            shown = [viewer for _, viewer in viewers]
            out = []
            for entry in batch:
                groups: dict[Hashable, tuple[Viewer, list[Subscriber]]] = {}
                for (sub, viewer), key in zip(viewers, share_keys(entry, base, shown), strict=True):
                    if key is not None:
                        groups.setdefault(key, (viewer, []))[1].append(sub)
                for viewer, subs in groups.values():
                    data = prepared(entry, replace(base, viewer=viewer), render_html)
                    if data is not None:
                        out.append((entry.seq, data, subs))
            return seated, out

        seated, out = await asyncio.to_thread(prepare)
        for sub, member in seated:
            if member is None or member.revoked:
                sub.revoke()
            elif member != sub.viewer.member:
                sub.viewer = replace(sub.viewer, member=member)
        for seq, data, subs in out:
            for sub in subs:
                sub.push(seq, data)


class Hub:
    """This process's table feeds; ``notice`` and ``forget`` are safe from any thread."""

    def __init__(
        self, store: Store, render_html: RenderHtml, *, poll: float = 2.0, keepalive: float = 15.0
    ) -> None:
        self.store = store
        self.render_html = render_html
        self.poll = poll
        self.keepalive = keepalive
        self.feeds: dict[int, TableFeed] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watch: Callable[[int], Awaitable[None]] | None = None
        """Called as a table's feed starts, before it reads the log: the backplane then
        hears that table's own notices (``backplane.RedisBackplane.watch``)."""
        self.unwatch: Callable[[int], None] | None = None
        """Called once a table has no feed here any more."""

    def committed(self, entry: LogEntry) -> None:
        """A commit in this process (the store's listener): the entry itself, no read."""
        self.notice(entry.table_id, entry.seq, entry)

    def notice(self, table_id: int, seq: int, entry: LogEntry | None = None) -> None:
        """An entry was committed (``entry`` None: in another process)."""
        loop = self.loop
        if loop is None or table_id not in self.feeds:
            return  # no open feed of that table here
        with suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(self._notice, table_id, seq, entry)

    def _notice(self, table_id: int, seq: int, entry: LogEntry | None) -> None:
        feed = self.feeds.get(table_id)
        if feed is not None:
            feed.notice(seq, entry)

    def changed(self, table_id: int) -> None:
        """Another process changed the table without logging (tokens, owners)."""
        loop = self.loop
        if loop is not None and table_id in self.feeds:
            with suppress(RuntimeError):
                loop.call_soon_threadsafe(self._changed, table_id)

    def _changed(self, table_id: int) -> None:
        feed = self.feeds.get(table_id)
        if feed is not None:
            feed.refresh = True
            feed.woken.set()

    async def close(self) -> None:
        """Stop every table's feed task (the app is shutting down), letting reads finish."""
        feeds, self.feeds = list(self.feeds.values()), {}
        for feed in feeds:
            feed.stopping = True
            feed.woken.set()
        if feeds:
            await asyncio.wait([feed.task for feed in feeds], timeout=5)
        for feed in feeds:
            feed.task.cancel()

    def subscribers(self, table_id: int) -> int:
        feed = self.feeds.get(table_id)
        return 0 if feed is None else len(feed.subscribers)

    def _join(self, viewer: Viewer) -> tuple[TableFeed, Subscriber]:
        self.loop = asyncio.get_running_loop()
        feed = self.feeds.get(viewer.table.id)
        if feed is None:
            feed = self.feeds[viewer.table.id] = TableFeed(self, viewer.table.id)
        sub = Subscriber(viewer)
        feed.subscribers.add(sub)
        return feed, sub

    def _leave(self, feed: TableFeed, sub: Subscriber) -> None:
        feed.subscribers.discard(sub)
        if not feed.subscribers and self.feeds.get(feed.table_id) is feed:
            del self.feeds[feed.table_id]
            feed.task.cancel()
            if self.unwatch is not None:
                self.unwatch(feed.table_id)

    async def stream(
        self, viewer: Viewer, after: int, *, follow: bool = True
    ) -> AsyncIterator[bytes]:
        """SSE bytes: every entry after ``after`` that ``viewer`` may see (from the log), then
        live ones as the table's feed pushes them; a revoked member's feed ends."""
        yield b"retry: 1000\n\n"
        if not follow:
            async for _, data in self._backlog(viewer, after):
                yield data
            return
        feed, sub = self._join(viewer)
        sub.last = after
        try:
            await feed.ready.wait()
            while True:
                async for seq, data in self._backlog(sub.viewer, sub.last):
                    sub.last = seq
                    yield data
                while not sub.behind:
                    if sub.revoked:
                        yield sse(sub.last, "revoked", {}).encode()
                        return
                    if not sub.queue:
                        if sub.ping:
                            sub.ping = False
                            yield b": keepalive\n\n"
                            continue  # pushed while it was being sent: look again
                        sub.ready.clear()
                        await sub.ready.wait()
                        continue
                    sub.ping = False
                    chunks = []
                    while sub.queue:
                        seq, data = sub.queue.popleft()
                        if seq > sub.last:
                            chunks.append(data)
                            sub.last = seq
                    if chunks:
                        yield b"".join(chunks)
                sub.behind = False
        finally:
            self._leave(feed, sub)

    async def _backlog(self, viewer: Viewer, after: int) -> AsyncIterator[tuple[int, bytes]]:
        """What the log holds after ``after`` for ``viewer``: read and rendered for them."""
        store, render_html = self.store, self.render_html
        last = after
        while True:

            def read(since: int = last) -> list[tuple[int, bytes | None]]:
                batch = store.entries(viewer.table.id, viewer.scope, after=since, limit=BATCH)
                ctx = context_for(store, viewer, batch)
                return [(e.seq, prepared(e, ctx, render_html)) for e in batch]

            done = await asyncio.to_thread(read)
            for seq, data in done:
                last = seq
                if data is not None:
                    yield seq, data
            if len(done) < BATCH:
                return
