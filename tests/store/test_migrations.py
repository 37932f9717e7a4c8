from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from rulebound.store import SqlStore
from rulebound.store.engine import make_engine
from rulebound.store.migrate import alembic_config, upgrade
from rulebound.store.schema import metadata
from rulebound.store.testing import reset_postgres, sqlite_url

from .conftest import new_table


def test_the_migrations_build_exactly_the_schema(store: SqlStore) -> None:
    with store.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert version == ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_opening_again_is_a_no_op_and_keeps_data(db_url: str) -> None:
    first = SqlStore(db_url)
    table = new_table(first, "Kept")[0]
    first.close()
    again = SqlStore(db_url)
    assert again.table(table.id).name == "Kept"
    again.close()


def test_sqlite_connections_use_wal_and_foreign_keys(tmp_path: Path) -> None:
    store = SqlStore(sqlite_url(tmp_path))
    with store.engine.connect() as conn:
        pragmas = {
            name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
        }
    assert pragmas == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "busy_timeout": 5000,
        "synchronous": 1,
    }
    store.close()


def _migrate(url: str, go: Any) -> None:
    engine = make_engine(url)
    go.wait(timeout=60)
    upgrade(engine)
    engine.dispose()


def test_servers_starting_at_once_migrate_a_new_database_once(db_url: str) -> None:
    """Processes that start together on an empty database all come up at head: the whole
    upgrade is one locked transaction (it used to commit between revisions, and a second
    process then ran a revision again: "index ... already exists")."""
    forks = multiprocessing.get_context("fork")
    for _ in range(3):
        if db_url.startswith("postgresql"):
            reset_postgres(db_url)
        else:
            Path(db_url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        go = forks.Barrier(4)
        starts = [forks.Process(target=_migrate, args=(db_url, go)) for _ in range(4)]
        for process in starts:
            process.start()
        for process in starts:
            process.join(timeout=120)
        assert [p.exitcode for p in starts] == [0, 0, 0, 0]
    store = SqlStore(db_url)
    with store.engine.connect() as conn:
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    store.close()
    assert version == [ScriptDirectory.from_config(alembic_config()).get_current_head()]
