"""Tables, members, characters, the table log and server secrets.

Revision ID: 0001
Revises:
Create Date: 2026-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _when(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("variants", sa.JSON(), nullable=False),
        sa.Column("gm_token", sa.String(64), nullable=False),
        sa.Column("player_token", sa.String(64), nullable=False),
        sa.Column("observer_token", sa.String(64), nullable=True),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_game_tables"),
        sa.UniqueConstraint("gm_token", name="uq_game_tables_gm_token"),
        sa.UniqueConstraint("player_token", name="uq_game_tables_player_token"),
        sa.UniqueConstraint("observer_token", name="uq_game_tables_observer_token"),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("grant_all", sa.Boolean(), nullable=False),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_members"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_members_table_id_game_tables"
        ),
        sa.UniqueConstraint("session_hash", name="uq_members_session_hash"),
    )
    op.create_index("ix_members_table_id", "members", ["table_id"])
    op.create_table(
        "characters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _when("updated_at"),
        sa.PrimaryKeyConstraint("id", name="pk_characters"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_characters_table_id_game_tables"
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["members.id"], name="fk_characters_owner_id_members"
        ),
    )
    op.create_index("ix_characters_table_id", "characters", ["table_id"])
    op.create_table(
        "log_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("privacy", sa.String(16), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("card", sa.JSON(), nullable=True),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("changed", sa.JSON(), nullable=False),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_log_entries"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_log_entries_table_id_game_tables"
        ),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["members.id"], name="fk_log_entries_actor_id_members"
        ),
        sa.ForeignKeyConstraint(
            ["character_id"], ["characters.id"], name="fk_log_entries_character_id_characters"
        ),
        sa.ForeignKeyConstraint(
            ["parent_id"], ["log_entries.id"], name="fk_log_entries_parent_id_log_entries"
        ),
        sa.UniqueConstraint("table_id", "seq", name="uq_log_entries_table_id_seq"),
        sa.UniqueConstraint("parent_id", name="uq_log_entries_parent_id"),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("value", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_server_secrets"),
    )


def downgrade() -> None:
    for name in ("server_secrets", "log_entries", "characters", "members", "game_tables"):
        op.drop_table(name)
