"""Rows to the store's dataclasses (JSON columns as dicts, datetimes made UTC-aware)."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Row, RowMapping

from rulebound.store.base import CharacterRow, LogEntry, Member, Seed, TableRow

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")


def _aware(value: datetime) -> datetime:
    """UTC, whatever the database hands back (SQLite: naive; PostgreSQL: the session's zone)."""
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


def _of(cls: type[T], m: RowMapping, **converted: Any) -> T:
    """``cls`` from the columns named as its fields, with ``converted`` values in their place."""
    given = {f.name: m[f.name] for f in fields(cls) if f.name not in converted}
    return cls(**given, **converted)


def table_row(row: Row[Any]) -> TableRow:
    m = row._mapping
    return _of(TableRow, m, variants=dict(m["variants"]), created_at=_aware(m["created_at"]))


def member_row(row: Row[Any]) -> Member:
    m = row._mapping
    flags = {name: bool(m[name]) for name in ("revoked", "grant_all")}
    return _of(Member, m, **flags, created_at=_aware(m["created_at"]))


def character_row(row: Row[Any]) -> CharacterRow:
    m = row._mapping
    return _of(
        CharacterRow,
        m,
        sheet=dict(m["sheet"]),
        updated_at=_aware(m["updated_at"]),
        hidden=0,
        stored=None,
    )


def entry_row(row: Row[Any]) -> LogEntry:
    m = row._mapping
    chosen = m["server_chosen"]
    return _of(
        LogEntry,
        m,
        server_chosen=None if chosen is None else bool(chosen),
        record=dict(m["record"]),
        card=None if m["card"] is None else dict(m["card"]),
        created_at=_aware(m["created_at"]),
        changed=tuple(int(i) for i in m["changed"]),
        card_text=None,
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
