"""The SQLAlchemy 2 store: one code path for SQLite and PostgreSQL.

Writes go through ``_write``: a process-wide lock (SQLite only; PostgreSQL
locks the table's row instead) around a ``BEGIN IMMEDIATE`` transaction. With
both, concurrent writers queue instead of failing with "database is locked".

Appending to a table's log holds that table's lock (``SELECT ... FOR UPDATE`` on
its row; on SQLite the database write lock) while it reads the last entry, takes
the next seq and nonce, and seals the entry into the hash chain, so two writers
(threads or processes) can never fork the chain or reuse a nonce.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, and_, func, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from rulebound.core.verifiable import commitment_for, new_server_seed
from rulebound.store.base import (
    CharacterRow,
    Conflict,
    Dice,
    Fairness,
    LogEntry,
    Member,
    NewEntry,
    NotFound,
    Role,
    Scope,
    Seed,
    SheetChange,
    Staged,
    TableRow,
)
from rulebound.store.engine import WRITE_OPTION, is_sqlite, make_engine, normalise_url
from rulebound.store.migrate import upgrade
from rulebound.store.rows import character_row, entry_row, member_row, seed_row, table_row
from rulebound.store.schema import (
    characters,
    game_tables,
    log_entries,
    members,
    secrets_table,
    table_seeds,
)
from rulebound.trust.chain import GENESIS, dice_of, entry_body, seal

AppendListener = Callable[[int, int], None]
"""Called after a commit with (table id, seq): wakes the table's waiting feeds."""

NOTIFY_CHANNEL = "rulebound_log"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _sheet_name(sheet: dict[str, Any]) -> str:
    name = sheet.get("name")
    return str(name)[:200] if name else "Unnamed"


