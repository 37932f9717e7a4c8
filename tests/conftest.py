import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from rulebound.store.testing import (
    BACKENDS,
    PG_ENV,
    copied_sqlite,
    migrated_sqlite,
    postgres_url,
    reset_postgres,
    sqlite_url,
    worker_postgres_url,
)

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
# CI replays the same examples on every run (a landing never hangs on a new random draw);
# local runs keep exploring with fresh ones.
settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=200,
    derandomize=True,
    print_blob=True,
)
# A long hunt for edits too rare for the suite's budget (RULEBOUND_HYPOTHESIS=deep): ten
# times the examples, fresh ones each run.
settings.register_profile(
    "deep", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=1000
)
settings.load_profile(
    os.environ.get("RULEBOUND_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "default")
)


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist each worker process gets a PostgreSQL database of its own (the
    servers its tests start inherit it), so no worker empties or counts another's tables."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = postgres_url()
    if worker and url:
        os.environ[PG_ENV] = worker_postgres_url(url, worker)


TESTS = Path(__file__).parent
FROM_BASE = {"trust/test_migration.py"}
"""Modules that build their SQLite databases up from an old revision themselves: their
files start empty, not as a copy of the migrated template."""


@pytest.fixture(scope="session")
def pg_url() -> str | None:
    """The throwaway PostgreSQL that scripts/with-postgres starts, emptied once per run."""
    url = postgres_url()
    if url:
        reset_postgres(url)
    return url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite file migrated to head per run; the tests get copies of it. The migrations
    themselves stay tested: tests/store/test_migrations.py migrates new files from nothing
    and tests/trust/test_migration.py from revision 0001."""
    return migrated_sqlite(tmp_path_factory.mktemp("migrated"))


@pytest.fixture
def sqlite_db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """A SQLite file of the test's own, already at head (a copy of the template)."""
    return copied_sqlite(sqlite_template, tmp_path)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each persistence test runs on a SQLite file of its own (a copy of the migrated
    template) and on the real PostgreSQL server (one database for the run, already at head
    after the first store opens it)."""
    if request.param == "sqlite":
        if request.path.relative_to(TESTS).as_posix() in FROM_BASE:
            return sqlite_url(tmp_path)
        return str(request.getfixturevalue("sqlite_db_url"))
    return str(request.getfixturevalue("required_pg_url"))


@pytest.fixture
def required_pg_url(pg_url: str | None) -> str:
    """The run's PostgreSQL, for a test that needs it: without it, the test fails in CI and
    is skipped elsewhere."""
    if pg_url is None:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set: CI must test PostgreSQL (.ci/run sets it)")
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    return pg_url
