"""The SQLAlchemy 2 store: one code path for SQLite and PostgreSQL.

Every write goes through the writer (``store/writer``): one thread (SQLite) or a few
(PostgreSQL) take what waits and write it in one transaction, each table's lock taken
once (``SELECT ... FOR UPDATE`` on its row; on SQLite, ``BEGIN IMMEDIATE`` holds the
database's), so two writers, threads or processes, can never fork a table's chain. Every
method that changes something writes its log entry in the same transaction: one user
action is one commit, or nothing. A contribution is used once per table (a unique index).

The parts, by what they keep: ``tables`` (tables, invites, members), ``characters``,
``log`` (entries, committed seeds, server secrets), ``discord`` (channels, identities).
"""

from __future__ import annotations

import secrets

from rulebound.store.cache import Cache
from rulebound.store.checkpoints import Checkpoints
from rulebound.store.engine import is_sqlite, make_engine, normalise_url
from rulebound.store.migrate import upgrade
from rulebound.store.sealing import parts_changed
from rulebound.store.sql.characters import CharactersPart
from rulebound.store.sql.common import NOTIFY_CHANNEL, PG_WRITERS, SQLITE_WRITERS
from rulebound.store.sql.discord import DiscordPart
from rulebound.store.sql.queries import folded_for, shown_to, visible_to
from rulebound.store.writer import Writer

__all__ = ["NOTIFY_CHANNEL", "SqlStore", "folded_for", "parts_changed", "shown_to", "visible_to"]


class SqlStore(CharactersPart, DiscordPart):
    def __init__(
        self,
        url: str,
        *,
        migrate: bool = True,
        pg_notify: bool = True,
        writers: int | None = None,
    ) -> None:
        """``writers``: transactions under way at once (the writer's threads; by default
        one on SQLite, ``PG_WRITERS`` on PostgreSQL)."""
        self.url = normalise_url(url)
        self.sqlite = is_sqlite(self.url)
        self.engine = make_engine(self.url)
        self.listeners = []
        self.committed = []
        self.changed = []
        self.pg_notify = pg_notify and not self.sqlite
        self.cache = Cache()
        self.origin = secrets.token_hex(8)
        self._secrets = {}
        self._seeds = {}
        database = self.engine.url.database if self.sqlite else None
        file = database not in (None, "", ":memory:")
        self.checkpoints = Checkpoints(str(database)) if file else None
        """SQLite's checkpoints, off the writer's path (``store/checkpoints``)."""
        if migrate:
            upgrade(self.engine)
        self.writer = Writer(
            self.engine,
            threads=writers or (SQLITE_WRITERS if self.sqlite else PG_WRITERS),
            before_commit=self._before_commit,
            after_commit=self._after_commit,
        )

    def close(self) -> None:
        self.writer.close()
        if self.checkpoints is not None:
            self.checkpoints.close()
        self.engine.dispose()
