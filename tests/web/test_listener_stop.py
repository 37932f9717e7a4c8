"""Stopping a backplane's listener wakes it: ``stop()`` returns once the thread has ended,
not after the listener's wait for notices runs out (an app's shutdown, and each test that
opens a table on PostgreSQL or Redis, would otherwise wait for it). The wake is the
listener's own: nothing is heard from it. Needs RULEBOUND_TEST_PG_URL and
RULEBOUND_TEST_REDIS_URL (``.ci/run`` sets both)."""

from __future__ import annotations

import time

import psycopg
import pytest

from rulebound.store.sql import NOTIFY_CHANNEL
from rulebound.web.backplane import listener as redis_listener
from rulebound.web.backplane.postgres import PgListener, conninfo

from .test_notices import Heard
from .test_processes import redis_url  # noqa: F401  (the fixture)

WAIT = 60.0
"""Each listener's wait for notices in these tests: far longer than any stop may take."""


def test_a_postgres_listener_stops_at_once_and_hears_nothing_of_its_wake(
    required_pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = required_pg_url
    monkeypatch.setattr(PgListener, "wait_seconds", WAIT)
    heard: list[tuple[int, str, str, str]] = []
    listener = PgListener(url, lambda *notice: heard.append(notice))
    listener.start()
    assert listener.listening.wait(10)
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, '7:3:other:')", [NOTIFY_CHANNEL])
    deadline = time.monotonic() + 10
    while not heard and time.monotonic() < deadline:
        time.sleep(0.01)
    assert heard == [(7, "3", "other", "")]
    started = time.monotonic()
    listener.stop()
    assert time.monotonic() - started < WAIT / 4
    assert not listener._thread.is_alive()
    assert heard == [(7, "3", "other", "")]


def test_a_redis_listener_stops_at_once(
    redis_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(redis_listener, "LISTEN_SECONDS", WAIT)
    heard = Heard()
    backplane = redis_listener.RedisBackplane(redis_url, heard, heard)  # type: ignore[arg-type]
    backplane.start()
    assert backplane.listening.wait(10)
    started = time.monotonic()
    backplane.stop()
    assert time.monotonic() - started < WAIT / 4
    assert not backplane._thread.is_alive()
    assert heard.events == []
