"""The table log: appending entries (with the sheet changes and dice they carry), reading
them, and the table's committed seeds.

Every entry is sealed onto its table's chain in the transaction that writes it, under the
table's lock (``Batch.head``), so two writers can never fork a chain. A play drawn from the
committed dice is computed before it is queued, from the seed this process last saw in
force, so the rules never run under a table's lock; its write checks that this seed is
still the one in force, and if not (a rotation, perhaps by another process) computes it
again with the one that is.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, Select, and_, select, update
from sqlalchemy.exc import IntegrityError

from rulebound.store.base import (
    Conflict,
    Contribution,
    Dice,
    EntryOutline,
    LogEntry,
    NewEntry,
    NotFound,
    Scope,
    Seed,
    SheetChange,
    Staged,
    StillOpen,
)
from rulebound.store.rows import entry_row, seed_row
from rulebound.store.schema import characters, game_tables, log_entries, secrets_table, table_seeds
from rulebound.store.sealing import Head, index_reveal, sealed
from rulebound.store.sql.common import StoreBase, now
from rulebound.store.sql.dice import commit_seed, current_seed, next_dice
from rulebound.store.sql.queries import (
    CHILD,
    ENTRIES,
    ENTRY,
    FOLLOWED,
    LAST_SEQ,
    LOG,
    OUTLINES,
    REVEALED,
    TAIL,
    knows_of,
)
from rulebound.store.writer import Appended, Batch


def _logged_since(batch: Batch, table_id: int, still_open: StillOpen) -> list[EntryOutline]:
    """The outlines of the entries after ``still_open.seq`` that its scope may know of:
    committed (the batch holds the table, so none can land meanwhile), then those this
    batch has sealed and not inserted."""
    scope = still_open.scope
    values: dict[str, Any] = {"table_id": table_id, "member_id": scope.member_id}
    values |= {"after": still_open.seq, "limit": batch.head(table_id).seq}
    values["kinds"] = list(still_open.kinds)
    found = [
        EntryOutline(r.id, r.seq, r.kind, r.parent_id, r.character_id, dict(r.record or {}))
        for r in batch.conn.execute(OUTLINES[scope.is_gm], values)
    ]
    for row in batch.pending(table_id):
        v = row.values
        if not knows_of(v, scope.is_gm, scope.member_id):
            continue
        record = v["record"].value if v["kind"] in still_open.kinds else {}
        outline = EntryOutline(0, v["seq"], v["kind"], v["parent_id"], v["character_id"], record)
        found.append(outline)
    return [outline for outline in found if outline.seq > still_open.seq]


def sheet_name(sheet: dict[str, Any]) -> str:
    name = sheet.get("name")
    return str(name)[:200] if name else "Unnamed"


class LogPart(StoreBase):
    _seeds: dict[int, tuple[str, str]]
    """Per table, the seed (commitment, secret) this process last saw in force."""
    _secrets: dict[str, bytes]

    # writing

    def _seal(
        self,
        batch: Batch,
        entry: NewEntry,
        changes: Sequence[SheetChange] = (),
        dice: Dice | None = None,
        read: Sequence[tuple[int, int]] = (),
        still_open: StillOpen | None = None,
    ) -> Appended:
        """Apply the sheet changes and seal the entry onto its table's chain, in ``batch``."""
        batch.lock([entry.table_id])
        batch.check_versions([*read, *((c.character_id, c.expected_version) for c in changes)])
        if still_open is not None and batch.head(entry.table_id).seq > still_open.seq:
            still_open.check(_logged_since(batch, entry.table_id, still_open))
        for change in changes:
            apply_change(batch, entry.table_id, change)
        after = None
        if entry.kind == "reveal":
            record = entry.record if isinstance(entry.record, dict) else entry.record.value
            after = index_reveal(record, entry.table_id)

        def make(head: Head) -> tuple[Any, Head]:
            return sealed(entry, changes, dice, head)

        return batch.seal(entry.table_id, make, after_insert=after)

    def append(
        self,
        entry: NewEntry,
        changes: Sequence[SheetChange] = (),
        *,
        read: Sequence[tuple[int, int]] = (),
        still_open: StillOpen | None = None,
    ) -> LogEntry:
        def write(batch: Batch) -> Callable[[], LogEntry]:
            return self._seal(batch, entry, changes, None, read, still_open).logged

        return self._logged(write, [entry.table_id], [(entry, None)], _read_ids(read, changes))

    def append_drawn(
        self,
        table_id: int,
        build: Callable[[Dice], Staged],
        contribution: Contribution | None = None,
    ) -> LogEntry:
        known = self._seeds.get(table_id) or self._seed_in_force(table_id)
        early: tuple[Dice, Staged] | None = None
        if known is not None and (contribution is None or contribution.commitment == known[0]):
            value = os.urandom(16).hex() if contribution is None else contribution.value
            dice = Dice(known[1], known[0], value, contribution is None)
            early = dice, _checked(build(dice), table_id)
        used: list[tuple[NewEntry, Dice]] = []

        def write(batch: Batch) -> Callable[[], LogEntry]:
            head = batch.head(table_id)
            if early is not None and head.commitment == early[0].commitment:
                dice, staged = early
            else:
                dice = next_dice(batch, table_id, head, contribution)
                staged = _checked(build(dice), table_id)
            used[:] = [(staged.entry, dice)]
            appended = self._seal(
                batch, staged.entry, staged.changes, dice, staged.read, staged.still_open
            )

            def logged() -> LogEntry:
                self._seeds[table_id] = (dice.commitment, dice.server_seed)
                return appended.logged()

            return logged

        read = () if early is None else _read_ids(early[1].read, early[1].changes)
        return self._logged(write, [table_id], used, read)

    def _logged(
        self,
        write: Callable[[Batch], Callable[[], LogEntry]],
        tables: Sequence[int],
        wrote: Sequence[tuple[NewEntry, Dice | None]] = (),
        characters: Sequence[int] = (),
    ) -> LogEntry:
        """``write`` through the writer; a constraint it broke becomes Conflict (``_lost``,
        told of the entry and dice it ``wrote`` last). ``characters``: the sheets whose
        versions it checks, where known before it runs."""
        try:
            return self.writer.run(write, tables, characters)
        except IntegrityError as exc:
            raise self._lost(*(wrote[-1] if wrote else (None, None))) from exc

    def _lost(self, entry: NewEntry | None, dice: Dice | None) -> Conflict:
        """Why a write's constraint failed: a result already followed up, a contribution
        already used, or a concurrent writer."""
        parent = None if entry is None else entry.parent_id
        if parent is not None and self.has_child(parent):
            return Conflict("follow-up", "this result was already followed up")
        if entry is not None and dice is not None and not dice.server_chosen:
            c = log_entries.c
            used = select(c.id).where(
                c.table_id == entry.table_id, c.contribution == dice.contribution
            )
            with self._read() as conn:
                if conn.execute(used).first() is not None:
                    return Conflict(
                        "dice",
                        "this contribution was already used at this table: make a fresh"
                        " random one for each roll",
                    )
        return Conflict("log", "a concurrent write won; try again")

    # committed dice

    def _seed_in_force(self, table_id: int) -> tuple[str, str] | None:
        with self._read() as conn:
            seed = current_seed(conn, table_id)
        if seed is None:
            return None
        known = self._seeds[table_id] = (str(seed["commitment"]), str(seed["server_seed"]))
        return known

    def commitment(self, table_id: int) -> str:
        with self._read() as conn:
            seed = current_seed(conn, table_id)
            if seed is None:
                exists = select(game_tables.c.id).where(game_tables.c.id == table_id)
                if conn.execute(exists).first() is None:
                    raise NotFound("table", table_id)
        return "" if seed is None else str(seed["commitment"])

    def seeds(self, table_id: int) -> list[Seed]:
        c = table_seeds.c
        query = select(table_seeds).where(c.table_id == table_id).order_by(c.id)
        with self._read() as conn:
            return [seed_row(row) for row in conn.execute(query).mappings()]

    def rotate_seed(
        self, table_id: int, build: Callable[[Seed | None, Seed], NewEntry]
    ) -> LogEntry:
        def write(batch: Batch) -> Callable[[], LogEntry]:
            batch.head(table_id)  # the table's lock, first
            old = current_seed(batch.conn, table_id)
            revealed = None
            if old is not None:
                at = now()
                c = table_seeds.c
                batch.conn.execute(
                    update(table_seeds).where(c.id == old["id"]).values(revealed_at=at)
                )
                revealed = replace(seed_row(old), server_seed=old["server_seed"], revealed_at=at)
            commit_seed(batch, table_id)
            new = seed_row(current_seed(batch.conn, table_id))
            return self._seal(batch, build(revealed, new)).logged

        return self._logged(write, [table_id])

    # reading

    def log(self, table_id: int) -> list[LogEntry]:
        with self._read() as conn:
            return [entry_row(row) for row in conn.execute(LOG, {"table_id": table_id}).mappings()]

    def entry(self, table_id: int, entry_id: int) -> LogEntry:
        with self._read() as conn:
            return _entry(conn, table_id, entry_id)

    def chain(self, table_id: int, entry_id: int) -> list[LogEntry]:
        with self._read() as conn:  # one connection for the whole chain
            found = [_entry(conn, table_id, entry_id)]
            while found[-1].parent_id is not None:
                found.append(_entry(conn, table_id, found[-1].parent_id))
        return found[::-1]

    def has_child(self, entry_id: int) -> bool:
        with self._read() as conn:
            return conn.execute(CHILD, {"entry_id": entry_id}).first() is not None

    def followed(self, entry_ids: Sequence[int]) -> set[int]:
        return self._among(FOLLOWED, entry_ids)

    def revealed(self, entry_ids: Sequence[int]) -> set[int]:
        return self._among(REVEALED, entry_ids)

    def _among(self, query: Select[Any], entry_ids: Sequence[int]) -> set[int]:
        """The ids of ``entry_ids`` that ``query`` (over ``:entry_ids``) finds."""
        if not entry_ids:
            return set()
        with self._read() as conn:
            return {int(i) for i in conn.execute(query, {"entry_ids": list(entry_ids)}).scalars()}

    def entries(
        self,
        table_id: int,
        scope: Scope,
        *,
        after: int | None = None,
        before: int | None = None,
        limit: int = 50,
        kind: str | None = None,
    ) -> list[LogEntry]:
        bounds = {"after": after, "before": before, "kind": kind}
        values = {k: v for k, v in bounds.items() if v is not None}
        shape = (scope.is_gm, "after" in values, "before" in values, "kind" in values)
        values |= {"table_id": table_id, "member_id": scope.member_id, "limit": limit}
        with self._read() as conn:
            rows = conn.execute(ENTRIES[shape], values).mappings()
            return [entry_row(row) for row in rows]

    def outlines(
        self,
        table_id: int,
        scope: Scope,
        *,
        after: int,
        limit: int = 50,
        kinds: Collection[str] = (),
    ) -> list[EntryOutline]:
        values: dict[str, Any] = {"table_id": table_id, "member_id": scope.member_id}
        values |= {"after": after, "limit": limit, "kinds": list(kinds)}
        with self._read() as conn:
            rows = conn.execute(OUTLINES[scope.is_gm], values).all()
        return [
            EntryOutline(r.id, r.seq, r.kind, r.parent_id, r.character_id, dict(r.record or {}))
            for r in rows
        ]

    def tail(self, table_id: int, after: int, limit: int = 100) -> list[LogEntry]:
        values = {"table_id": table_id, "after": after, "limit": limit}
        with self._read() as conn:
            return [entry_row(row) for row in conn.execute(TAIL, values).mappings()]

    def last_seq(self, table_id: int) -> int:
        with self._read() as conn:
            return int(conn.execute(LAST_SEQ, {"table_id": table_id}).scalar() or 0)

    # server secrets

    def secret(self, name: str) -> bytes:
        if name not in self._secrets:
            self._secrets[name] = self._secret(name)
        return self._secrets[name]

    def _secret(self, name: str) -> bytes:
        query = select(secrets_table.c.value).where(secrets_table.c.name == name)
        with self._read() as conn:
            value = conn.execute(query).scalar()
        if value is not None:
            return bytes(value)

        def write(batch: Batch) -> Callable[[], bytes]:
            found = batch.conn.execute(query).scalar()
            if found is None:
                found = secrets.token_bytes(32)
                batch.conn.execute(secrets_table.insert().values(name=name, value=found))
            made = bytes(found)
            return lambda: made

        try:
            return self.writer.run(write)
        except IntegrityError:  # another process made it first
            return self._secret(name)


