"""The backplane's notices: the publisher sends them from a thread of its own, in order, on a
connection its client's pool lends, and passes on Redis's count of their listeners; a
connection Redis dropped is made again, and without Redis a notice costs the commit
nothing. The listener hears the other processes' notices in order, not its own, and
subscribes again when Redis drops it. A table's rolls go on its own channel, heard only
by a process watching it, and a process no other one hears on a table sends it nothing
until one announces a watch. Needs RULEBOUND_TEST_REDIS_URL (``scripts/with-redis``)."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Hashable, Iterator
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import pytest

from rulebound.web.backplane.connection import connect
from rulebound.web.backplane.listener import CHANNEL as BACKPLANE_CHANNEL
from rulebound.web.backplane.listener import REMEMBERED, TABLE_CHANNEL, RedisBackplane
from rulebound.web.backplane.publisher import Publisher

from .conftest import run_async
from .test_processes import redis_url  # noqa: F401  (the fixture)

if TYPE_CHECKING:
    from redis.client import PubSub

CHANNEL = "rulebound:test-notices"


def _listener(url: str, channel: str) -> PubSub:
    import redis

    # redis-py's pubsub() has no annotations: the PubSub it makes, named here. (The client is
    # not kept: its __del__ closes the pool, so it must go before the PubSub connects.)
    pubsub: PubSub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
    pubsub.subscribe(channel)
    deadline = time.monotonic() + 5
    while pubsub.get_message(timeout=0.1) is None and not pubsub.subscribed:
        assert time.monotonic() < deadline
    return pubsub


def _heard(pubsub: PubSub, count: int, seconds: float = 10) -> list[str]:
    heard: list[str] = []
    deadline = time.monotonic() + seconds
    while len(heard) < count and time.monotonic() < deadline:
        message = pubsub.get_message(timeout=0.2)
        if message is not None:
            heard.append(message["data"].decode())
    return heard


def _until(test: Callable[[], object], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.02)
    return False


class Wired:
    """A Redis client, a listener on ``CHANNEL`` and the publisher under test, whose
    counts of listeners are recorded."""

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url)
        # named, so its connections are told from those of other tests on the same Redis
        self.name = f"rulebound-test-{uuid.uuid4().hex[:12]}"
        self.sender = redis.Redis.from_url(url, client_name=self.name)
        self.pubsub = _listener(url, CHANNEL)
        self.counts: list[tuple[Hashable, int]] = []
        self.publisher = Publisher(self.sender, lambda key, n: self.counts.append((key, n)))

    def publishers(self) -> list[Any]:
        """Redis's ids of the publisher's connections whose last command was ``PUBLISH``."""
        return [
            c["id"]
            for c in self.client.client_list()
            if c.get("name") == self.name and c.get("cmd") == "publish"
        ]


@pytest.fixture
def wired(redis_url: str) -> Iterator[Wired]:  # noqa: F811
    made = Wired(redis_url)
    yield made
    made.publisher.close()
    made.pubsub.close()
    made.sender.close()
    made.client.close()


def test_every_notice_arrives_in_order_and_its_count_is_passed_on(wired: Wired) -> None:
    wired.publisher.publish(CHANNEL, "first", key="first")
    assert _heard(wired.pubsub, 1) == ["first"]
    assert _until(lambda: wired.counts == [("first", 1)])
    (publisher,) = wired.publishers()
    count = 1000
    for n in range(count):
        wired.publisher.publish(CHANNEL, f"1:{n}:", key=n if n % 100 == 0 else None)
    assert _heard(wired.pubsub, count) == [f"1:{n}:" for n in range(count)]
    assert _until(lambda: len(wired.counts) == 11)
    assert wired.counts[1:] == [(n, 1) for n in range(0, count, 100)]
    assert wired.publishers() == [publisher]  # one pooled connection, lent again and again


def test_a_dropped_connection_is_made_again_for_later_notices(wired: Wired) -> None:
    wired.publisher.publish(CHANNEL, "before")
    assert _heard(wired.pubsub, 1) == ["before"]
    (killed,) = wired.publishers()
    wired.client.client_kill_filter(_id=killed)
    wired.publisher.publish(CHANNEL, "after")
    assert _heard(wired.pubsub, 1, seconds=5) == ["after"]  # nothing lost: tried again
    assert wired.publishers() not in ([], [killed])


def test_without_redis_a_notice_costs_the_commit_nothing() -> None:
    import redis

    down = connect("redis://127.0.0.1:1/0")
    publisher = Publisher(down)
    started = time.monotonic()
    for n in range(1000):  # nothing listens on port 1: no error, and no wait
        publisher.publish("rulebound:log", f"1:{n}:")
    assert time.monotonic() - started < 0.5
    publisher.close()
    with pytest.raises(redis.ConnectionError):
        down.ping()
    down.close()


class Heard:
    """What the backplane's listener tells the store and the hub, recorded."""

    def __init__(self) -> None:
        self.events: list[tuple[str, int, Any]] = []
        self.lock = threading.Lock()

    def forget(self, table_id: int, parts: Any = ()) -> None:
        with self.lock:
            self.events.append(("forget", table_id, tuple(parts)))

    def notice(self, table_id: int, seq: int) -> None:
        with self.lock:
            self.events.append(("notice", table_id, seq))

    def changed(self, table_id: int) -> None:
        with self.lock:
            self.events.append(("changed", table_id, None))

    def wait_for(self, count: int, seconds: float = 10) -> list[tuple[str, int, Any]]:
        deadline = time.monotonic() + seconds
        while len(self.events) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        with self.lock:
            return list(self.events)


