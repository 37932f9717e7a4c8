"""Alembic environment: batch mode and the naming convention, so SQLite and PostgreSQL match.

Run from code (``rulebound.store.migrate.upgrade``) with a connection in
``config.attributes["connection"]``, or from the command line with
``-x url=sqlite:///path`` to generate a new revision.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from rulebound.store.engine import make_engine
from rulebound.store.schema import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url", "sqlite:///./rulebound.sqlite3")
    engine = make_engine(url)
    with engine.connect().execution_options(rulebound_write=True) as connection:
        _run(connection)
        connection.commit()
    engine.dispose()


run_migrations_online()
