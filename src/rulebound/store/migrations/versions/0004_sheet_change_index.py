"""An index of the log entries that changed a sheet (issue 13).

Reading a character as one viewer sees it counts the sheet changes hidden from them
(``store.history``). A partial index over the entries with ``deltas`` makes that a look
at the few entries that changed a sheet, not a scan of the table's whole log.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"

WHERE = sa.text("deltas IS NOT NULL")


def upgrade() -> None:
    op.create_index(
        "ix_log_entries_sheet_changes",
        "log_entries",
        ["table_id", "privacy", "actor_id"],
        sqlite_where=WHERE,
        postgresql_where=WHERE,
    )


def downgrade() -> None:
    op.drop_index("ix_log_entries_sheet_changes", table_name="log_entries")
