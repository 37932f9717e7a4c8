"""The entries a reveal showed to the whole table (issues 12 and 14).

``revealed_entries`` names, for each "reveal" log entry, the entries of the chain it
revealed (its record's ``reveals``), so that every viewer's sheets count their changes.
The reveals logged before this revision are indexed from their records; the log itself
is not touched.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rulebound.store.migrations.shapes import references

revision = "0006"
down_revision = "0005"

LOG = sa.table(
    "log_entries",
    sa.column("id", sa.Integer()),
    sa.column("table_id", sa.Integer()),
    sa.column("kind", sa.String()),
    sa.column("record", sa.JSON()),
)


def upgrade() -> None:
    revealed = op.create_table(
        "revealed_entries",
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("reveal_id", sa.Integer(), nullable=False),
        references("revealed_entries", "entry_id", "log_entries"),
        references("revealed_entries", "reveal_id", "log_entries"),
        sa.PrimaryKeyConstraint("entry_id", "reveal_id", name="pk_revealed_entries"),
    )
    conn = op.get_bind()
    reveals = conn.execute(
        sa.select(LOG.c.id, LOG.c.table_id, LOG.c.record).where(LOG.c.kind == "reveal")
    ).all()
    rows = []
    for reveal_id, table_id, record in reveals:
        named = record.get("reveals") if isinstance(record, dict) else None
        ids = [i for i in named or () if isinstance(i, int) and not isinstance(i, bool)]
        if not ids:
            continue
        same_table = sa.select(LOG.c.id).where(LOG.c.table_id == table_id, LOG.c.id.in_(ids))
        found = set(conn.execute(same_table).scalars())
        rows += [{"entry_id": i, "reveal_id": reveal_id} for i in sorted(found)]
    if rows:
        op.bulk_insert(revealed, rows)


def downgrade() -> None:
    op.drop_table("revealed_entries")