@pytest.fixture
def listening(redis_url: str) -> Iterator[tuple[RedisBackplane, Heard, Any]]:  # noqa: F811
    import redis

    heard = Heard()
    backplane = RedisBackplane(redis_url, heard, heard)  # type: ignore[arg-type]
    backplane.start()
    assert backplane.listening.wait(10)
    client = redis.Redis.from_url(redis_url)
    yield backplane, heard, client
    backplane.stop()
    client.close()


def test_the_listener_hears_the_others_notices_in_order_and_not_its_own(
    listening: tuple[RedisBackplane, Heard, Any],
) -> None:
    backplane, heard, client = listening
    other = "0123456789abcdef"
    pipe = client.pipeline(transaction=False)
    count = 3000  # more than one read of the socket holds: notices cut between reads
    for n in range(count):
        pipe.publish(BACKPLANE_CHANNEL, f"{backplane.origin}:7:{n}:characters")  # its own
        pipe.publish(BACKPLANE_CHANNEL, f"{other}:7:{n}:")
    pipe.publish(BACKPLANE_CHANNEL, f"{other}:8:-:members,characters")
    pipe.execute()
    events = heard.wait_for(count + 2)
    assert events[:count] == [("notice", 7, n) for n in range(count)]
    assert events[count:] == [("forget", 8, ("members", "characters")), ("changed", 8, None)]


def test_a_tables_own_notices_are_heard_only_while_it_is_watched(
    listening: tuple[RedisBackplane, Heard, Any],
    redis_url: str,  # noqa: F811
) -> None:
    backplane, heard, client = listening
    other, channel = "0123456789abcdef", TABLE_CHANNEL.format(9)
    announced = _listener(redis_url, BACKPLANE_CHANNEL)
    try:
        assert client.publish(channel, f"{other}:9:1:") == 0  # not watched: nobody hears it
        started = time.monotonic()
        run_async(backplane.watch(9))  # back once Redis confirmed the subscription
        assert time.monotonic() - started < 0.5  # the listener was stirred at once
        assert client.publish(channel, f"{other}:9:2:") == 1
        assert heard.wait_for(1) == [("notice", 9, 2)]
        assert _heard(announced, 1) == [f"{backplane.origin}:9:+:"]  # the watch, announced
        backplane.unwatch(9)
        assert _until(lambda: client.publish(channel, f"{other}:9:0:") == 0, 2)
    finally:
        announced.close()
    assert [e for e in heard.events if e != ("notice", 9, 0)] == [("notice", 9, 2)]


def _roll(table_id: int, seq: int) -> Any:
    """What ``published`` reads of an entry: a roll changes nothing cached."""
    return SimpleNamespace(table_id=table_id, seq=seq, kind="roll", changed=())


