"""The Redis backplane through Redis's faults, on a Redis of the test's own
(``throwaway.OwnRedis``) killed and started again on the same port:

- the listener subscribes again by itself within seconds of Redis's return, however many
  notices failed meanwhile (every connection goes back to redis-py's pool), and notices
  flow both ways again;
- the outage is logged once as it starts and once as it ends, not once per retry;
- the notices that failed wait for Redis (the newest ``MAX_QUEUED``) and go out once it is
  back;
- ``linked`` is False from the loss until Redis confirms the subscription again, and the
  ``relinked`` hooks run at each (re)subscription, a dropped subscription that redis-py
  made again by itself included;
- a feed opened during the outage waits for nothing, and is subscribed once Redis is back;
- a Redis that stops answering without closing its connections is taken for lost too;
- rate limits fall back to this process's own buckets (logged once) and go back to Redis's
  once it answers (logged once); a write is never refused for Redis's absence.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from rulebound.web.backplane import RedisBuckets
from rulebound.web.backplane import listener as listener_module
from rulebound.web.backplane import publisher as publisher_module
from rulebound.web.backplane.connection import connect
from rulebound.web.backplane.listener import CHANNEL, TABLE_CHANNEL, RedisBackplane
from rulebound.web.backplane.publisher import Publisher
from rulebound.web.ratelimit import Rate, RateLimited

from .conftest import run_async
from .test_notices import Heard, _heard, _listener, _until
from .throwaway import OwnRedis

OTHER = "0123456789abcdef"
"""Another process's origin."""


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis().start()
    yield server
    server.close()


@pytest.fixture
def backplane(own_redis: OwnRedis) -> Iterator[tuple[RedisBackplane, Heard]]:
    heard = Heard()
    started = RedisBackplane(own_redis.url, heard, heard)  # type: ignore[arg-type]
    started.start()
    assert started.listening.wait(10)
    yield started, heard
    started.stop()


def _client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url)


def _heard_from_outside(url: str, heard: Heard, table: int, seq: int, seconds: float) -> bool:
    """Publish another process's notice until the backplane hears it."""
    client = _client(url)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            client.publish(CHANNEL, f"{OTHER}:{table}:{seq}:")
            if _until(lambda: ("notice", table, seq) in heard.events, 0.2):
                return True
        return False
    finally:
        client.close()


def test_the_listener_is_back_within_seconds_of_a_restart_however_many_notices_failed(
    own_redis: OwnRedis, backplane: tuple[RedisBackplane, Heard]
) -> None:
    listener, heard = backplane
    own_redis.kill()
    assert _until(lambda: not listener.listening.is_set(), 5)
    for _ in range(250):  # every one fails: Redis is away
        listener.changed(5, ["characters"])
    import redis

    for _ in range(200):  # round trips failed on the backplane's own pool (its limit: 100)
        with pytest.raises(redis.ConnectionError):
            listener.client.publish(CHANNEL, f"{OTHER}:5:-:characters")
    time.sleep(2.5)  # the listener tries again meanwhile
    own_redis.start()
    restarted = time.monotonic()
    assert listener.listening.wait(8), "the listener did not subscribe again"
    assert _heard_from_outside(own_redis.url, heard, 3, 1, 5), "the others' notices go unheard"
    assert time.monotonic() - restarted < 8
    outside = _listener(own_redis.url, CHANNEL)
    try:  # its own notices reach the others again: its connections were not used up
        mark = f"{listener.origin}:6:-:members"
        deadline = time.monotonic() + 5
        got: list[str] = []
        while mark not in got and time.monotonic() < deadline:
            listener.changed(6, ["members"])
            got += _heard(outside, 1, seconds=0.3)
        assert mark in got
    finally:
        outside.close()
    assert listener.client.ping()
    client = _client(own_redis.url)
    try:
        held = [c for c in client.client_list() if int(c["id"]) != client.client_id()]
        assert len(held) <= 4, held  # the subscription, and a few pooled connections
        sent = client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0)
        assert int(sent) >= 250  # the notices that failed were sent once Redis was back
    finally:
        client.close()


