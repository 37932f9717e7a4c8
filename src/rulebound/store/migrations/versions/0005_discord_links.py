"""Discord channel links and the Discord identities of members (issue 17).

- ``discord_channels``: a channel bound to a table by its game master's invite;
- ``discord_members``: which member of a table a Discord user is (one seat per table).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rulebound.store.migrations.shapes import of_table, references, snowflake, table_row, when

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "discord_channels",
        snowflake("channel_id"),
        snowflake("guild_id", nullable=True),
        *of_table("discord_channels"),
        sa.Column("linked_by", sa.Integer(), nullable=False),
        when("created_at"),
        references("discord_channels", "linked_by", "members"),
        sa.PrimaryKeyConstraint("channel_id", name="pk_discord_channels"),
    )
    op.create_index("ix_discord_channels_table_id", "discord_channels", ["table_id"])
    op.create_table(
        "discord_members",
        *table_row("discord_members"),
        snowflake("user_id"),
        sa.Column("member_id", sa.Integer(), nullable=False),
        when("created_at"),
        references("discord_members", "member_id", "members"),
        sa.UniqueConstraint("member_id", name="uq_discord_members_member_id"),
        sa.UniqueConstraint("table_id", "user_id", name="uq_discord_members_table_id_user_id"),
    )


def downgrade() -> None:
    op.drop_table("discord_members")
    op.drop_index("ix_discord_channels_table_id", table_name="discord_channels")
    op.drop_table("discord_channels")
