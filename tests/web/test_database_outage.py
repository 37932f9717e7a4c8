"""A database that is away, full or read-only answers 503 with a message naming which: the
database cannot be reached (a connection refused or dropped, a server shutting down, an
SQLite file that cannot be opened), its disk is full, or it is read-only. A PostgreSQL of the
test's own (``throwaway.OwnPostgres``) stopped with ``-m immediate`` under a running app:
every write answers that 503 at once, the LISTEN thread logs the outage once as it starts
and once as it ends, and writes succeed again once the server is back, with no restart."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from httpx2 import Response
from psycopg import errors as pg_errors
from sqlalchemy.exc import DBAPIError
from starlette.requests import Request

from rulebound.web.app import create_app
from rulebound.web.backplane.postgres import PgListener, conninfo
from rulebound.web.errors import handle_database
from rulebound.web.settings import Settings

from ..client import AppClient
from .conftest import games_for_tests, seat_party
from .test_notices import _until
from .throwaway import OwnPostgres

ROLL = {"form": {"skill": "Force"}, "privacy": "public"}


def _answered(orig: Exception, base: type[Exception]) -> tuple[int, dict[str, str], str]:
    exc = DBAPIError.instance("INSERT INTO log_entries ...", None, orig, base)
    scope = {"type": "http", "method": "POST", "path": "/api/tables/1/characters/1/roll"}
    request = Request(scope | {"headers": [], "query_string": b""})
    # a thread of its own: the browser tests' Playwright may still run a loop on this one
    with ThreadPoolExecutor(1) as pool:
        response = pool.submit(asyncio.run, handle_database(request, exc)).result()
    return response.status_code, json.loads(bytes(response.body)), response.headers["retry-after"]


REFUSED = (
    'connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection'
    " refused\n\tIs the server running on that host and accepting TCP/IP connections?"
)
DROPPED = (
    "consuming input failed: server closed the connection unexpectedly\n\tThis probably"
    " means the server terminated abnormally\n\tbefore or while processing the request."
)


@pytest.mark.parametrize(
    ("orig", "base"),
    [
        (psycopg.OperationalError(REFUSED), psycopg.Error),
        (psycopg.OperationalError(DROPPED), psycopg.Error),
        (
            pg_errors.AdminShutdown("terminating connection due to administrator command"),
            psycopg.Error,
        ),
        (pg_errors.CannotConnectNow("the database system is starting up"), psycopg.Error),
        (sqlite3.OperationalError("unable to open database file"), sqlite3.Error),
    ],
    ids=["refused", "dropped", "shutting-down", "starting-up", "sqlite-unopenable"],
)
def test_a_database_that_cannot_be_reached_is_named_so(
    orig: Exception, base: type[Exception]
) -> None:
    status, body, retry_after = _answered(orig, base)
    assert status == 503
    assert body["error"] == "unavailable"
    assert "database cannot be reached" in body["detail"], body
    assert retry_after == "5"
    assert "disk" not in body["detail"], body
    assert "read-only" not in body["detail"], body
    assert "nothing of this action was saved" in body["detail"]


@pytest.mark.parametrize(
    ("orig", "base"),
    [
        (pg_errors.DiskFull("could not extend file"), psycopg.Error),
        (sqlite3.OperationalError("database or disk is full"), sqlite3.Error),
    ],
    ids=["postgresql", "sqlite"],
)
def test_a_full_disk_is_named_so(orig: Exception, base: type[Exception]) -> None:
    status, body, retry_after = _answered(orig, base)
    assert status == 503
    assert retry_after == "30"
    assert "disk is full" in body["detail"], body
    assert "read-only" not in body["detail"]
    assert "cannot be reached" not in body["detail"]


@pytest.mark.parametrize(
    ("orig", "base"),
    [
        (
            pg_errors.ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"),
            psycopg.Error,
        ),
        (sqlite3.OperationalError("attempt to write a readonly database"), sqlite3.Error),
    ],
    ids=["postgresql", "sqlite"],
)
def test_a_read_only_database_is_named_so(orig: Exception, base: type[Exception]) -> None:
    status, body, retry_after = _answered(orig, base)
    assert status == 503
    assert retry_after == "30"
    assert "read-only" in body["detail"], body
    assert "disk" not in body["detail"]
    assert "cannot be reached" not in body["detail"]


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    server = OwnPostgres().start().create_database()
    yield server
    server.close()


def test_a_stopped_postgresql_answers_503_naming_the_database_and_recovers_without_a_restart(
    own_postgres: OwnPostgres, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    settings = Settings(
        database_url=own_postgres.url,
        games=games_for_tests,
        session_rate=None,
        table_rate=None,
        anonymous_rate=None,
    )
    with AppClient(create_app(settings), raise_server_exceptions=False) as client:
        party = seat_party(client)
        made = client.post(party.url("/characters"), json={"name": "Ana"}, headers=party.player)
        assert made.status_code == 201, made.text
        roll = party.url(f"/characters/{made.json()['id']}/roll")
        assert client.post(roll, json=ROLL, headers=party.player).status_code == 201
        own_postgres.stop("immediate")
        character = party.url(f"/characters/{made.json()['id']}")
        writes: list[Callable[[], Response]] = [
            lambda: client.post(party.url("/characters"), json={"name": "Bo"}, headers=party.gm),
            lambda: client.patch(
                character, json={"form": {"skills.Force": "D8"}}, headers=party.gm
            ),
            lambda: client.post(roll, json=ROLL, headers=party.player),
        ]
        for write in writes * 2:
            started = time.monotonic()
            refused = write()
            assert time.monotonic() - started < 2
            assert refused.status_code == 503, refused.text
            assert refused.headers["content-type"] == "application/json"
            detail = refused.json()["detail"]
            assert "database cannot be reached" in detail, detail
            assert "disk" not in detail
        time.sleep(2)  # the LISTEN thread tries again meanwhile
        own_postgres.start()
        deadline = time.monotonic() + 10
        status = 0
        while status != 201 and time.monotonic() < deadline:
            status = client.post(roll, json=ROLL, headers=party.player).status_code
            time.sleep(0.05)
        assert status == 201, "writes did not succeed again once PostgreSQL was back"
        assert _until(  # the LISTEN thread is back too
            lambda: any("PostgreSQL back" in r.getMessage() for r in caplog.records), 10
        )
    said = [r.getMessage() for r in caplog.records if r.name == "rulebound.web.backplane"]
    down = [m for m in said if "PostgreSQL unreachable" in m]
    back = [m for m in said if "PostgreSQL back" in m]
    assert len(down) == 1, said
    assert len(back) == 1, said


def test_the_listen_thread_logs_a_postgresql_outage_once_as_it_starts_and_once_as_it_ends(
    own_postgres: OwnPostgres, caplog: pytest.LogCaptureFixture
) -> None:
    """Without Redis, PostgreSQL's LISTEN carries the notices: stopped, its thread says so
    once (not at each try); back, it listens again and says that once."""
    caplog.set_level(logging.INFO, logger="rulebound.web.backplane")
    heard: list[tuple[int, str, str, str]] = []
    listener = PgListener(own_postgres.url, lambda *notice: heard.append(notice))
    listener.start()
    try:
        assert listener.listening.wait(10)
        own_postgres.stop("immediate")
        assert _until(lambda: not listener.linked, 5)
        time.sleep(3)  # several tries meanwhile
        own_postgres.start()
        assert listener.listening.wait(10)
        with psycopg.connect(conninfo(own_postgres.url), autocommit=True) as conn:
            conn.execute("SELECT pg_notify('rulebound_log', '7:3:someone:')")
        assert _until(lambda: heard == [(7, "3", "someone", "")], 5)
    finally:
        listener.stop()
    said = [r.getMessage() for r in caplog.records if r.name == "rulebound.web.backplane"]
    down = [m for m in said if "PostgreSQL unreachable" in m]
    back = [m for m in said if "PostgreSQL back" in m]
    assert len(down) == 1, said
    assert len(back) == 1, said
    assert f"127.0.0.1:{own_postgres.port}/rulebound_test" in down[0]
