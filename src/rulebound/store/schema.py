"""The tables, as SQLAlchemy Core metadata (the migrations create exactly these).

A naming convention gives every constraint a stable name, so Alembic's batch
mode can rebuild SQLite tables and PostgreSQL gets the same names.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

game_tables = Table(
    "game_tables",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), nullable=False),
    Column("ruleset", String(64), nullable=False),
    Column("variants", JSON, nullable=False),
    Column("gm_token", String(64), nullable=False, unique=True),
    Column("player_token", String(64), nullable=False, unique=True),
    Column("observer_token", String(64), nullable=True, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

members = Table(
    "members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False, index=True),
    Column("role", String(16), nullable=False),
    Column("name", String(100), nullable=False),
    Column("session_hash", String(64), nullable=False, unique=True),
    Column("revoked", Boolean, nullable=False, default=False),
    Column("grant_all", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

characters = Table(
    "characters",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False, index=True),
    Column("owner_id", Integer, ForeignKey("members.id"), nullable=True),
    Column("name", String(200), nullable=False),
    Column("sheet", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("base", JSON, nullable=False, server_default="{}"),
)
"""``sheet`` is the stored sheet (every change applied); ``base`` the sheet before the first
change with a delta (``log_entries.deltas``): each viewer's sheet is ``base`` with the deltas
they may see (``store.history``)."""

log_entries = Table(
    "log_entries",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("privacy", String(16), nullable=False),
    Column("actor_id", Integer, ForeignKey("members.id"), nullable=True),
    Column("character_id", Integer, ForeignKey("characters.id"), nullable=True),
    Column("parent_id", Integer, ForeignKey("log_entries.id"), nullable=True, unique=True),
    Column("record", JSON, nullable=False),
    Column("card", JSON, nullable=True),
    Column("summary", Text, nullable=False),
    Column("changed", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("prev_hash", String(64), nullable=False, server_default=""),
    Column("hash", String(64), nullable=False, server_default=""),
    Column("salt", String(64), nullable=False, server_default=""),
    Column("commitment", String(64), nullable=True),
    Column("client_seed", String(128), nullable=True),
    Column("nonce", Integer, nullable=True),
    Column("contribution", String(64), nullable=True),
    Column("server_chosen", Boolean, nullable=True),
    Column("deltas", JSON(none_as_null=True), nullable=True),
    UniqueConstraint("table_id", "seq"),
    Index("uq_log_entries_table_id_nonce", "table_id", "nonce", unique=True),
    Index("uq_log_entries_table_id_contribution", "table_id", "contribution", unique=True),
    Index(
        "ix_log_entries_sheet_changes",
        "table_id",
        "privacy",
        "actor_id",
        sqlite_where=text("deltas IS NOT NULL"),
        postgresql_where=text("deltas IS NOT NULL"),
    ),
)
"""``UNIQUE(table_id, seq)`` orders each table's log; ``UNIQUE(parent_id)`` means a result
is followed up at most once, so a chain of follow-ups never forks. ``prev_hash``/``hash``
chain the entries and ``salt`` hides a result inside its hash (``rulebound.trust.chain``).
``commitment`` and ``contribution`` say which committed dice a roll used: the seed, and the
roller's own random value (``server_chosen`` when the roller sent none), never used twice at
a table; plays logged before per-roll contributions name the table's ``client_seed`` and a
``nonce`` instead. ``deltas`` holds, per character id, the sheet leaves the entry changed;
``ix_log_entries_sheet_changes`` indexes the entries that have them."""

revealed_entries = Table(
    "revealed_entries",
    metadata,
    Column("entry_id", Integer, ForeignKey("log_entries.id"), primary_key=True),
    Column("reveal_id", Integer, ForeignKey("log_entries.id"), primary_key=True),
)
"""Which log entries a later "reveal" entry showed to the whole table (its record's
``reveals``), written in the reveal's own transaction: an index of the log, which stays as
logged. A revealed entry counts as seen whole by every viewer when their sheets are folded
(``store.history``), so its sheet changes appear and the version they see counts them."""

table_seeds = Table(
    "table_seeds",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False, index=True),
    Column("commitment", String(64), nullable=False, unique=True),
    Column("server_seed", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revealed_at", DateTime(timezone=True), nullable=True),
)
"""Each table's committed seeds: the unrevealed one rolls the dice; revealed ones are public."""

used_nonces = Table(
    "used_nonces",
    metadata,
    Column("nonce", String(64), primary_key=True),
    Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""Single-use values a signed form carried (guided creation's steps): once posted, spent."""

secrets_table = Table(
    "server_secrets",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", LargeBinary, nullable=False),
)

discord_channels = Table(
    "discord_channels",
    metadata,
    Column("channel_id", String(32), primary_key=True),
    Column("guild_id", String(32), nullable=True),
    Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False, index=True),
    Column("linked_by", Integer, ForeignKey("members.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""Discord channels bound to a table (``/rulebound link``): one table per channel."""

discord_members = Table(
    "discord_members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False),
    Column("user_id", String(32), nullable=False),
    Column("member_id", Integer, ForeignKey("members.id"), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "user_id"),
)
"""The Discord identity of a member seated from Discord: one seat per user and table."""
