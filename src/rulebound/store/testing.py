"""Helpers for test suites that run the same tests on SQLite and PostgreSQL.

``RULEBOUND_TEST_PG_URL`` names a throwaway PostgreSQL database (``.ci/run``
starts one through ``scripts/with-postgres``); without it the PostgreSQL
parameter is skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import text

from rulebound.store.engine import make_engine, normalise_url
from rulebound.store.schema import metadata

PG_ENV = "RULEBOUND_TEST_PG_URL"
BACKENDS = ("sqlite", "postgresql")


def postgres_url() -> str | None:
    url = os.environ.get(PG_ENV, "").strip()
    return normalise_url(url) if url else None


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'rulebound.sqlite3'}"


def reset_postgres(url: str) -> None:
    """Drop every rulebound table (and the append function) so the next store migrates a
    clean database."""
    engine = make_engine(url)
    with engine.begin() as conn:
        metadata.drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        conn.execute(text("DROP FUNCTION IF EXISTS rulebound_append"))
    engine.dispose()