class SqlStore:
    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = normalise_url(url)
        self.sqlite = is_sqlite(self.url)
        self.engine = make_engine(self.url)
        self._lock = threading.Lock()
        self.listeners: list[AppendListener] = []
        if migrate:
            upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        guard: AbstractContextManager[object] = self._lock if self.sqlite else nullcontext()
        with guard, self.engine.connect() as conn:
            conn.execution_options(**{WRITE_OPTION: True})
            with conn.begin():
                yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def _one(self, query: Select[Any], what: str, key: object) -> Row[Any]:
        """The row ``query`` finds, or NotFound naming ``what`` and ``key``."""
        with self._read() as conn:
            row = conn.execute(query).first()
        if row is None:
            raise NotFound(what, key)
        return row

    # tables and invites

    def create_table(
        self, name: str, ruleset: str, variants: dict[str, str], *, observers: bool
    ) -> TableRow:
        values = {
            "name": name,
            "ruleset": ruleset,
            "variants": dict(variants),
            "gm_token": new_token(),
            "player_token": new_token(),
            "observer_token": new_token() if observers else None,
            "created_at": _now(),
        }
        with self._write() as conn:
            table_id = conn.execute(game_tables.insert().values(**values)).inserted_primary_key
            assert table_id is not None
            _commit_seed(conn, int(table_id[0]))
        return self.table(int(table_id[0]))

    def table(self, table_id: int) -> TableRow:
        query = select(game_tables).where(game_tables.c.id == table_id)
        return table_row(self._one(query, "table", table_id))

    def table_by_token(self, token: str) -> tuple[TableRow, Role]:
        c = game_tables.c
        query = select(game_tables).where(
            or_(c.gm_token == token, c.player_token == token, c.observer_token == token)
        )
        with self._read() as conn:
            row = conn.execute(query).first()
        if row is None or not token:
            raise NotFound("invite", "(token)")
        table = table_row(row)
        role: Role = (
            "gm"
            if token == table.gm_token
            else "player"
            if token == table.player_token
            else "observer"
        )
        return table, role

    def rotate_token(self, table_id: int, role: Role, *, disable: bool = False) -> TableRow:
        if disable and role != "observer":
            raise Conflict("invite", "only the observer link can be switched off")
        column = f"{role}_token"
        with self._write() as conn:
            done = conn.execute(
                update(game_tables)
                .where(game_tables.c.id == table_id)
                .values({column: None if disable else new_token()})
            )
            if done.rowcount == 0:
                raise NotFound("table", table_id)
        return self.table(table_id)

    # members

    def add_member(self, table_id: int, role: Role, name: str) -> tuple[Member, str]:
        token = new_token()
        values = {
            "table_id": table_id,
            "role": role,
            "name": name,
            "session_hash": token_hash(token),
            "revoked": False,
            "grant_all": False,
            "created_at": _now(),
        }
        with self._write() as conn:
            key = conn.execute(members.insert().values(**values)).inserted_primary_key
            assert key is not None
            row = conn.execute(select(members).where(members.c.id == key[0])).one()
        return member_row(row), token

    def member_by_session(self, table_id: int, token: str) -> Member | None:
        query = select(members).where(
            members.c.table_id == table_id, members.c.session_hash == token_hash(token)
        )
        with self._read() as conn:
            row = conn.execute(query).first()
        return None if row is None else member_row(row)

    def member(self, table_id: int, member_id: int) -> Member:
        query = select(members).where(members.c.table_id == table_id, members.c.id == member_id)
        return member_row(self._one(query, "member", member_id))

    def members(self, table_id: int) -> list[Member]:
        query = select(members).where(members.c.table_id == table_id).order_by(members.c.id)
        with self._read() as conn:
            return [member_row(row) for row in conn.execute(query)]

    def update_member(
        self, table_id: int, member_id: int, *, revoked: bool | None, grant_all: bool | None
    ) -> Member:
        values = {
            k: v for k, v in (("revoked", revoked), ("grant_all", grant_all)) if v is not None
        }
        where = and_(members.c.table_id == table_id, members.c.id == member_id)
        with self._write() as conn:
            if values:
                conn.execute(update(members).where(where).values(**values))
            row = conn.execute(select(members).where(where)).first()
        if row is None:
            raise NotFound("member", member_id)
        return member_row(row)

    # characters

    def create_character(
        self, table_id: int, owner_id: int | None, sheet: dict[str, Any]
    ) -> CharacterRow:
        values = {
            "table_id": table_id,
            "owner_id": owner_id,
            "name": _sheet_name(sheet),
            "sheet": sheet,
            "version": 1,
            "updated_at": _now(),
        }
        with self._write() as conn:
            key = conn.execute(characters.insert().values(**values)).inserted_primary_key
            assert key is not None
        return self.character(table_id, int(key[0]))

    def character(self, table_id: int, character_id: int) -> CharacterRow:
        query = select(characters).where(
            characters.c.table_id == table_id, characters.c.id == character_id
        )
        return character_row(self._one(query, "character", character_id))

    def characters(self, table_id: int) -> list[CharacterRow]:
        query = select(characters).where(characters.c.table_id == table_id)
        with self._read() as conn:
            return [character_row(row) for row in conn.execute(query.order_by(characters.c.id))]

    def set_owner(self, table_id: int, character_id: int, owner_id: int | None) -> CharacterRow:
        where = and_(characters.c.table_id == table_id, characters.c.id == character_id)
        with self._write() as conn:
            if (
                conn.execute(update(characters).where(where).values(owner_id=owner_id)).rowcount
                == 0
            ):
                raise NotFound("character", character_id)
        return self.character(table_id, character_id)

    # the log

    def append(self, entry: NewEntry, changes: Sequence[SheetChange] = ()) -> LogEntry:
        return self._logged(lambda _conn: _Prepared(entry, changes))

    def append_drawn(self, table_id: int, build: Callable[[Dice], Staged]) -> LogEntry:
        def write(conn: Connection) -> _Prepared:
            dice = _next_dice(conn, table_id)
            entry, changes = build(dice)
            if entry.table_id != table_id:
                raise ValueError("a play drawn with one table's dice must be logged at that table")
            return _Prepared(entry, changes, dice)

        return self._logged(write)

    def _logged(self, prepare: Callable[[Connection], _Prepared]) -> LogEntry:
        """One write transaction: ``prepare`` (inside it) names the entry, then it is sealed
        and appended; a lost race becomes Conflict; the table's feeds are woken."""
        ready: _Prepared | None = None
        try:
            with self._write() as conn:
                ready = prepare(conn)
                logged = _append(conn, ready.entry, ready.changes, ready.dice, self.sqlite)
        except IntegrityError as exc:
            parent = None if ready is None else ready.entry.parent_id
            if parent is not None and self.has_child(parent):
                raise Conflict("follow-up", "this result was already followed up") from None
            raise Conflict("log", "a concurrent write won; try again") from exc
        for listener in self.listeners:
            listener(logged.table_id, logged.seq)
        return logged

    # committed dice

    def fairness(self, table_id: int) -> Fairness:
        query = select(game_tables.c.client_seed, game_tables.c.nonce).where(
            game_tables.c.id == table_id
        )
        with self._read() as conn:
            row = conn.execute(query).first()
            seed = _current_seed(conn, table_id)
        if row is None:
            raise NotFound("table", table_id)
        commitment = "" if seed is None else str(seed.commitment)
        return Fairness(commitment, str(row.client_seed), int(row.nonce))

    def seeds(self, table_id: int) -> list[Seed]:
        c = table_seeds.c
        query = select(table_seeds).where(c.table_id == table_id).order_by(c.id)
        with self._read() as conn:
            return [seed_row(row) for row in conn.execute(query)]

    def rotate_seed(
        self, table_id: int, build: Callable[[Seed | None, Seed], NewEntry]
    ) -> LogEntry:
        def write(conn: Connection) -> _Prepared:
            _lock_table(conn, table_id)
            old = _current_seed(conn, table_id)
            now = _now()
            revealed = None
            if old is not None:
                conn.execute(
                    update(table_seeds).where(table_seeds.c.id == old.id).values(revealed_at=now)
                )
                revealed = replace(seed_row(old), server_seed=old.server_seed, revealed_at=now)
            entry = build(revealed, seed_row(_commit_seed(conn, table_id)))
            return _Prepared(entry)

        return self._logged(write)

    def set_client_seed(self, table_id: int, client_seed: str, entry: NewEntry) -> LogEntry:
        def write(conn: Connection) -> _Prepared:
            _lock_table(conn, table_id)
            conn.execute(
                update(game_tables)
                .where(game_tables.c.id == table_id)
                .values(client_seed=client_seed)
            )
            return _Prepared(entry)

        return self._logged(write)

    def log(self, table_id: int) -> list[LogEntry]:
        c = log_entries.c
        query = select(log_entries).where(c.table_id == table_id).order_by(c.seq)
        with self._read() as conn:
            return [entry_row(row) for row in conn.execute(query)]

    def entry(self, table_id: int, entry_id: int) -> LogEntry:
        c = log_entries.c
        query = select(log_entries).where(c.table_id == table_id, c.id == entry_id)
        return entry_row(self._one(query, "log entry", entry_id))

    def chain(self, table_id: int, entry_id: int) -> list[LogEntry]:
        found = [self.entry(table_id, entry_id)]
        while found[-1].parent_id is not None:
            found.append(self.entry(table_id, found[-1].parent_id))
        return found[::-1]

    def has_child(self, entry_id: int) -> bool:
        query = select(log_entries.c.id).where(log_entries.c.parent_id == entry_id)
        with self._read() as conn:
            return conn.execute(query).first() is not None

    def followed(self, entry_ids: Sequence[int]) -> set[int]:
        if not entry_ids:
            return set()
        c = log_entries.c
        query = select(c.parent_id).where(c.parent_id.in_(list(entry_ids)))
        with self._read() as conn:
            return {int(i) for i in conn.execute(query).scalars()}

    def entries(
        self,
        table_id: int,
        scope: Scope,
        *,
        after: int | None = None,
        before: int | None = None,
        limit: int = 50,
    ) -> list[LogEntry]:
        c = log_entries.c
        query = select(log_entries).where(c.table_id == table_id, visible_to(scope))
        if after is not None:
            query = query.where(c.seq > after).order_by(c.seq)
        else:
            query = query.order_by(c.seq.desc())
        if before is not None:
            query = query.where(c.seq < before)
        with self._read() as conn:
            return [entry_row(row) for row in conn.execute(query.limit(limit))]

    def last_seq(self, table_id: int) -> int:
        query = select(func.max(log_entries.c.seq)).where(log_entries.c.table_id == table_id)
        with self._read() as conn:
            return int(conn.execute(query).scalar() or 0)

    def secret(self, name: str) -> bytes:
        query = select(secrets_table.c.value).where(secrets_table.c.name == name)
        with self._read() as conn:
            value = conn.execute(query).scalar()
        if value is not None:
            return bytes(value)
        try:
            with self._write() as conn:
                value = conn.execute(query).scalar()
                if value is None:
                    value = secrets.token_bytes(32)
                    conn.execute(secrets_table.insert().values(name=name, value=value))
        except IntegrityError:
            return self.secret(name)
        return bytes(value)