def _publishes(client: Any) -> int:
    return int(client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))


def test_a_table_no_other_process_watches_gets_no_notices_until_one_does(
    listening: tuple[RedisBackplane, Heard, Any],
    redis_url: str,  # noqa: F811
) -> None:
    watcher, heard, client = listening  # the other process
    roller = RedisBackplane(redis_url, Heard(), Heard())  # type: ignore[arg-type]
    roller.start()
    try:
        assert roller.listening.wait(10)
        roller.published(_roll(4, 1))
        assert _until(lambda: 4 in roller._quiet)  # Redis answered: nobody heard it
        before = _publishes(client)
        for seq in range(100, 110):
            roller.published(_roll(4, seq))
        time.sleep(0.2)
        assert _publishes(client) == before  # quiet: not one PUBLISH reached Redis
        run_async(watcher.watch(4))  # the other process opens a feed of table 4
        assert _until(lambda: 4 not in roller._quiet and roller._watches.get(4) == 1)
        roller.published(_roll(4, 200))
        assert heard.wait_for(1) == [("notice", 4, 200)]
    finally:
        roller.stop()


def test_the_listener_subscribes_again_after_redis_drops_it(
    listening: tuple[RedisBackplane, Heard, Any],
) -> None:
    _, heard, client = listening
    client.client_kill_filter(_type="pubsub")
    deadline = time.monotonic() + 15
    while not heard.events and time.monotonic() < deadline:
        client.publish(BACKPLANE_CHANNEL, "0123456789abcdef:3:1:")  # lost until it is back
        time.sleep(0.1)
    assert heard.events, "no notice heard after Redis dropped the subscription"
    assert heard.events[0] == ("notice", 3, 1)


def test_a_refused_subscription_is_logged_once_and_tried_again(
    redis_url: str,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Redis refuses ``SUBSCRIBE`` to a user without pub/sub (an ACL): the listener says so
    in the log once, and goes on trying (backing off), instead of waiting on a
    subscription that never came or filling the log."""
    import redis

    admin = redis.Redis.from_url(redis_url)
    admin.acl_log_reset()
    admin.acl_setuser(
        "nosub",
        enabled=True,
        passwords=["+pw"],
        keys=["*"],
        channels=["*"],
        commands=["+@all", "-subscribe"],
    )
    kwargs = admin.get_connection_kwargs()
    heard = Heard()
    url = f"redis://nosub:pw@{kwargs['host']}:{kwargs['port']}/0"
    backplane = RedisBackplane(url, heard, heard)  # type: ignore[arg-type]
    caplog.set_level("WARNING", logger="rulebound.web.backplane")
    try:
        backplane.start()

        def tries() -> int:
            # a count is an int (redis-py types every ACL log value as str | float | dict)
            log = admin.acl_log()
            return sum(int(cast(int, e["count"])) for e in log if e["object"] == "subscribe")

        assert _until(lambda: tries() >= 3, 8)
        assert not backplane.listening.is_set()
    finally:
        backplane.stop()
        admin.acl_deluser("nosub")
        admin.close()
    refused = [r.getMessage() for r in caplog.records]
    assert len(refused) == 1, refused
    assert "refused the subscription" in refused[0]
    assert "no permissions" in refused[0]


def test_the_quiet_tables_kept_are_bounded() -> None:
    """A host with many tables: the bookkeeping of quiet and watched tables starts afresh
    past ``REMEMBERED`` tables instead of growing without bound (no Redis needed)."""
    backplane = RedisBackplane("redis://127.0.0.1:1/0", Heard(), Heard())  # type: ignore[arg-type]
    try:
        tables = range(REMEMBERED + 5)
        for table in tables:
            backplane._counted((table, 0), 0)  # nobody heard its notice
        assert 0 < len(backplane._quiet) <= REMEMBERED
        assert tables[-1] in backplane._quiet  # the newest is kept
        for table in tables:
            backplane._notice(f"0123456789abcdef:{table}:+:".encode())
        assert 0 < len(backplane._watches) <= REMEMBERED
        assert backplane._watches[tables[-1]] == 1
    finally:
        backplane.stop()
