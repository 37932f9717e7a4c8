"""Discord interactions answered (issue 17): ``discord_interactions`` keeps each one's id, so
that a signed request sent again within the timestamp window is refused, across processes."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rulebound.store.migrations.shapes import snowflake

revision = "0007"
down_revision = "0006"
TABLE, INDEX = "discord_interactions", "ix_discord_interactions_signed_at"


def upgrade() -> None:
    key = sa.PrimaryKeyConstraint("interaction_id", name=f"pk_{TABLE}")
    signed_at = sa.Column("signed_at", sa.Integer(), nullable=False)
    op.create_table(TABLE, snowflake("interaction_id"), signed_at, key)
    op.create_index(INDEX, TABLE, ["signed_at"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name=TABLE)
    op.drop_table(TABLE)
