"""The tables, as SQLAlchemy Core metadata (the migrations create exactly these).

A naming convention gives every constraint a stable name, so Alembic's batch
mode can rebuild SQLite tables and PostgreSQL gets the same names.
"""

from __future__ import annotations

from datetime import datetime

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


def of_table(*, indexed: bool = False) -> Column[int]:
    """The game table a row belongs to."""
    return Column("table_id", Integer, ForeignKey("game_tables.id"), nullable=False, index=indexed)


def key() -> Column[int]:
    """The integer ``id`` that is the table's primary key."""
    return Column("id", Integer, primary_key=True)


def table_row(*, indexed: bool = False) -> tuple[Column[int], Column[int]]:
    """The integer key of a row that belongs to one game table, and its link to that table."""
    return key(), of_table(indexed=indexed)


def when(name: str, *, nullable: bool = False) -> Column[datetime]:
    """A timezone-aware timestamp column."""
    return Column(name, DateTime(timezone=True), nullable=nullable)


game_tables = Table(
    "game_tables",
    metadata,
    key(),
    Column("name", String(200), nullable=False),
    Column("ruleset", String(64), nullable=False),
    Column("variants", JSON, nullable=False),
    Column("gm_token", String(64), nullable=False, unique=True),
    Column("player_token", String(64), nullable=False, unique=True),
    Column("observer_token", String(64), nullable=True, unique=True),
    when("created_at"),
)

members = Table(
    "members",
    metadata,
    *table_row(indexed=True),
    Column("role", String(16), nullable=False),
    Column("name", String(100), nullable=False),
    Column("session_hash", String(64), nullable=False, unique=True),
    Column("revoked", Boolean, nullable=False, default=False),
    Column("grant_all", Boolean, nullable=False, default=False),
    when("created_at"),
)

characters = Table(
    "characters",
    metadata,
    *table_row(indexed=True),
    Column("owner_id", Integer, ForeignKey("members.id"), nullable=True),
    Column("name", String(200), nullable=False),
    Column("sheet", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    when("updated_at"),
    Column("base", JSON, nullable=False, server_default="{}"),
)
"""``sheet`` is the stored sheet (every change applied); ``base`` the sheet before the first
change with a delta (``log_entries.deltas``): each viewer's sheet is ``base`` with the deltas
they may see (``store.history``)."""

log_entries = Table(
    "log_entries",
    metadata,
    *table_row(),
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
    when("created_at"),
    Column("prev_hash", String(64), nullable=False, server_default=""),
    Column("hash", String(64), nullable=False, server_default=""),
    Column("salt", String(64), nullable=False, server_default=""),
    Column("commitment", String(64), nullable=True),
    Column("client_seed", String(128), nullable=True),
    Column("nonce", Integer, nullable=True),
    Column("contribution", String(64), nullable=True),
    Column("server_chosen", Boolean, nullable=True),
    Column("deltas", JSON(none_as_null=True), nullable=True),
    Column("to_id", Integer, ForeignKey("members.id"), nullable=True),
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
    Index(
        "ix_log_entries_turns",
        "table_id",
        "seq",
        sqlite_where=text("kind = 'turn'"),
        postgresql_where=text("kind = 'turn'"),
    ),
)
"""``UNIQUE(table_id, seq)`` orders each table's log; ``UNIQUE(parent_id)`` means a result
is followed up at most once, so a chain of follow-ups never forks. ``prev_hash``/``hash``
chain the entries and ``salt`` hides a result inside its hash (``rulebound.trust.chain``).
``commitment`` and ``contribution`` say which committed dice a roll used: the seed, and the
roller's own random value (``server_chosen`` when the roller sent none), never used twice at
a table; plays logged before per-roll contributions name the table's ``client_seed`` and a
``nonce`` instead. ``deltas`` holds, per character id, the sheet leaves the entry changed;
``ix_log_entries_sheet_changes`` indexes the entries that have them. ``to_id`` is a
whisper's addressee (the member its record names ``to``), so the read filters can use it;
``ix_log_entries_turns`` indexes the turn tracker's entries, which its state folds."""

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
    *table_row(indexed=True),
    Column("commitment", String(64), nullable=False, unique=True),
    Column("server_seed", String(64), nullable=False),
    when("created_at"),
    when("revealed_at", nullable=True),
)
"""Each table's committed seeds: the unrevealed one rolls the dice; revealed ones are public."""

used_nonces = Table(
    "used_nonces",
    metadata,
    Column("nonce", String(64), primary_key=True),
    of_table(),
    when("created_at"),
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
    of_table(indexed=True),
    Column("linked_by", Integer, ForeignKey("members.id"), nullable=False),
    when("created_at"),
)
"""Discord channels bound to a table (``/rulebound link``): one table per channel."""

discord_members = Table(
    "discord_members",
    metadata,
    *table_row(),
    Column("user_id", String(32), nullable=False),
    Column("member_id", Integer, ForeignKey("members.id"), nullable=False, unique=True),
    when("created_at"),
    UniqueConstraint("table_id", "user_id"),
)
"""The Discord identity of a member seated from Discord: one seat per user and table."""

discord_interactions = Table(
    "discord_interactions",
    metadata,
    Column("interaction_id", String(32), primary_key=True),
    Column("signed_at", Integer, nullable=False, index=True),
)
"""Discord interactions answered (their ids, and the signed timestamp): a replay is refused;
rows older than the signature's window are pruned, a replay of them being refused anyway."""
