"""Run the Alembic migrations at start: the database is always at ``head`` before serving."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


MIGRATION_LOCK = 0x72756C65
"""The PostgreSQL advisory lock every process takes to migrate ("rule")."""


@cache
def script_heads() -> frozenset[str]:
    """The revisions ``head`` names, read from the migration scripts once per process."""
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def _at_head(connection: Connection) -> bool:
    """The database's ``alembic_version`` names exactly the scripts' heads (a new
    database, with no version table, is at none)."""
    current = MigrationContext.configure(connection).get_current_heads()
    return frozenset(current) == script_heads()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` inside one locked write transaction.

    Processes that start together migrate one after another: SQLite's ``BEGIN
    IMMEDIATE`` and PostgreSQL's advisory lock are held from reading the version to the
    commit, and Alembic, inside a transaction it did not open, commits nothing between
    revisions (it would, on SQLite, and a second process would run a revision again).
    A database already at ``head`` is only read: its version, under the same lock, and
    Alembic's command is not run at all.
    """
    connect = engine.connect().execution_options(rulebound_write=True)
    with connect as connection, connection.begin():
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        if revision == "head" and _at_head(connection):
            return
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
