from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rulebound.store import CharacterRow, Member, SqlStore, TableRow


@pytest.fixture
def store(db_url: str) -> Iterator[SqlStore]:
    opened = SqlStore(db_url)
    yield opened
    opened.close()


def new_table(
    store: SqlStore,
    name: str = "T",
    variants: dict[str, str] | None = None,
    *,
    observers: bool = False,
) -> tuple[TableRow, Member]:
    """A table and the game master it is opened by (its seq 1 logs that)."""
    table, gm, _ = store.create_table(
        name, "empty-reach", variants or {}, observers=observers, founder="Gina", summary="open"
    )
    return table, gm


def seat(store: SqlStore, table_id: int, role: Any, name: str) -> tuple[Member, str]:
    return store.add_member(table_id, role, name, f"{name} joined")


def character(
    store: SqlStore, table_id: int, owner: int | None, sheet: dict[str, Any]
) -> CharacterRow:
    return store.create_character(table_id, owner, sheet, "created")
