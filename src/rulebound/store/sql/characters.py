"""Characters, as each viewer sees them: the stored sheet less the changes they may not see.

A character's row holds the stored sheet (every change applied) and its ``base``; a
viewer who may not see some of the entries that changed it is shown ``base`` with the
changes they may see folded in (``store.history``), and the version less those they may
not.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, RowMapping, and_, select, update

from rulebound.core.canonical import json_copy
from rulebound.store.base import CharacterRow, Conflict, NewEntry, NotFound, Scope
from rulebound.store.history import fold
from rulebound.store.rows import character_row
from rulebound.store.schema import characters, used_nonces
from rulebound.store.sql.common import StoreBase, now
from rulebound.store.sql.log import LogPart, sheet_name
from rulebound.store.sql.queries import (
    CHARACTER,
    CHARACTERS,
    CHARACTERS_BY_ID,
    FOLDED,
    HIDDEN,
)
from rulebound.store.writer import Batch


class CharactersPart(LogPart, StoreBase):
    def create_character(
        self,
        table_id: int,
        owner_id: int | None,
        sheet: dict[str, Any],
        summary: str,
        *,
        nonce: str | None = None,
    ) -> CharacterRow:
        values = {
            "table_id": table_id,
            "owner_id": owner_id,
            "name": sheet_name(sheet),
            "sheet": sheet,
            "base": sheet,
            "version": 1,
            "updated_at": now(),
        }

        def write(batch: Batch) -> Callable[[], int]:
            batch.lock([table_id])
            if nonce is not None:
                spend(batch.conn, table_id, nonce)
            key = batch.conn.execute(characters.insert().values(**values)).inserted_primary_key
            assert key is not None
            made = int(key[0])
            self._seal(batch, NewEntry(table_id, "character", "public", owner_id, summary, made))
            return lambda: made

        return self.character(table_id, self._write(write, [table_id]))

    def use_nonce(self, table_id: int, nonce: str) -> None:
        def write(batch: Batch) -> Callable[[], None]:
            spend(batch.conn, table_id, nonce)
            return lambda: None

        self._write(write, [table_id])

    def character(
        self, table_id: int, character_id: int, scope: Scope | None = None, *, shared: bool = False
    ) -> CharacterRow:
        """The character as ``scope`` sees it, from the cache while nothing that could change
        it was committed (a sheet change, hidden or not, a reveal, a new owner: each drops
        the table's characters). The caller gets its own copy of the sheet, or (``shared``)
        the cached row itself, which it only reads."""
        key = ("seen", character_id, scope)
        found = self.cache.get(table_id, "characters", key)
        if isinstance(found, CharacterRow):
            return found if shared else copied(found)
        generation = self.cache.generation(table_id, "characters")
        with self._read() as conn:
            params = {"table_id": table_id, "character_id": character_id}
            row = conn.execute(CHARACTER, params).mappings().first()
            if row is None:
                raise NotFound("character", character_id)
            seen = as_seen(conn, table_id, scope, [row])[0]
        self.cache.put(table_id, "characters", key, seen, generation)
        return seen if shared else copied(seen)

    def characters(self, table_id: int, scope: Scope | None = None) -> list[CharacterRow]:
        def load() -> list[CharacterRow]:
            with self._read() as conn:
                rows = list(conn.execute(CHARACTERS, {"table_id": table_id}).mappings())
                return as_seen(conn, table_id, scope, rows)

        if scope is not None:
            return load()
        return list(self._cached(table_id, "characters", "all", lambda: tuple(load())))

    def characters_by_id(self, table_id: int, ids: Iterable[int]) -> Mapping[int, CharacterRow]:
        # as stored: the entry ``character(table_id, id)`` keeps
        return self._by_ids(
            table_id, "characters", ids, _as_stored, CHARACTERS_BY_ID, character_row
        )

    def set_owner(self, table_id: int, character_id: int, owner_id: int | None) -> CharacterRow:
        where = and_(characters.c.table_id == table_id, characters.c.id == character_id)

        def write(batch: Batch) -> Callable[[], None]:
            done = batch.conn.execute(update(characters).where(where).values(owner_id=owner_id))
            if done.rowcount == 0:
                raise NotFound("character", character_id)
            batch.changed.append((table_id, ("characters",)))
            return lambda: None

        self._write(write, [table_id])
        return self.character(table_id, character_id)


def _as_stored(character_id: int) -> Hashable:
    """The cache's key of a character as stored (``character`` without a scope)."""
    return ("seen", character_id, None)


def spend(conn: Connection, table_id: int, nonce: str) -> None:
    """Spend a single-use value: a second spend is refused (the primary key holds it)."""
    used = select(used_nonces.c.nonce).where(used_nonces.c.nonce == nonce)
    if conn.execute(used).first() is not None:
        raise Conflict("nonce", "this step was already taken: go on from the step it led to")
    conn.execute(used_nonces.insert().values(nonce=nonce, table_id=table_id, created_at=now()))


def copied(row: CharacterRow) -> CharacterRow:
    """A cached row with sheets of its own: nothing its reader does reaches the cache."""
    stored = None if row.stored is None else json_copy(row.stored)
    return replace(row, sheet=json_copy(row.sheet), stored=stored)


def hidden_changes(conn: Connection, table_id: int, scope: Scope) -> dict[int, int]:
    """How many sheet changes of each character ``scope`` may not see: read each time (a
    reveal changes it), from the index of the entries that changed a sheet."""
    hidden: dict[int, int] = {}
    keys = {"table_id": table_id, "member_id": scope.member_id}
    for deltas in conn.execute(HIDDEN[scope.is_gm], keys).scalars():
        for key in deltas:
            hidden[int(key)] = hidden.get(int(key), 0) + 1
    return hidden


def as_seen(
    conn: Connection,
    table_id: int,
    scope: Scope | None,
    rows: Sequence[RowMapping],
) -> list[CharacterRow]:
    """Characters as ``scope`` sees them (None: as stored): base plus the deltas of the
    entries it sees whole or that were revealed."""
    stored = [character_row(row) for row in rows]
    if scope is None or not rows:
        return stored
    hidden = hidden_changes(conn, table_id, scope)
    if not hidden.keys() & {row.id for row in stored}:
        return stored
    keys = {"table_id": table_id, "member_id": scope.member_id}
    seen = list(conn.execute(FOLDED[scope.is_gm], keys).scalars())
    found = []
    for row, raw in zip(stored, rows, strict=True):
        if row.id not in hidden:
            found.append(row)
            continue
        key = str(row.id)
        sheet = fold(raw["base"], (d[key] for d in seen if key in d))
        found.append(
            replace(
                row,
                name=sheet_name(sheet),
                sheet=sheet,
                version=row.version - hidden[row.id],
                hidden=hidden[row.id],
                stored=row.sheet,
            )
        )
    return found
