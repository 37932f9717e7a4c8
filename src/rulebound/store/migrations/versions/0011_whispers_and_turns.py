"""Whispers and the turn tracker.

- ``log_entries.to_id``: a whisper's addressee, so the read filters can show it to them
  (the record names it too, as ``to``: the chain commits to it). Nullable, and every entry
  logged before is no whisper: nothing is filled.
- ``ix_log_entries_turns``: the turn tracker's entries (kind "turn"), which its state is
  folded from on every read of the table.

SQLite adds the column with its reference inline (``ADD COLUMN ... REFERENCES``) and drops
it the same way (``DROP COLUMN``, batch mode without a rebuild), so no table is rebuilt and
its foreign keys stay on; PostgreSQL adds and drops the named constraint.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"

FK = "fk_log_entries_to_id_members"


def upgrade() -> None:
    column = sa.Column("to_id", sa.Integer(), sa.ForeignKey("members.id", name=FK), nullable=True)
    if op.get_bind().dialect.name == "sqlite":
        op.add_column("log_entries", column, inline_references=True)
    else:
        op.add_column("log_entries", sa.Column("to_id", sa.Integer(), nullable=True))
        op.create_foreign_key(FK, "log_entries", "members", ["to_id"], ["id"])
    op.create_index(
        "ix_log_entries_turns",
        "log_entries",
        ["table_id", "seq"],
        sqlite_where=sa.text("kind = 'turn'"),
        postgresql_where=sa.text("kind = 'turn'"),
    )


def downgrade() -> None:
    op.drop_index("ix_log_entries_turns", table_name="log_entries")
    if op.get_bind().dialect.name == "sqlite":  # drops the column with its inline reference
        with op.batch_alter_table("log_entries", recreate="never") as batch:
            batch.drop_column("to_id")
    else:
        op.drop_constraint(FK, "log_entries", type_="foreignkey")
        op.drop_column("log_entries", "to_id")
