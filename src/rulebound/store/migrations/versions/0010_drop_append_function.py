"""PostgreSQL's ``rulebound_append`` goes, from databases that an older 0008 or 0009 gave it.

Every entry is sealed in Python by the store's writer, under the table's lock, in batches
(``store/writer``); a second copy of the seal in PL/pgSQL would only have to be kept equal
to the first. Going back recreates nothing: the code that called the function is gone.
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS rulebound_append")


def downgrade() -> None:
    """Nothing: see the module's docstring."""