def visible_to(scope: Scope) -> ColumnElement[bool]:
    """The log rows a viewer may know of. Blind rows reach their roller only to be redacted."""
    c = log_entries.c
    mine = c.actor_id == scope.member_id
    if scope.is_gm:
        return or_(c.privacy.in_(("public", "gm", "blind")), and_(c.privacy == "self", mine))
    return or_(c.privacy == "public", and_(c.privacy.in_(("gm", "blind", "self")), mine))


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What one appending transaction writes: the entry, its sheet changes, its dice."""

    entry: NewEntry
    changes: Sequence[SheetChange] = ()
    dice: Dice | None = None


def _lock_table(conn: Connection, table_id: int) -> None:
    """Hold the table's row until commit (PostgreSQL); SQLite's write lock already covers it."""
    locked = select(game_tables.c.id).where(game_tables.c.id == table_id)
    if conn.execute(locked.with_for_update()).first() is None:
        raise NotFound("table", table_id)


def _append(
    conn: Connection,
    entry: NewEntry,
    changes: Sequence[SheetChange],
    dice: Dice | None,
    sqlite: bool,
) -> LogEntry:
    """Apply the sheet changes and seal the entry onto the end of its table's chain."""
    c = log_entries.c
    _lock_table(conn, entry.table_id)
    last = conn.execute(
        select(c.seq, c.hash).where(c.table_id == entry.table_id).order_by(c.seq.desc()).limit(1)
    ).first()
    seq, prev = (1, GENESIS) if last is None else (int(last.seq) + 1, str(last.hash))
    for change in changes:
        _apply_change(conn, entry.table_id, change)
    values: dict[str, Any] = {
        "kind": entry.kind,
        "actor_id": entry.actor_id,
        "character_id": entry.character_id,
        "parent_id": entry.parent_id,
        "record": entry.record,
        "card": entry.card,
        "summary": entry.summary,
        "changed": [change.character_id for change in changes],
        "created_at": _now(),
    }
    drawn = dice_of(*((dice.commitment, dice.client_seed, dice.nonce) if dice else (None,) * 3))
    sealed = seal(entry.table_id, seq, entry.privacy, drawn, entry_body(**values), prev)
    values |= {
        "table_id": entry.table_id,
        "seq": seq,
        "privacy": entry.privacy,
        "prev_hash": prev,
        "hash": sealed.hash,
        "salt": sealed.salt,
        "commitment": None if dice is None else dice.commitment,
        "client_seed": None if dice is None else dice.client_seed,
        "nonce": None if dice is None else dice.nonce,
    }
    key = conn.execute(log_entries.insert().values(**values)).inserted_primary_key
    assert key is not None
    if not sqlite:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": f"{entry.table_id}:{seq}"},
        )
    return entry_row(conn.execute(select(log_entries).where(c.id == key[0])).one())


