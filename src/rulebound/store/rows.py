"""Rows to the store's dataclasses (JSON columns as dicts, datetimes made UTC-aware)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Row

from rulebound.store.base import (
    CharacterRow,
    LogEntry,
    Member,
    Privacy,
    Role,
    Seed,
    TableRow,
)


def _aware(value: datetime) -> datetime:
    """UTC, whatever the database hands back (SQLite: naive; PostgreSQL: the session's zone)."""
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


def table_row(row: Row[Any]) -> TableRow:
    m = row._mapping
    return TableRow(
        id=m["id"],
        name=m["name"],
        ruleset=m["ruleset"],
        variants=dict(m["variants"]),
        gm_token=m["gm_token"],
        player_token=m["player_token"],
        observer_token=m["observer_token"],
        created_at=_aware(m["created_at"]),
    )


def member_row(row: Row[Any]) -> Member:
    m = row._mapping
    return Member(
        id=m["id"],
        table_id=m["table_id"],
        role=cast(Role, m["role"]),
        name=m["name"],
        revoked=bool(m["revoked"]),
        grant_all=bool(m["grant_all"]),
        created_at=_aware(m["created_at"]),
    )


def character_row(row: Row[Any]) -> CharacterRow:
    m = row._mapping
    return CharacterRow(
        id=m["id"],
        table_id=m["table_id"],
        owner_id=m["owner_id"],
        name=m["name"],
        sheet=dict(m["sheet"]),
        version=m["version"],
        updated_at=_aware(m["updated_at"]),
    )


def entry_row(row: Row[Any]) -> LogEntry:
    m = row._mapping
    return LogEntry(
        id=m["id"],
        table_id=m["table_id"],
        seq=m["seq"],
        kind=m["kind"],
        privacy=cast(Privacy, m["privacy"]),
        actor_id=m["actor_id"],
        character_id=m["character_id"],
        parent_id=m["parent_id"],
        record=dict(m["record"]),
        card=None if m["card"] is None else dict(m["card"]),
        summary=m["summary"],
        created_at=_aware(m["created_at"]),
        changed=tuple(int(i) for i in m["changed"]),
        prev_hash=m["prev_hash"],
        hash=m["hash"],
        salt=m["salt"],
        commitment=m["commitment"],
        client_seed=m["client_seed"],
        nonce=m["nonce"],
    )


def seed_row(row: Row[Any]) -> Seed:
    """A seed as anyone may see it: the secret stays out until it is revealed."""
    m = row._mapping
    revealed = None if m["revealed_at"] is None else _aware(m["revealed_at"])
    return Seed(
        commitment=m["commitment"],
        server_seed=m["server_seed"] if revealed is not None else None,
        created_at=_aware(m["created_at"]),
        revealed_at=revealed,
    )
