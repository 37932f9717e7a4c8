"""Engines for SQLite and PostgreSQL, set up the way concurrent writers need.

SQLite: every connection runs in WAL mode with a busy timeout, ``synchronous=NORMAL``
and foreign keys on. pysqlite's own transaction handling is switched off
(``isolation_level = None``) and the engine's ``begin`` event emits the BEGIN
itself: ``BEGIN IMMEDIATE`` for a write transaction, so a read-then-write never
has to upgrade its lock (the cause of "database is locked" under busy_timeout),
and a plain deferred ``BEGIN`` for reads.

PostgreSQL goes through psycopg 3 (``postgresql+psycopg://``) and the same code.

Both engines hide SQL parameters from their errors (``hide_parameters``): a failed
statement is logged without the values it carried (invite and session tokens among them).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import StaticPool

from rulebound.core.stored import Stored
from rulebound.store.checkpoints import BACKSTOP

WRITE_OPTION = "rulebound_write"
"""Execution option that marks a connection's next transaction as a write."""

SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    f"PRAGMA wal_autocheckpoint={BACKSTOP}",  # the store's thread checkpoints (checkpoints)
)


POOL_SIZE = 40
"""As many connections as the server has request threads (anyio's default limit)."""
PG_POOL_SIZE = 20
"""Per process: PostgreSQL's own default limit is 100 connections in all."""


def store_json(value: Any) -> str:
    """The engines' JSON serializer: SQLAlchemy's default (``json.dumps``), but a
    ``Stored`` value is written as the text it already is."""
    return value.text if type(value) is Stored else json.dumps(value)


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` as psycopg 3 URLs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if not is_sqlite(url):
        # no pre-ping (a round trip before every checkout): a connection the server dropped
        # fails its request once, and SQLAlchemy then replaces every pooled connection
        return create_engine(
            url,
            hide_parameters=True,
            pool_size=PG_POOL_SIZE,
            max_overflow=20,
            json_serializer=store_json,
        )
    database = make_url(url).database
    pooling: dict[str, Any] = {"poolclass": StaticPool}  # one database in memory, shared
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        pooling = {"pool_size": POOL_SIZE}  # every request thread keeps its connection
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 5.0},
        hide_parameters=True,
        json_serializer=store_json,
        **pooling,
    )
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        _patiently(cursor, pragma)
    cursor.close()


def _patiently(cursor: Any, statement: str, seconds: float = 5.0) -> None:
    """Run ``statement``, waiting out a lock. SQLite answers a journal-mode change "database
    is locked" at once, without its busy timeout, while another process holds a lock on a
    new file (servers that start together, one of them migrating it)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            cursor.execute(statement)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.02)


def _sqlite_begin(connection: Connection) -> None:
    write = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
