"""``SqlStore``: the store's one class, its parts (``tables``, ``characters``, ``log``,
``discord``) put together."""

from __future__ import annotations

import secrets

from rulebound.store.cache import Cache
from rulebound.store.checkpoints import Checkpoints
from rulebound.store.engine import is_sqlite, make_engine, normalise_url
from rulebound.store.migrate import upgrade
from rulebound.store.sql.characters import CharactersPart
from rulebound.store.sql.common import PG_WRITERS, SQLITE_WRITERS
from rulebound.store.sql.discord import DiscordPart
from rulebound.store.writer import Writer


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
