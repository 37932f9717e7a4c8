from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebound.store import SqlStore
from rulebound.store.testing import BACKENDS, PG_ENV, postgres_url, reset_postgres, sqlite_url


@pytest.fixture(scope="session")
def pg_url() -> str | None:
    url = postgres_url()
    if url:
        reset_postgres(url)
    return url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> str:
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    if pg_url is None:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set: CI must test PostgreSQL (.ci/run sets it)")
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    return pg_url


@pytest.fixture
def store(db_url: str) -> Iterator[SqlStore]:
    opened = SqlStore(db_url)
    yield opened
    opened.close()
