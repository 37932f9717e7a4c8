"""Tables, members, characters, the table log and server secrets."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rulebound.store.migrations.shapes import keyed, references, table_row, when

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        *keyed("game_tables"),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("variants", sa.JSON(), nullable=False),
        sa.Column("gm_token", sa.String(64), nullable=False),
        sa.Column("player_token", sa.String(64), nullable=False),
        sa.Column("observer_token", sa.String(64), nullable=True),
        when("created_at"),
        sa.UniqueConstraint("gm_token", name="uq_game_tables_gm_token"),
        sa.UniqueConstraint("player_token", name="uq_game_tables_player_token"),
        sa.UniqueConstraint("observer_token", name="uq_game_tables_observer_token"),
    )
    op.create_table(
        "members",
        *table_row("members"),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("grant_all", sa.Boolean(), nullable=False),
        when("created_at"),
        sa.UniqueConstraint("session_hash", name="uq_members_session_hash"),
    )
    op.create_index("ix_members_table_id", "members", ["table_id"])
    op.create_table(
        "characters",
        *table_row("characters"),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        when("updated_at"),
        references("characters", "owner_id", "members"),
    )
    op.create_index("ix_characters_table_id", "characters", ["table_id"])
    op.create_table(
        "log_entries",
        *table_row("log_entries"),
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
        when("created_at"),
        references("log_entries", "actor_id", "members"),
        references("log_entries", "character_id", "characters"),
        references("log_entries", "parent_id", "log_entries"),
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
