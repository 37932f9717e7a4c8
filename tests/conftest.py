import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from rulebound.store.testing import BACKENDS, PG_ENV, postgres_url, reset_postgres, sqlite_url

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
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(scope="session")
def pg_url() -> str | None:
    """The throwaway PostgreSQL that scripts/with-postgres starts, emptied once per run."""
    url = postgres_url()
    if url:
        reset_postgres(url)
    return url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> str:
    """Each persistence test runs on a fresh SQLite file and on the real PostgreSQL server."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    if pg_url is None:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set: CI must test PostgreSQL (.ci/run sets it)")
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    return pg_url
