"""The entries a reveal showed to the whole table (issues 12 and 14).

``revealed_entries`` names, for each "reveal" log entry, the entries of the chain it
revealed (its record's ``reveals``), so that every viewer's sheets count their changes.
The reveals logged before this revision are indexed from their records; the log itself
is not touched.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

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
        sa.ForeignKeyConstraint(
            ["entry_id"], ["log_entries.id"], name="fk_revealed_entries_entry_id_log_entries"
        ),
        sa.ForeignKeyConstraint(
            ["reveal_id"], ["log_entries.id"], name="fk_revealed_entries_reveal_id_log_entries"
        ),
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
