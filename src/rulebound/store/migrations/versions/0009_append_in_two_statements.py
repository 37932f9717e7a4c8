"""Once a leaner ``rulebound_append`` on PostgreSQL; now empty, as 0008 is."""

from __future__ import annotations

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    """Nothing: see 0008's docstring."""


def downgrade() -> None:
    """Nothing: see 0008's docstring."""
