"""Settings for the web table, from the environment or the ``serve`` command's options."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebound.core.random_source import RandomSource, SystemSource
from rulebound.rulesets.contract import Variant
from rulebound.rulesets.plays import TableRules
from rulebound.web.ratelimit import Rate

DEFAULT_DATABASE_URL = "sqlite:///./rulebound.sqlite3"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_BODY_BYTES = 1024 * 1024
SESSION_RATE = Rate(30, 5.0)
TABLE_RATE = Rate(120, 20.0)
ANONYMOUS_RATE = Rate(30, 0.5)

SourceFactory = Callable[[int], RandomSource]
"""Where a table's dice come from, by table id: tests inject seeded sources here. The default
(``Settings.source = None``) draws every logged play from the table's committed seed, inside
the transaction that logs it (see ``web/fairness.py`` and ``docs/security.md``)."""


@dataclass(frozen=True, slots=True)
class TableGame:
    """What the table needs to know about one game: its rules at the table, title, variants."""

    key: str
    title: str
    table: TableRules[Any, Any]
    variants: tuple[Variant, ...] = ()


def registry_games() -> dict[str, TableGame]:
    """Every registered game: each one's contract, behind the generic ``TableRules``."""
    from rulebound.rulesets.registry import all_games

    return {
        key: TableGame(key, game.title, TableRules(game), tuple(game.variants))
        for key, game in all_games().items()
        if game.sheets is not None
    }


def system_source(_table_id: int) -> RandomSource:
    """OS entropy: what draws that are never logged use (guided creation's) by default."""
    return SystemSource()


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    poll_seconds: float = 2.0
    """How often a table's feed reads the log's last seq when nothing woke it (writers in
    other processes without a backplane: several processes on one SQLite file)."""
    keepalive_seconds: float = 15.0
    source: SourceFactory | None = None
    """None: verifiable dice from each table's committed seed; a factory: that source instead."""
    games: Callable[[], Mapping[str, TableGame]] = field(default=registry_games)
    page_size: int = 50
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    """Larger request bodies are refused with 413."""
    session_rate: Rate | None = SESSION_RATE
    """Unsafe requests per seat (None: no limit); 429 with Retry-After past it."""
    table_rate: Rate | None = TABLE_RATE
    """Unsafe requests per table, all seats together."""
    anonymous_rate: Rate | None = ANONYMOUS_RATE
    """Opening tables and joining, per client address."""
    redis_url: str | None = None
    """Redis as the backplane between server processes (notices, shared rate limits)."""
    discord_public_key: str | None = None
    """A Discord application's public key (hex): the interactions endpoint is served only then."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            database_url=env.get("RULEBOUND_DATABASE_URL") or DEFAULT_DATABASE_URL,
            host=env.get("RULEBOUND_HOST") or DEFAULT_HOST,
            port=int(env.get("RULEBOUND_PORT") or DEFAULT_PORT),
            max_body_bytes=int(env.get("RULEBOUND_MAX_BODY_BYTES") or DEFAULT_MAX_BODY_BYTES),
            session_rate=_rate(env, "RULEBOUND_RATE_SESSION", SESSION_RATE),
            table_rate=_rate(env, "RULEBOUND_RATE_TABLE", TABLE_RATE),
            anonymous_rate=_rate(env, "RULEBOUND_RATE_ANONYMOUS", ANONYMOUS_RATE),
            redis_url=env.get("RULEBOUND_REDIS_URL") or None,
            discord_public_key=env.get("RULEBOUND_DISCORD_PUBLIC_KEY") or None,
            poll_seconds=float(env.get("RULEBOUND_POLL_SECONDS") or 2.0),
        )


def _rate(env: Mapping[str, str], name: str, default: Rate) -> Rate | None:
    """``BURST/PER_SECOND`` (``30/5``) or ``off``; unset: the default."""
    text = env.get(name)
    return default if not text else Rate.parse(text)
