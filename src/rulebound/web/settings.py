"""Settings for the web table, from the environment or the ``serve`` command's options."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rulebound.core.random_source import RandomSource, SystemSource
from rulebound.rulesets.base import Variant
from rulebound.rulesets.table import TableRules

DEFAULT_DATABASE_URL = "sqlite:///./rulebound.sqlite3"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

SourceFactory = Callable[[int], RandomSource]
"""Where a table's dice come from, by table id (issue 8 plugs in a committed seed here)."""


@dataclass(frozen=True, slots=True)
class Game:
    """What the table needs to know about one ruleset: its adapter, title and variants."""

    key: str
    title: str
    table: TableRules
    variants: tuple[Variant, ...] = ()


def registry_games() -> dict[str, Game]:
    """Every registered ruleset that exports a table adapter."""
    from rulebound.rulesets.registry import all_tables, get_ruleset

    games = {}
    for key, table in all_tables().items():
        ruleset = get_ruleset(key)
        games[key] = Game(key, ruleset.title, table, tuple(ruleset.variants))
    return games


def system_source(_table_id: int) -> RandomSource:
    return SystemSource()


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    poll_seconds: float = 2.0
    """How often a feed reads the log when nothing woke it (other processes on SQLite)."""
    keepalive_seconds: float = 15.0
    source: SourceFactory = system_source
    games: Callable[[], Mapping[str, Game]] = field(default=registry_games)
    page_size: int = 50

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            database_url=env.get("RULEBOUND_DATABASE_URL") or DEFAULT_DATABASE_URL,
            host=env.get("RULEBOUND_HOST") or DEFAULT_HOST,
            port=int(env.get("RULEBOUND_PORT") or DEFAULT_PORT),
        )
