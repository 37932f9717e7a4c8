"""Helpers for test suites that run the same tests on SQLite and PostgreSQL.

``RULEBOUND_TEST_PG_URL`` names a throwaway PostgreSQL database (``.ci/run``
starts one through ``scripts/with-postgres``); without it the PostgreSQL
parameter is skipped.

Migrating a new SQLite file costs far more than copying one already migrated: a test
run migrates one template (``migrated_sqlite``) and gives each test a copy of it
(``copied_sqlite``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from rulebound.store.engine import make_engine, normalise_url
from rulebound.store.migrate import upgrade
from rulebound.store.schema import metadata

PG_ENV = "RULEBOUND_TEST_PG_URL"
BACKENDS = ("sqlite", "postgresql")
SQLITE_FILE = "rulebound.sqlite3"


def postgres_url() -> str | None:
    url = os.environ.get(PG_ENV, "").strip()
    return normalise_url(url) if url else None


def worker_postgres_url(url: str, worker: str) -> str:
    """A database of ``worker``'s own on ``url``'s server (created when missing), so
    parallel test processes never see one another's tables."""
    base = make_url(normalise_url(url))
    name = f"{base.database}_{worker}"
    engine = make_engine(url).execution_options(isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
            if found.first() is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / SQLITE_FILE}"


def migrated_sqlite(folder: Path) -> Path:
    """A new SQLite file in ``folder``, migrated to head and closed cleanly: its WAL
    checkpointed into it and removed, so the one file is the whole database."""
    engine = make_engine(sqlite_url(folder))
    try:
        upgrade(engine)
    finally:
        engine.dispose()
    path = folder / SQLITE_FILE
    left = [p.name for p in folder.iterdir() if p.name != SQLITE_FILE]
    if not path.exists() or left:
        raise RuntimeError(f"the template was not closed cleanly: {left}")
    return path


def copied_sqlite(template: Path, folder: Path) -> str:
    """The URL of a copy of ``template`` (a ``migrated_sqlite`` file) in ``folder``."""
    shutil.copyfile(template, folder / SQLITE_FILE)
    return sqlite_url(folder)


def reset_postgres(url: str) -> None:
    """Drop every rulebound table so the next store migrates a clean database."""
    engine = make_engine(url)
    with engine.begin() as conn:
        metadata.drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
