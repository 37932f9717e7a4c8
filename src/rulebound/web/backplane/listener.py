"""The Redis backplane: this process's notices out, and the others' heard."""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from asyncio import Future
from collections.abc import Hashable, Sequence
from contextlib import suppress
from typing import Any, Protocol, cast

from rulebound.store import LogEntry, SqlStore
from rulebound.store.sql import parts_changed
from rulebound.web.backplane.connection import connect, redis_errors, where
from rulebound.web.backplane.heard import hear
from rulebound.web.backplane.publisher import Publisher
from rulebound.web.backplane.thread import ListenerThread
from rulebound.web.feed.hub import Hub

log = logging.getLogger("rulebound.web.backplane")

CHANNEL = "rulebound:log"
TABLE_CHANNEL = "rulebound:log:{}"
"""A table's own channel: the notices of its new entries that change nothing cached."""
WAKE_CHANNEL = "rulebound:wake:{}"
"""A process's own channel (by origin): a message on it stirs its listener at once."""
QUIET_SECONDS = 1.0
"""How long a process sends no notices on a table's channel after Redis said that no
process heard the last one, unless one announces it watches that table meanwhile."""
REMEMBERED = 10_000
"""Tables the quiet and watch bookkeeping holds at most; past that it starts afresh (every
table then gets its notices again until Redis answers that nobody heard one)."""
WATCH_SECONDS = 2.0
"""How long a new feed waits for Redis to confirm its table's subscription (then it
starts anyway: its poll of the log covers what it may not hear)."""
LISTEN_SECONDS = 0.25
"""How long the listener waits for a message before it looks at its other work
(subscriptions to change, the stop, the link's health)."""
PING_SECONDS = 5.0
"""After this long with nothing heard, the listener pings Redis; with no answer within
as long again it takes the link for lost (a peer gone without closing the connection)."""
CATCH_UP_SECONDS = 0.05
"""After a (re)subscription, how long the listener lets the watch announcements reach the
other processes before it wakes the watched tables' feeds (as ``hub.SETTLE``)."""


class Subscription(Protocol):
    """What the listener uses of redis-py's ``PubSub`` (whose methods are not annotated)."""

    def subscribe(self, *channels: bytes) -> None: ...

    def unsubscribe(self, *channels: bytes) -> None: ...

    def get_message(self, timeout: float) -> dict[str, Any] | None: ...

    def ping(self) -> object: ...

    def close(self) -> None: ...


