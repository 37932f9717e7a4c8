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


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` inside one write transaction."""
    config = alembic_config()
    with engine.connect().execution_options(rulebound_write=True) as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        connection.commit()
