"""Discord channel links and the Discord identities of members (issue 17).

- ``discord_channels``: a channel bound to a table by its game master's invite;
- ``discord_members``: which member of a table a Discord user is (one seat per table).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "discord_channels",
        sa.Column("channel_id", sa.String(32), nullable=False),
        sa.Column("guild_id", sa.String(32), nullable=True),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("linked_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_discord_channels_table_id_game_tables"
        ),
        sa.ForeignKeyConstraint(
            ["linked_by"], ["members.id"], name="fk_discord_channels_linked_by_members"
        ),
        sa.PrimaryKeyConstraint("channel_id", name="pk_discord_channels"),
    )
    op.create_index("ix_discord_channels_table_id", "discord_channels", ["table_id"])
    op.create_table(
        "discord_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_discord_members_table_id_game_tables"
        ),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name="fk_discord_members_member_id_members"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_discord_members"),
        sa.UniqueConstraint("member_id", name="uq_discord_members_member_id"),
        sa.UniqueConstraint("table_id", "user_id", name="uq_discord_members_table_id_user_id"),
    )


def downgrade() -> None:
    op.drop_table("discord_members")
    op.drop_index("ix_discord_channels_table_id", table_name="discord_channels")
    op.drop_table("discord_channels")