def _read_ids(read: Sequence[tuple[int, int]], changes: Sequence[SheetChange]) -> list[int]:
    """The sheets a write checks the versions of (``LogPart._seal``)."""
    return [cid for cid, _ in read] + [change.character_id for change in changes]


def _entry(conn: Connection, table_id: int, entry_id: int) -> LogEntry:
    row = conn.execute(ENTRY, {"table_id": table_id, "entry_id": entry_id}).mappings().first()
    if row is None:
        raise NotFound("log entry", entry_id)
    return entry_row(row)


def _checked(staged: Staged, table_id: int) -> Staged:
    if staged.entry.table_id != table_id:
        raise ValueError("a play drawn with one table's dice must be logged at that table")
    return staged


def apply_change(batch: Batch, table_id: int, change: SheetChange) -> None:
    """Write a sheet change, only onto the version it was computed from (Conflict if not)."""
    c = characters.c
    where = and_(c.table_id == table_id, c.id == change.character_id)
    done = batch.conn.execute(
        update(characters)
        .where(where, c.version == change.expected_version)
        .values(
            sheet=change.sheet,
            name=sheet_name(change.sheet),
            version=c.version + 1,
            updated_at=now(),
        )
    )
    if done.rowcount != 1:
        raise Conflict(
            "character",
            f"character {change.character_id} changed since it was read; reload and try again",
        )
    batch.changed_version(change.character_id, change.expected_version + 1)
