"""Rows to the store's dataclasses (JSON columns as dicts, datetimes made UTC-aware).

Each takes a row as a mapping of its columns (``Result.mappings()``)."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import RowMapping

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


def table_row(m: RowMapping) -> TableRow:
    return _of(TableRow, m, variants=dict(m["variants"]), created_at=_aware(m["created_at"]))


def member_row(m: RowMapping) -> Member:
    flags = {name: bool(m[name]) for name in ("revoked", "grant_all")}
    return _of(Member, m, **flags, created_at=_aware(m["created_at"]))


def character_row(m: RowMapping) -> CharacterRow:
    return _of(
        CharacterRow,
        m,
        sheet=dict(m["sheet"]),
        updated_at=_aware(m["updated_at"]),
        hidden=0,
        stored=None,
    )


def entry_row(m: RowMapping) -> LogEntry:
    chosen = m["server_chosen"]
    return _of(
        LogEntry,
        m,
        server_chosen=None if chosen is None else bool(chosen),
        record=dict(m["record"]),
        card=None if m["card"] is None else dict(m["card"]),
        created_at=_aware(m["created_at"]),
        changed=tuple(int(i) for i in m["changed"]),
    )


def seed_row(m: RowMapping) -> Seed:
    """A seed as anyone may see it: the secret stays out until it is revealed."""
    revealed = None if m["revealed_at"] is None else _aware(m["revealed_at"])
    return Seed(
        commitment=m["commitment"],
        server_seed=m["server_seed"] if revealed is not None else None,
        created_at=_aware(m["created_at"]),
        revealed_at=revealed,
    )
