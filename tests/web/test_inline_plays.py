"""On SQLite without a backplane a roll is made on the event loop (issue 13: the thread
pool's two hops cost a third of a roll), unless it would wait for a lock: then it is made
in a thread, in its turn, with its checks (and rate-limit tokens) taken once. On
PostgreSQL it is made on the loop too, bridged: the loop awaits its append."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulebound.store import SqlStore
from rulebound.store.pglean import Pipeline
from rulebound.store.rawwrite import PIPELINES
from rulebound.web import writepath
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from .conftest import Party, seat_party

ROLL = {"form": {"skill": "Force"}, "privacy": "public"}


@pytest.fixture
def party(db_url: str) -> Iterator[Party]:
    """A party at a table whose dice are the committed ones (the default, ``source`` None):
    plays are made on the event loop only then, since a retry draws its dice again."""
    with TestClient(create_app(Settings(database_url=db_url))) as client:
        yield seat_party(client)


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each play handed to the thread pool."""
    handed: list[Any] = []
    hop = writepath.run_in_threadpool

    async def counted(func: Any, *args: Any) -> Any:
        handed.append(func)
        return await hop(func, *args)

    monkeypatch.setattr(writepath, "run_in_threadpool", counted)
    return handed


def _rolling(party: Party) -> tuple[SqlStore, str]:
    store: SqlStore = party.client.app.state.store  # type: ignore[attr-defined]
    made = party.client.post(party.url("/characters"), json={"name": "Ana"}, headers=party.player)
    path = party.url(f"/characters/{made.json()['id']}/roll")
    assert party.client.post(path, json=ROLL, headers=party.player).status_code == 201
    return store, path


def test_a_roll_is_made_on_the_event_loop(party: Party, monkeypatch: pytest.MonkeyPatch) -> None:
    store, path = _rolling(party)

    async def refused(*_: Any) -> Any:
        raise AssertionError("the play went to the thread pool")

    monkeypatch.setattr(writepath, "run_in_threadpool", refused)
    before = store.last_seq(party.table_id)
    rolled = party.client.post(path, json=ROLL, headers=party.player)
    assert rolled.status_code == 201, rolled.text
    assert rolled.json()["seq"] == before + 1 == store.last_seq(party.table_id)