def _current_seed(conn: Connection, table_id: int) -> Any:
    """The table's unrevealed seed row (with its secret), or None."""
    c = table_seeds.c
    query = select(table_seeds).where(c.table_id == table_id, c.revealed_at.is_(None))
    return conn.execute(query.order_by(c.id.desc()).limit(1)).first()


def _commit_seed(conn: Connection, table_id: int) -> Any:
    seed = new_server_seed()
    values = {
        "table_id": table_id,
        "commitment": commitment_for(seed),
        "server_seed": seed,
        "created_at": _now(),
    }
    conn.execute(table_seeds.insert().values(**values))
    return _current_seed(conn, table_id)


def _next_dice(conn: Connection, table_id: int) -> Dice:
    """Lock the table and hand out its next nonce with the current seed and client seed."""
    c = game_tables.c
    row = conn.execute(
        select(c.client_seed, c.nonce).where(c.id == table_id).with_for_update()
    ).first()
    if row is None:
        raise NotFound("table", table_id)
    seed = _current_seed(conn, table_id) or _commit_seed(conn, table_id)
    nonce = int(row.nonce) + 1
    conn.execute(update(game_tables).where(c.id == table_id).values(nonce=nonce))
    return Dice(str(seed.server_seed), str(seed.commitment), str(row.client_seed), nonce)


def _apply_change(conn: Connection, table_id: int, change: SheetChange) -> None:
    where = and_(
        characters.c.table_id == table_id,
        characters.c.id == change.character_id,
        characters.c.version == change.expected_version,
    )
    done = conn.execute(
        update(characters)
        .where(where)
        .values(
            sheet=change.sheet,
            name=_sheet_name(change.sheet),
            version=characters.c.version + 1,
            updated_at=_now(),
        )
    )
    if done.rowcount != 1:
        raise Conflict(
            "character",
            f"character {change.character_id} changed since it was read; reload and try again",
        )
