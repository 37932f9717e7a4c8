"""The append is the store's own again: PostgreSQL's ``rulebound_append`` goes.

Every entry is now sealed in Python by the store's writer, under the table's lock, in
batches (``store/writer``); nothing calls the function any more, and a second copy of the
seal in PL/pgSQL would only have to be kept equal to the first.
"""

from __future__ import annotations

from importlib import import_module

from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS rulebound_append")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            import_module(
                "rulebound.store.migrations.versions.0009_append_in_two_statements"
            ).APPEND
        )