class RedisBackplane(ListenerThread):
    """Publishes this process's notices and hears the others' (one listener thread).

    ``linked`` (thread-safe) is True while the listener holds a subscription to
    ``CHANNEL`` that Redis has confirmed, on which every notice that changes something
    cached arrives: no such notice can have been missed since the last (re)subscription.
    It turns False as soon as the listener sees the link fail (Redis gone, the connection
    dropped, no answer to a ping) and True again once Redis confirms the subscription
    anew; the ``relinked`` hooks run at each confirmation, in the listener's thread. A
    cache that outlives notices should not be trusted while it is False, and should be
    dropped when a hook runs."""

    what = "Redis"
    paused = (
        "notices and shared rate limits paused; falling back to each feed's poll of the log"
        " and to each process's own rate-limit buckets"
    )

    def __init__(self, url: str, store: SqlStore, hub: Hub) -> None:
        self.client = connect(url)
        super().__init__("rulebound-redis", redis_errors(), where(self.client), log)
        self.origin = secrets.token_hex(8)
        self.publisher = Publisher(self.client, self._counted)
        self._own = f"{self.origin}:".encode()
        self._waking = WAKE_CHANNEL.format(self.origin)
        self._stir = self._waking.encode()
        self._store = store
        self._hub = hub
        self._lock = threading.Lock()
        self._watched: set[int] = set()
        self._changes = False
        """The watched tables changed since the listener last followed them."""
        self._confirmed: set[bytes] = set()
        """The channels Redis confirmed on the listener's current connection."""
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
        self.publisher.publish(TABLE_CHANNEL.format(table), f"{self.origin}:{notice}", key)

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
        self.publisher.publish(CHANNEL, f"{self.origin}:{notice}")

    async def watch(self, table_id: int) -> None:
        """Hear the notices on ``table_id``'s channel from now on: back once Redis has
        confirmed it (or after ``WATCH_SECONDS``), at once while the link is down (the
        listener subscribes to every watched table as it is back)."""
        channel = TABLE_CHANNEL.format(table_id).encode()
        loop = asyncio.get_running_loop()
        confirmed: Future[None] = loop.create_future()
        with self._lock:
            self._watched.add(table_id)
            self._changes = True
            wait = self.linked and channel not in self._confirmed
            if wait:
                self._confirming.setdefault(channel, []).append((loop, confirmed))
        if wait:
            self.publisher.publish(self._waking, "")  # the listener subscribes at once
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
            self._changes = True
        if self.linked:
            self.publisher.publish(self._waking, "")  # the listener unsubscribes at once

    def stop(self) -> None:
        super().stop()
        self.publisher.close()
        self.client.close()

    def _wake(self) -> None:
        self.client.publish(self._waking, "")

    def _wanted(self) -> set[bytes]:
        """The channels to be subscribed to (under ``_lock``)."""
        tables = {TABLE_CHANNEL.format(table).encode() for table in self._watched}
        return {self._waking.encode(), CHANNEL.encode(), *tables}

    def _listen(self) -> None:
        import redis

        pubsub = cast(Subscription, cast(Any, self.client).pubsub())
        try:
            with self._lock:
                self._confirmed.clear()
                self._changes = False
                subscribed = self._wanted()
            # the wake channel first: confirmed by the time the link is (``CHANNEL``'s)
            first = [self._waking.encode(), CHANNEL.encode()]
            pubsub.subscribe(*first, *(subscribed - set(first)))
            heard_at, pinged_at = time.monotonic(), 0.0
            while not self._stop.is_set():
                if self._changes:
                    self._follow(pubsub, subscribed)
                message = pubsub.get_message(timeout=LISTEN_SECONDS)
                now = time.monotonic()
                if message is not None:
                    heard_at, pinged_at = now, 0.0
                    self._message(pubsub, message, subscribed)
                elif now - heard_at > PING_SECONDS:
                    if not pinged_at:
                        pubsub.ping()
                        pinged_at = now
                    elif now - pinged_at > PING_SECONDS:
                        raise redis.ConnectionError(f"no answer to a ping in {PING_SECONDS} s")
        except redis.ResponseError as exc:  # an ACL without pub/sub, say
            raise redis.ResponseError(
                f"Redis refused the subscription: {type(exc).__name__}: {exc}"
            ) from exc
        finally:
            self.listening.clear()
            with self._lock:
                self._confirmed.clear()
                waiting = [feed for feeds in self._confirming.values() for feed in feeds]
                self._confirming.clear()
            for loop, future in waiting:  # no confirmation coming: their poll covers them
                with suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, future)
            with suppress(Exception):
                pubsub.close()

    def _follow(self, pubsub: Subscription, subscribed: set[bytes]) -> None:
        """Subscribe to the tables watched since, unsubscribe from those no longer."""
        with self._lock:
            self._changes = False
            wanted = self._wanted()
            dropped = subscribed - wanted
            self._confirmed -= dropped
        added = wanted - subscribed
        if added:
            pubsub.subscribe(*added)
            subscribed |= added
        if dropped:
            pubsub.unsubscribe(*dropped)
            subscribed -= dropped

    def _message(
        self, pubsub: Subscription, message: dict[str, Any], subscribed: set[bytes]
    ) -> None:
        kind, channel, data = message["type"], message["channel"], message["data"]
        if kind == "message":
            if channel == self._stir:
                return  # only to stir this thread: it follows the watched tables next
            if isinstance(data, bytes) and not data.startswith(self._own):  # another's
                try:
                    self._notice(data)
                except Exception:  # one notice's failure must not end the listener
                    log.exception("a notice could not be heard: %r", data[:100])
        elif kind == "subscribe":
            self._subscribed(pubsub, channel, subscribed)
        elif kind == "unsubscribe":
            with self._lock:
                if channel not in subscribed:
                    self._confirmed.discard(channel)

    def _subscribed(self, pubsub: Subscription, channel: bytes, subscribed: set[bytes]) -> None:
        """Redis confirmed a subscription: a feed waiting on it starts; the shared
        channel's is the link. A confirmation that comes again without being asked for is
        redis-py's subscription made again on a new connection: notices were missed."""
        with self._lock:
            again = channel in self._confirmed
            self._confirmed.add(channel)
            wanted = channel in self._wanted()
            waiting = self._confirming.pop(channel, []) if wanted else []
        if not wanted:  # unwatched meanwhile (a subscription made again by redis-py)
            pubsub.unsubscribe(channel)
            subscribed.discard(channel)
            return
        for loop, future in waiting:
            with suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(_settle, future)
        if channel == CHANNEL.encode():
            if again:
                log.info("Redis dropped the subscription and redis-py made it again")
            self._link()

    def _link(self) -> None:
        super()._link()
        self.publisher.retry_now()
        with self._lock:
            tables = sorted(self._watched)
        if not tables:
            return
        for table in tables:  # a process gone quiet on it while unheard sends notices again
            self._publish(f"{table}:+:")
        catch_up = threading.Thread(
            target=self._catch_up, args=(tables,), name="rulebound-redis-catch-up", daemon=True
        )
        catch_up.start()

    def _catch_up(self, tables: Sequence[int]) -> None:
        """The notices sent while the link was down are lost: wake each watched table's
        feed with the log's last seq, once the watch announcements have had their time."""
        if self._stop.wait(CATCH_UP_SECONDS):
            return
        for table in tables:
            try:
                seq = self._store.last_seq(table)
            except Exception:  # the database is away too: the feed's poll covers it
                log.debug("table %s: its last seq could not be read", table, exc_info=True)
                continue
            self._hub.notice(table, seq)

    def _notice(self, data: bytes) -> None:
        """Another process's notice."""
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


def _settle(future: Future[None]) -> None:
    if not future.done():
        future.set_result(None)
