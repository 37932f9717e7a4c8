"""Per-roll contributions, sheet history, single-use form nonces (issue 14).

- ``log_entries``: ``contribution`` and ``server_chosen`` (each play's own dice input,
  unique per table), ``deltas`` (the sheet leaves an entry changed, per character);
- ``characters.base``: the sheet the deltas start from, filled with the current sheet
  (changes logged before this revision are part of it);
- ``used_nonces``: values a signed form may carry once;
- ``game_tables.client_seed`` and ``nonce`` go: nobody sets a table-wide client seed any
  more, and no nonce is shared by a table's rolls. Entries logged with them keep them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rulebound.store.migrations.shapes import references, when

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column("log_entries", sa.Column("contribution", sa.String(64), nullable=True))
    op.add_column("log_entries", sa.Column("server_chosen", sa.Boolean(), nullable=True))
    op.add_column("log_entries", sa.Column("deltas", sa.JSON(), nullable=True))
    op.create_index(
        "uq_log_entries_table_id_contribution",
        "log_entries",
        ["table_id", "contribution"],
        unique=True,
    )
    op.add_column("characters", sa.Column("base", sa.JSON(), nullable=False, server_default="{}"))
    op.execute("UPDATE characters SET base = sheet")
    op.create_table(
        "used_nonces",
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        when("created_at"),
        sa.PrimaryKeyConstraint("nonce", name="pk_used_nonces"),
        references("used_nonces", "table_id", "game_tables"),
    )
    with op.batch_alter_table("game_tables", recreate="never") as batch:
        batch.drop_column("nonce")
        batch.drop_column("client_seed")


def downgrade() -> None:
    op.add_column(
        "game_tables", sa.Column("client_seed", sa.String(128), nullable=False, server_default="")
    )
    op.add_column(
        "game_tables", sa.Column("nonce", sa.Integer(), nullable=False, server_default="0")
    )
    op.execute(
        "UPDATE game_tables SET nonce = COALESCE((SELECT max(nonce) FROM log_entries"
        " WHERE log_entries.table_id = game_tables.id), 0)"
    )
    op.drop_table("used_nonces")
    op.drop_index("uq_log_entries_table_id_contribution", table_name="log_entries")
    with op.batch_alter_table("log_entries", recreate="never") as batch:
        for name in ("deltas", "server_chosen", "contribution"):
            batch.drop_column(name)
    with op.batch_alter_table("characters", recreate="never") as batch:
        batch.drop_column("base")
