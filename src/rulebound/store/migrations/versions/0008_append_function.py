"""Once PostgreSQL's append in one statement (``rulebound_append``); now empty.

The store's writer seals and appends every entry itself (``store/writer``) and nothing
calls the function, so the step that made it makes nothing. A database that went through
it when it still did has the function until 0010 drops it.
"""

from __future__ import annotations

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    """Nothing: see the module's docstring."""


def downgrade() -> None:
    """Nothing: see the module's docstring."""