def test_an_outage_is_logged_once_as_it_starts_and_once_as_it_ends(
    own_redis: OwnRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    heard = Heard()
    listener = RedisBackplane(own_redis.url, heard, heard)  # type: ignore[arg-type]
    listener.start()
    try:
        assert listener.listening.wait(10)
        own_redis.kill()
        for _ in range(20):
            listener.changed(5, ["characters"])
            time.sleep(0.15)  # 3 s of outage: several retries
        own_redis.start()
        assert listener.listening.wait(8)
        time.sleep(0.5)
    finally:
        listener.stop()
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    down = [m for m in said if "Redis unreachable" in m]
    back = [m for m in said if "Redis back" in m]
    assert len(down) == 1, said
    assert len(back) == 1, said
    assert "notices" in down[0], down
    assert "rate limits" in down[0], down
    assert f"127.0.0.1:{own_redis.port}" in down[0]


def test_linked_and_the_relinked_hooks_follow_the_subscription(
    own_redis: OwnRedis, backplane: tuple[RedisBackplane, Heard]
) -> None:
    listener, _ = backplane
    relinked = threading.Semaphore(0)
    listener.relinked.append(relinked.release)
    assert listener.linked
    client = _client(own_redis.url)
    try:  # redis-py makes a dropped subscription again by itself: notices were missed
        client.client_kill_filter(_type="pubsub")
        assert relinked.acquire(timeout=8), "a dropped subscription made again went unnoticed"
        assert _until(lambda: listener.linked, 2)
    finally:
        client.close()
    own_redis.kill()
    assert _until(lambda: not listener.linked, 5)
    time.sleep(1.0)
    assert not listener.linked
    own_redis.start()
    assert relinked.acquire(timeout=8)
    assert _until(lambda: listener.linked, 2)


def test_a_feed_opened_during_an_outage_waits_for_nothing_and_is_heard_once_redis_is_back(
    own_redis: OwnRedis, backplane: tuple[RedisBackplane, Heard]
) -> None:
    listener, heard = backplane
    own_redis.kill()
    assert _until(lambda: not listener.listening.is_set(), 5)
    started = time.monotonic()
    run_async(listener.watch(9))
    assert time.monotonic() - started < 0.5
    own_redis.start()
    assert listener.listening.wait(8)
    client = _client(own_redis.url)
    try:
        deadline = time.monotonic() + 5
        while ("notice", 9, 5) not in heard.events and time.monotonic() < deadline:
            client.publish(TABLE_CHANNEL.format(9), f"{OTHER}:9:5:")
            time.sleep(0.1)
    finally:
        client.close()
    assert ("notice", 9, 5) in heard.events


def test_rate_limits_fall_back_to_this_processs_own_buckets_while_redis_is_away(
    own_redis: OwnRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    heard = Heard()
    listener = RedisBackplane(own_redis.url, heard, heard)  # type: ignore[arg-type]
    buckets = RedisBuckets(listener.client)
    rate = Rate(2, 0.001)
    client = _client(own_redis.url)
    try:
        buckets.take([("seat", ("seat", 1), rate)])
        assert client.exists("rulebound:rate:seat:1")  # shared: held in Redis
        own_redis.kill()
        started = time.monotonic()
        buckets.take([("seat", ("seat", 2), rate)])  # Redis is away: this process's own
        buckets.take([("seat", ("seat", 2), rate)])
        with pytest.raises(RateLimited):
            buckets.take([("seat", ("seat", 2), rate)])
        assert time.monotonic() - started < 3
        for n in range(50):  # every request meanwhile answered, none waits on Redis
            buckets.take([("seat", ("seat", 100 + n), rate)])
        own_redis.start()
        deadline = time.monotonic() + 10
        n = 1000
        while time.monotonic() < deadline and not client.exists(f"rulebound:rate:seat:{n}"):
            n += 1
            buckets.take([("seat", ("seat", n), rate)])
            time.sleep(0.05)
        assert client.exists(f"rulebound:rate:seat:{n}"), "the buckets did not go back to Redis"
    finally:
        client.close()
        listener.stop()
    said = [r.getMessage() for r in caplog.records if "rate limit" in r.getMessage()]
    assert len(said) == 2, said
    assert "own buckets" in said[0]
    assert "shared" in said[1]


def test_a_redis_that_stops_answering_is_taken_for_lost(
    own_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis paused (SIGSTOP: its connections stay open, nothing answers): the listener
    pings after ``PING_SECONDS`` of silence and takes the link for lost when no answer
    comes; a rate limit waits for Redis once, its socket's timeout, then takes this
    process's own buckets at once. Both are back once Redis answers again."""
    monkeypatch.setattr(listener_module, "PING_SECONDS", 0.5)
    caplog.set_level(logging.INFO)
    heard = Heard()
    listener = RedisBackplane(own_redis.url, heard, heard)  # type: ignore[arg-type]
    buckets = RedisBuckets(listener.client)
    rate = Rate(5, 1.0)
    listener.start()
    try:
        assert listener.listening.wait(10)
        buckets.take([("seat", ("seat", 1), rate)])
        assert own_redis.pid is not None
        os.kill(own_redis.pid, signal.SIGSTOP)
        try:
            assert _until(lambda: not listener.linked, 5)
            started = time.monotonic()
            buckets.take([("seat", ("seat", 1), rate)])  # waits for Redis, once
            assert time.monotonic() - started < 3
            started = time.monotonic()
            buckets.take([("seat", ("seat", 1), rate)])  # this process's own, at once
            assert time.monotonic() - started < 0.1
        finally:
            os.kill(own_redis.pid, signal.SIGCONT)
        assert listener.listening.wait(12)
    finally:
        listener.stop()
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len([m for m in said if "Redis unreachable" in m]) == 1, said
    assert len([m for m in said if "Redis back" in m]) == 1, said
    assert len([m for m in said if "own buckets" in m]) == 1, said


def test_notices_wait_for_redis_the_oldest_dropped_past_max_queued(
    own_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While Redis is away the publisher keeps the newest ``MAX_QUEUED`` notices, in order,
    and sends them once Redis is back (here at ``retry_now``: the back-off is made long)."""
    monkeypatch.setattr(publisher_module, "MAX_QUEUED", 10)
    monkeypatch.setattr(publisher_module, "RETRY_FIRST", 30.0)
    publisher = Publisher(connect(own_redis.url))
    failed: list[BaseException] = []
    send = publisher._send

    def sent(batch: Any) -> Any:
        try:
            return send(batch)
        except BaseException as exc:
            failed.append(exc)
            raise

    publisher._send = sent  # type: ignore[method-assign]
    try:
        own_redis.kill()
        for n in range(15):
            publisher.publish(CHANNEL, f"{OTHER}:1:{n}:")
        assert _until(lambda: failed, 10)  # the first try failed: the next is 30 s away
        own_redis.start()
        outside = _listener(own_redis.url, CHANNEL)
        try:
            publisher.retry_now()
            assert _heard(outside, 10, seconds=5) == [f"{OTHER}:1:{n}:" for n in range(5, 15)]
        finally:
            outside.close()
    finally:
        publisher.close()
