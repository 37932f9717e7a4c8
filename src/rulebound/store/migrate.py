"""Run the Alembic migrations at start: the database is always at ``head`` before serving."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


MIGRATION_LOCK = 0x72756C65
"""The PostgreSQL advisory lock every process takes to migrate ("rule")."""


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` inside one locked write transaction.

    Processes that start together migrate one after another: SQLite's ``BEGIN
    IMMEDIATE`` and PostgreSQL's advisory lock are held from reading the version to the
    commit, and Alembic, inside a transaction it did not open, commits nothing between
    revisions (it would, on SQLite, and a second process would run a revision again).
    """
    config = alembic_config()
    connect = engine.connect().execution_options(rulebound_write=True)
    with connect as connection, connection.begin():
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