def test_a_roll_that_would_wait_is_made_in_a_thread_its_checks_taken_once(
    party: Party, monkeypatch: pytest.MonkeyPatch, hops: list[Any]
) -> None:
    store, path = _rolling(party)
    if not store.sqlite:
        pytest.skip("SQLite's lock: PostgreSQL's append waits for the table's row, awaited")
    hops.clear()  # the table's first roll was made in a thread (its seed not yet known)
    limiter = party.client.app.state.limiter  # type: ignore[attr-defined]
    taken: list[Any] = []
    take = limiter.member
    monkeypatch.setattr(limiter, "member", lambda viewer: (taken.append(viewer), take(viewer)))
    tried: list[Any] = []
    on_loop = writepath._played_inline
    monkeypatch.setattr(
        writepath, "_played_inline", lambda *args: (tried.append(args), on_loop(*args))[1]
    )
    assert store.raw.database is not None
    other = sqlite3.connect(store.raw.database, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process's writer holds the database
    release = threading.Timer(0.3, other.execute, ("COMMIT",))
    release.start()
    before = store.last_seq(party.table_id)
    try:
        rolled = party.client.post(path, json=ROLL, headers=party.player)
    finally:
        release.join()
        other.close()
    assert rolled.status_code == 201, rolled.text
    assert rolled.json()["seq"] == before + 1 == store.last_seq(party.table_id)
    assert len(tried) == 1  # tried on the loop first, found the lock held
    assert len(hops) == 1
    assert len(taken) == 1


def test_a_play_that_changes_a_sheet_is_made_in_a_thread(
    party: Party, monkeypatch: pytest.MonkeyPatch, hops: list[Any]
) -> None:
    """Only rolls are tried on the loop (the driver's append); a sheet action, which
    changes a sheet through SQLAlchemy's path, goes to a thread at once and lands with
    its change."""
    store, path = _rolling(party)
    hops.clear()
    cid = int(path.rsplit("/", 2)[1])

    def refused(*_: Any) -> Any:
        raise AssertionError("a sheet action was tried on the event loop")

    monkeypatch.setattr(writepath, "_played_inline", refused)
    before = party.client.get(party.url(f"/characters/{cid}"), headers=party.gm).json()
    healed = party.client.post(
        party.url(f"/characters/{cid}/actions/heal"),
        json={"params": {"health": 1}},
        headers=party.player,
    )
    assert healed.status_code == 201, healed.text
    assert healed.json()["changed"] == [cid]
    assert len(hops) == 1
    after = party.client.get(party.url(f"/characters/{cid}"), headers=party.gm).json()
    assert after["version"] == before["version"] + 1
    assert store.last_seq(party.table_id) == healed.json()["seq"]


def test_on_postgresql_the_loop_awaits_the_append_and_a_read_the_cache_misses(
    party: Party, monkeypatch: pytest.MonkeyPatch, hops: list[Any]
) -> None:
    store, path = _rolling(party)
    if store.sqlite:
        pytest.skip("PostgreSQL's bridged plays")
    awaited: list[Any] = []
    append = store.raw.appended_async

    async def counted(values: Any) -> Any:
        awaited.append(values)
        return await append(values)

    monkeypatch.setattr(store.raw, "appended_async", counted)
    threads: list[Any] = []
    to_thread = asyncio.to_thread

    async def counted_thread(func: Any, *args: Any) -> Any:
        threads.append(threading.get_ident())
        return await to_thread(func, *args)

    monkeypatch.setattr(asyncio, "to_thread", counted_thread)
    hops.clear()
    before = store.last_seq(party.table_id)
    rolled = party.client.post(path, json=ROLL, headers=party.player)
    assert rolled.status_code == 201, rolled.text
    assert len(awaited) == 1
    assert not hops
    assert not threads  # all cached: no read at all
    store.forget(party.table_id)  # as if another process changed the table
    again = party.client.post(path, json=ROLL, headers=party.player)
    assert again.status_code == 201, again.text
    assert len(awaited) == 2
    assert not hops
    assert threads  # what the cache missed was read in a thread, the loop awaiting it
    assert again.json()["seq"] == before + 2 == store.last_seq(party.table_id)
    entry = party.client.get(party.url(f"/entries/{again.json()['id']}"), headers=party.player)
    assert entry.json() == again.json()


def test_on_postgresql_an_append_connection_dropped_while_idle_is_replaced_and_no_roll_fails(
    party: Party, hops: list[Any]
) -> None:
    """The server drops the table's pipelined connection between rolls: the loop hears it
    (its socket is watched), and the next roll goes down a new one. (A drop in the middle
    of a call fails the calls waiting on it: ``tests/store/test_pglean.py``.)"""
    store, path = _rolling(party)
    if store.sqlite:
        pytest.skip("PostgreSQL's bridged plays")
    assert party.client.post(path, json=ROLL, headers=party.player).status_code == 201
    assert store.raw._pipes is not None  # the second roll, bridged, made its connection
    connection = store.raw._pipes[1][party.table_id % PIPELINES]
    assert isinstance(connection, Pipeline)
    pid = connection.driver.info.backend_pid
    with store.engine.connect() as conn:
        conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
    before = store.last_seq(party.table_id)
    deadline = time.monotonic() + 10
    while connection.usable:  # the loop reads the server's goodbye
        assert time.monotonic() < deadline, "the dropped connection went unnoticed"
        time.sleep(0.02)
    rolled = party.client.post(path, json=ROLL, headers=party.player)
    assert rolled.status_code == 201, rolled.text
    assert rolled.json()["seq"] == before + 1 == store.last_seq(party.table_id)
    now = store.raw._pipes[1][party.table_id % PIPELINES]
    assert isinstance(now, Pipeline)
    assert now is not connection
    assert now.driver.info.backend_pid != pid
