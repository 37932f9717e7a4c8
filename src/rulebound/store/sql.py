"""The SQLAlchemy 2 store: one code path for SQLite and PostgreSQL.

Writes go through ``_write``: a process-wide lock (SQLite only; PostgreSQL
locks the table's row instead) around a ``BEGIN IMMEDIATE`` transaction. With
both, concurrent writers queue instead of failing with "database is locked".

Appending to a table's log holds that table's lock (``SELECT ... FOR UPDATE`` on
its row; on SQLite the database write lock) while it reads the last entry, takes
the next seq, reads the seed in force and seals the entry into the hash chain, so
two writers (threads or processes) can never fork the chain. A contribution is used
once per table (a unique index).

Every method that changes something writes its log entry in the same transaction:
one user action is one commit, or nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, TypeVar, cast

from sqlalchemy import (
    Connection,
    Integer,
    Row,
    Select,
    Table,
    and_,
    bindparam,
    exists,
    func,
    not_,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import BindParameter, ColumnElement

from rulebound.core.canonical import json_copy
from rulebound.core.verifiable import commitment_for, new_server_seed
from rulebound.store.base import (
    CharacterRow,
    Conflict,
    Contribution,
    Dice,
    LogEntry,
    Member,
    NewEntry,
    NotFound,
    Role,
    Scope,
    Seed,
    SheetChange,
    Staged,
    Stored,
    TableRow,
)
from rulebound.store.bridge import in_bridge, wait_for
from rulebound.store.cache import MISS, Cache, Part
from rulebound.store.checkpoints import Checkpoints
from rulebound.store.engine import WRITE_OPTION, is_sqlite, make_engine, normalise_url
from rulebound.store.history import fold
from rulebound.store.migrate import upgrade
from rulebound.store.rawwrite import RawWrites, WouldWait
from rulebound.store.rows import character_row, entry_row, member_row, seed_row, table_row
from rulebound.store.schema import (
    characters,
    game_tables,
    log_entries,
    members,
    revealed_entries,
    secrets_table,
    table_seeds,
    used_nonces,
)
from rulebound.trust.chain import (
    GENESIS,
    body_hash,
    chain_hash,
    content_around_seq,
    dice_of,
    entry_body,
    entry_content,
    new_salt,
)

AppendListener = Callable[[int, int], None]
"""Called after a commit with (table id, seq): wakes the table's waiting feeds."""
EntryListener = Callable[[LogEntry], None]
ChangeListener = Callable[[int, tuple[Part, ...]], None]
"""Called after a change that logs nothing, with the table and the parts it changed."""

NOTIFY_CHANNEL = "rulebound_log"
_WAITING: ContextVar[bool] = ContextVar("rulebound_store_waiting", default=True)
"""False inside ``SqlStore.without_waiting``: a write that would wait raises ``WouldWait``."""
T = TypeVar("T")
_Row = Member | CharacterRow
"""What ``_by_ids`` reads: a row with an id."""


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
    def __init__(self, url: str, *, migrate: bool = True, pg_notify: bool = True) -> None:
        self.url = normalise_url(url)
        self.sqlite = is_sqlite(self.url)
        self.engine = make_engine(self.url)
        self._lock = threading.Lock()
        self.listeners: list[AppendListener] = []
        self.committed: list[EntryListener] = []
        """Called after each commit with the entry just written (the hub's source)."""
        self.changed: list[ChangeListener] = []
        """Called after a write that logs nothing but changes a table (tokens, owners)."""
        self.pg_notify = pg_notify and not self.sqlite
        """Send ``pg_notify`` with each entry (the fallback backplane when there is no Redis)."""
        self.cache = Cache()
        self.origin = secrets.token_hex(8)
        """Names this process in its notices, so it can ignore its own."""
        self._secrets: dict[str, bytes] = {}
        self._seeds: dict[int, tuple[str, str]] = {}
        """Per table, the seed (commitment, secret) this process last saw in force."""
        self.raw = RawWrites(self.engine, HEAD)
        """The append that changes no sheet, through the driver (``store/rawwrite``)."""
        database = self.raw.database
        self.checkpoints = Checkpoints(database) if database is not None else None
        """SQLite's checkpoints, off the writers' path (``store/checkpoints``)."""
        if migrate:
            upgrade(self.engine)

    def close(self) -> None:
        if self.checkpoints is not None:
            self.checkpoints.close()
        self.raw.close()
        self.engine.dispose()

    @contextmanager
    def without_waiting(self) -> Iterator[None]:
        """Writes in this block never wait for a lock: one that would (the writer lock or
        the database's is held, or it is not the driver's append on a SQLite file) raises
        ``WouldWait`` before writing anything. For a caller on the event loop, which then
        hands the write to a thread (``web/writepath``)."""
        token = _WAITING.set(False)
        try:
            yield
        finally:
            _WAITING.reset(token)

    def _cached(self, table_id: int, part: Part, key: Hashable, load: Callable[[], T]) -> T:
        """``load()``, kept in the cache until a write drops that part of the table."""
        value = self.cache.get(table_id, part, key)
        if value is not MISS:
            return cast(T, value)
        generation = self.cache.generation(table_id, part)
        loaded = self._now(load)
        self.cache.put(table_id, part, key, loaded, generation)
        return loaded

    @staticmethod
    def _now(load: Callable[[], T]) -> T:
        """``load()``; a play bridged on the event loop reads in a thread, the loop going on
        meanwhile."""
        return wait_for(asyncio.to_thread(load)) if in_bridge() else load()

    def _hidden(self, conn: Connection, table_id: int, scope: Scope | None) -> dict[int, int]:
        """How many sheet changes of each character ``scope`` may not see: read each time
        (a reveal changes it), from the index of the entries that changed a sheet."""
        return {} if scope is None else _hidden_changes(conn, table_id, scope)

    def _changed(self, table_id: int, *parts: Part) -> None:
        """After a commit that changed ``parts`` of a table without logging it: forget them
        here, and tell the listeners (the backplane tells the other processes)."""
        self.cache.drop(table_id, *parts)
        if self.pg_notify:
            with self.engine.begin() as conn:
                _notify(conn, f"{table_id}:-:{self.origin}:{','.join(parts)}")
        for listener in self.changed:
            listener(table_id, parts)

    def forget(self, table_id: int, parts: Sequence[Part] = ()) -> None:
        """Another process changed ``parts`` of this table (none named: maybe anything):
        drop them from the cache."""
        self.cache.drop(table_id, *parts)

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        if not _WAITING.get():
            raise WouldWait
        guard: AbstractContextManager[object] = self._lock if self.sqlite else nullcontext()
        with guard, self.engine.connect() as conn:
            conn.execution_options(**{WRITE_OPTION: True})
            with conn.begin():
                yield conn
        if self.checkpoints is not None:
            self.checkpoints.written()

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
        self,
        name: str,
        ruleset: str,
        variants: dict[str, str],
        *,
        observers: bool,
        founder: str,
        summary: str,
    ) -> tuple[TableRow, Member, str]:
        values = {
            "name": name,
            "ruleset": ruleset,
            "variants": dict(variants),
            "gm_token": new_token(),
            "player_token": new_token(),
            "observer_token": new_token() if observers else None,
            "created_at": _now(),
        }
        seated: list[tuple[Member, str]] = []

        def write(conn: Connection) -> _Prepared:
            key = conn.execute(game_tables.insert().values(**values)).inserted_primary_key
            assert key is not None
            table_id = int(key[0])
            seed = _commit_seed(conn, table_id)
            seated.append(_seat(conn, table_id, "gm", founder))
            record = {"ruleset": ruleset, "variants": dict(variants), "committed": seed.commitment}
            gm = seated[0][0].id
            return _Prepared(NewEntry(table_id, "join", "public", gm, summary, record=record))

        logged = self._logged(write)
        return self.table(logged.table_id), *seated[0]

    def table(self, table_id: int) -> TableRow:
        def load() -> TableRow:
            query = select(game_tables).where(game_tables.c.id == table_id)
            return table_row(self._one(query, "table", table_id))

        return self._cached(table_id, "table", "row", load)

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
        with self._write() as conn:
            _rotate(conn, table_id, role, disable=disable)
        self._changed(table_id, "table")
        return self.table(table_id)

    # members

    def add_member(self, table_id: int, role: Role, name: str, summary: str) -> tuple[Member, str]:
        seated: list[tuple[Member, str]] = []

        def write(conn: Connection) -> _Prepared:
            seated.append(_seat(conn, table_id, role, name))
            return _Prepared(NewEntry(table_id, "join", "public", seated[0][0].id, summary))

        self._logged(write)
        return seated[0]

    def member_by_session(self, table_id: int, token: str) -> Member | None:
        digest = token_hash(token)
        found = self.cache.get(table_id, "members", ("session", digest))
        if isinstance(found, Member):
            return found
        generation = self.cache.generation(table_id, "members")
        with self._read() as conn:
            row = conn.execute(SESSION, {"table_id": table_id, "digest": digest}).first()
        if row is None:
            return None  # unknown tokens are not kept: guessing cannot fill the cache
        member = member_row(row)
        self.cache.put(table_id, "members", ("session", digest), member, generation)
        return member

    def member(self, table_id: int, member_id: int) -> Member:
        for member in self.members(table_id):
            if member.id == member_id:
                return member
        raise NotFound("member", member_id)

    def members(self, table_id: int) -> list[Member]:
        def load() -> tuple[Member, ...]:
            query = select(members).where(members.c.table_id == table_id).order_by(members.c.id)
            with self._read() as conn:
                return tuple(member_row(row) for row in conn.execute(query))

        return list(self._cached(table_id, "members", "all", load))

    def members_by_id(self, table_id: int, ids: Iterable[int]) -> Mapping[int, Member]:
        return self._by_ids(table_id, "members", ids, lambda i: ("id", i), members, member_row)

    def update_member(
        self,
        table_id: int,
        member_id: int,
        *,
        revoked: bool | None,
        grant_all: bool | None,
        entry: NewEntry | None = None,
    ) -> Member:
        values = {
            k: v for k, v in (("revoked", revoked), ("grant_all", grant_all)) if v is not None
        }
        where = and_(members.c.table_id == table_id, members.c.id == member_id)

        def write(conn: Connection) -> _Prepared:
            row = conn.execute(select(members).where(where)).first()
            if row is None:
                raise NotFound("member", member_id)
            if values:
                conn.execute(update(members).where(where).values(**values))
            if revoked:
                _rotate(conn, table_id, member_row(row).role)
            assert entry is not None
            return _Prepared(entry)

        if entry is not None:
            self._logged(write)
        elif values:
            with self._write() as conn:
                conn.execute(update(members).where(where).values(**values))
            self._changed(table_id, "members")
        return self.member(table_id, member_id)

    # characters

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
            "name": _sheet_name(sheet),
            "sheet": sheet,
            "base": sheet,
            "version": 1,
            "updated_at": _now(),
        }

        def write(conn: Connection) -> _Prepared:
            if nonce is not None:
                _spend(conn, table_id, nonce)
            key = conn.execute(characters.insert().values(**values)).inserted_primary_key
            assert key is not None
            made = NewEntry(table_id, "character", "public", owner_id, summary, int(key[0]))
            return _Prepared(made)

        logged = self._logged(write)
        assert logged.character_id is not None
        return self.character(table_id, logged.character_id)

    def use_nonce(self, table_id: int, nonce: str) -> None:
        with self._write() as conn:
            _spend(conn, table_id, nonce)

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
            return found if shared else _copied(found)
        generation = self.cache.generation(table_id, "characters")
        with self._read() as conn:
            params = {"table_id": table_id, "character_id": character_id}
            row = conn.execute(CHARACTER, params).first()
            if row is None:
                raise NotFound("character", character_id)
            seen = _as_seen(conn, table_id, scope, [row], self._hidden(conn, table_id, scope))[0]
        self.cache.put(table_id, "characters", key, seen, generation)
        return seen if shared else _copied(seen)

    def characters(self, table_id: int, scope: Scope | None = None) -> list[CharacterRow]:
        def load() -> list[CharacterRow]:
            query = select(characters).where(characters.c.table_id == table_id)
            with self._read() as conn:
                rows = list(conn.execute(query.order_by(characters.c.id)))
                return _as_seen(conn, table_id, scope, rows, self._hidden(conn, table_id, scope))

        if scope is not None:
            return load()
        return list(self._cached(table_id, "characters", "all", lambda: tuple(load())))

    def characters_by_id(self, table_id: int, ids: Iterable[int]) -> Mapping[int, CharacterRow]:
        # as stored: the entry ``character(table_id, id)`` keeps
        return self._by_ids(
            table_id, "characters", ids, lambda i: ("seen", i, None), characters, character_row
        )

    def _by_ids(
        self,
        table_id: int,
        part: Part,
        ids: Iterable[int],
        key: Callable[[int], Hashable],
        rows: Table,
        row_of: Callable[[Row[Any]], _Row],
    ) -> Mapping[int, Any]:
        """The rows of ``ids`` that exist, by id: from the table's whole part where it is
        held, else each from the cache (``key``), those it lacks in one statement. Once the
        part is no longer trusted (its 5 seconds, or a notice), an answer reads again what
        it names, not the whole table's part: at a table of 1,000 observers, reading every
        seat took 10 ms on the event loop."""
        wanted = set(ids)
        held = self.cache.get(table_id, part, "all")
        if held is not MISS:
            return MappingProxyType(
                {r.id: r for r in cast("Sequence[_Row]", held) if r.id in wanted}
            )
        found: dict[int, Any] = {}
        missing = []
        for one_id in wanted:
            one = self.cache.get(table_id, part, key(one_id))
            if one is MISS:
                missing.append(one_id)
            else:
                found[one_id] = one
        if missing:
            generation = self.cache.generation(table_id, part)
            wanted_rows = rows.c.table_id == table_id, rows.c.id.in_(sorted(missing))
            query = select(rows).where(*wanted_rows)

            def load() -> list[_Row]:
                with self._read() as conn:
                    return [row_of(row) for row in conn.execute(query)]

            for row in self._now(load):
                self.cache.put(table_id, part, key(row.id), row, generation)
                found[row.id] = row
        return MappingProxyType(found)

    def set_owner(self, table_id: int, character_id: int, owner_id: int | None) -> CharacterRow:
        where = and_(characters.c.table_id == table_id, characters.c.id == character_id)
        with self._write() as conn:
            if (
                conn.execute(update(characters).where(where).values(owner_id=owner_id)).rowcount
                == 0
            ):
                raise NotFound("character", character_id)
        self._changed(table_id, "characters")
        return self.character(table_id, character_id)

    # the log

    def append(self, entry: NewEntry, changes: Sequence[SheetChange] = ()) -> LogEntry:
        if _raw_kind(entry, changes):
            logged = self._raw_logged(entry, None)
            if logged is not None:
                return logged
        return self._logged(lambda _conn: _Prepared(entry, changes))

    def append_drawn(
        self,
        table_id: int,
        build: Callable[[Dice], Staged],
        contribution: Contribution | None = None,
    ) -> LogEntry:
        """The play is computed before the write transaction, from the seed this process last
        saw in force, so the table's lock is not held while the rules run; under the lock the
        transaction checks that this seed is still the one in force, and if it is not (a
        rotation, perhaps by another process) computes the play again with the one that is."""
        early: tuple[Dice, Staged] | None = None
        known = self._seeds.get(table_id)
        on_loop = self.raw.database is not None or (not self.sqlite and in_bridge())
        if not _WAITING.get() and (not on_loop or known is None or self._lock.locked()):
            raise WouldWait  # before the rules run: not the driver's append, or a held lock
        if known is not None and (contribution is None or contribution.commitment == known[0]):
            chosen = contribution is None
            value = os.urandom(16).hex() if contribution is None else contribution.value
            dice = Dice(known[1], known[0], value, chosen)
            early = dice, build(dice)
            if early[1][0].table_id != table_id:
                raise ValueError("a play drawn with one table's dice must be logged at that table")
            if _raw_kind(*early[1]):
                logged = self._raw_logged(early[1][0], dice)
                if logged is not None:
                    self._seeds[table_id] = (dice.commitment, dice.server_seed)
                    return logged

        used: list[Dice] = []

        def write(conn: Connection) -> _Prepared:
            head = _head(conn, table_id, lock=not self.sqlite)
            if early is not None and head.commitment == early[0].commitment:
                dice, (entry, changes) = early
            else:
                dice = _next_dice(conn, table_id, head, contribution)
                entry, changes = build(dice)
            if entry.table_id != table_id:
                raise ValueError("a play drawn with one table's dice must be logged at that table")
            used.append(dice)
            return _Prepared(entry, changes, dice, locked=True, head=head)

        logged = self._logged(write)
        self._seeds[table_id] = (used[-1].commitment, used[-1].server_seed)
        return logged

    def _logged(self, prepare: Callable[[Connection], _Prepared]) -> LogEntry:
        """One write transaction: ``prepare`` (inside it) names the entry, then it is sealed
        and appended; a lost race becomes Conflict; the table's feeds are woken."""
        ready: _Prepared | None = None
        try:
            with self._write() as conn:
                ready = prepare(conn)
                logged = _append(
                    conn,
                    ready.entry,
                    ready.changes,
                    ready.dice,
                    self.sqlite,
                    locked=ready.locked,
                    head=ready.head,
                    notify=self.origin if self.pg_notify else None,
                )
        except IntegrityError as exc:
            raise self._lost(ready) from exc
        return self._after(logged)

    def _raw_logged(self, entry: NewEntry, dice: Dice | None) -> LogEntry | None:
        """``_logged`` for an entry that changes no sheet, through the driver
        (``store/rawwrite``): the same row under the same locks. None where the seed
        ``dice`` drew from is no longer in force (nothing written: the caller takes the
        general path)."""
        if not self.sqlite:
            return self._pg_logged(entry, dice)
        raw = self.raw
        try:
            with raw.transaction(self._lock, waiting=_WAITING.get()) as driver:
                cursor = driver.cursor()
                raw.run(cursor, raw.head, {"table_id": entry.table_id})
                row = raw.fetch(cursor)
                if row is None:
                    raise NotFound("table", entry.table_id)
                head = _head_of(row)
                if dice is not None and head.commitment != dice.commitment:
                    raise _Declined
                values = _sealed(entry, (), dice, head)
                raw.run(cursor, raw.insert, values)
                raw.commit(driver)
                key = cursor.lastrowid
            if self.checkpoints is not None:
                self.checkpoints.written()
        except _Declined:
            return None
        except IntegrityError as exc:
            raise self._lost(_Prepared(entry, (), dice)) from exc
        return self._after(_written(entry, values, int(key)))

    def _pg_logged(self, entry: NewEntry, dice: Dice | None) -> LogEntry | None:
        """``_raw_logged`` on PostgreSQL: sealed but for its place on the chain, then
        appended by ``rulebound_append`` in one statement (migrations 0008, 0009), which holds the
        table's lock only while it chains and inserts."""
        if not _WAITING.get() and not in_bridge():
            raise WouldWait  # a round trip to the server: on the loop only if it is awaited
        values, digest = _unchained(entry, (), dice)
        before, after = content_around_seq(entry.table_id, entry.privacy, _dice(values), digest)
        call = values | {
            "before": before,
            "after": after,
            "channel": NOTIFY_CHANNEL if self.pg_notify else None,
            "tail": _notice_tail(entry, self.origin, ()),
        }
        try:
            row = self.raw.appended(call)
        except IntegrityError as exc:
            raise self._lost(_Prepared(entry, (), dice)) from exc
        if row is None:
            raise NotFound("table", entry.table_id)
        key, seq, prev, sealed = row
        if key is None:
            return None
        values |= {"seq": int(seq), "prev_hash": str(prev), "hash": str(sealed)}
        return self._after(_written(entry, values, int(key)))

    def _after(self, logged: LogEntry) -> LogEntry:
        """After an append's commit: drop what it changed from the cache, tell the hub,
        wake the table's feeds."""
        parts = parts_changed(logged.kind, bool(logged.changed))
        if parts:
            self.cache.drop(logged.table_id, *parts)
        for committed in self.committed:
            committed(logged)
        self._woken(logged.table_id, logged.seq)
        return logged

    def _lost(self, ready: _Prepared | None) -> Conflict:
        """Why a write's constraint failed: a result already followed up, a contribution
        already used, or a concurrent writer."""
        parent = None if ready is None else ready.entry.parent_id
        if parent is not None and self.has_child(parent):
            return Conflict("follow-up", "this result was already followed up")
        if ready is not None and ready.dice is not None and not ready.dice.server_chosen:
            c = log_entries.c
            used = select(c.id).where(
                c.table_id == ready.entry.table_id, c.contribution == ready.dice.contribution
            )
            with self._read() as conn:
                if conn.execute(used).first() is not None:
                    return Conflict(
                        "dice",
                        "this contribution was already used at this table: make a fresh"
                        " random one for each roll",
                    )
        return Conflict("log", "a concurrent write won; try again")

    def _woken(self, table_id: int, seq: int) -> None:
        for listener in self.listeners:
            listener(table_id, seq)

    # committed dice

    def commitment(self, table_id: int) -> str:
        with self._read() as conn:
            seed = _current_seed(conn, table_id)
            if seed is None and conn.execute(_table_exists(table_id)).first() is None:
                raise NotFound("table", table_id)
        return "" if seed is None else str(seed.commitment)

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
            return _Prepared(entry, locked=True)

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

    def tail(self, table_id: int, after: int, limit: int = 100) -> list[LogEntry]:
        c = log_entries.c
        query = select(log_entries).where(c.table_id == table_id, c.seq > after)
        with self._read() as conn:
            return [entry_row(row) for row in conn.execute(query.order_by(c.seq).limit(limit))]

    def last_seq(self, table_id: int) -> int:
        query = select(func.max(log_entries.c.seq)).where(log_entries.c.table_id == table_id)
        with self._read() as conn:
            return int(conn.execute(query).scalar() or 0)

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
        try:
            with self._write() as conn:
                value = conn.execute(query).scalar()
                if value is None:
                    value = secrets.token_bytes(32)
                    conn.execute(secrets_table.insert().values(name=name, value=value))
        except IntegrityError:
            return self._secret(name)
        return bytes(value)


def visible_to(scope: Scope) -> ColumnElement[bool]:
    """The log rows a viewer may know of. Blind rows reach their roller only to be redacted."""
    c = log_entries.c
    mine = c.actor_id == scope.member_id
    if scope.is_gm:
        return or_(c.privacy.in_(("public", "gm", "blind")), and_(c.privacy == "self", mine))
    return or_(c.privacy == "public", and_(c.privacy.in_(("gm", "blind", "self")), mine))


def shown_to(scope: Scope) -> ColumnElement[bool]:
    """The log rows a viewer sees whole (``Viewer.sees_fully``): a blind roll is the GMs'."""
    return _shown(scope.is_gm, log_entries.c.actor_id == scope.member_id)


def _shown(is_gm: bool, mine: ColumnElement[bool]) -> ColumnElement[bool]:
    c = log_entries.c
    if is_gm:
        return or_(c.privacy.in_(("public", "gm", "blind")), and_(c.privacy == "self", mine))
    return or_(c.privacy == "public", and_(c.privacy.in_(("gm", "self")), mine))


def revealed() -> ColumnElement[bool]:
    """The log row is one that a later "reveal" entry showed to the whole table."""
    return exists().where(revealed_entries.c.entry_id == log_entries.c.id)


def folded_for(scope: Scope) -> ColumnElement[bool]:
    """The log rows whose sheet changes ``scope``'s sheets show: those it sees whole, and
    every revealed one (its change appears at its place in the log)."""
    return or_(shown_to(scope), revealed())


def _hidden_query(is_gm: bool) -> Select[Any]:
    """The deltas a viewer may not see (``member_id``, a game master or not), built once:
    the complement of ``folded_for``.

    What is hidden is never public (nor, from a game master, anything but "self"): saying
    so lets the query run on the index of the entries that changed a sheet."""
    c = log_entries.c
    mine = c.actor_id == bindparam("member_id", type_=Integer)
    private = c.privacy == "self" if is_gm else c.privacy.in_(("gm", "blind", "self"))
    return select(c.deltas).where(
        c.table_id == bindparam("table_id", type_=Integer),
        c.deltas.is_not(None),
        private,
        not_(_shown(is_gm, mine)),
        not_(revealed()),
    )


HIDDEN = {is_gm: _hidden_query(is_gm) for is_gm in (False, True)}


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What one appending transaction writes: the entry, its sheet changes, its dice."""

    entry: NewEntry
    changes: Sequence[SheetChange] = ()
    dice: Dice | None = None
    locked: bool = False
    """The table's lock is already held by this transaction."""
    head: _Head | None = None
    """The end of the table's chain, read under that lock (None: read it in ``_append``)."""


@dataclass(frozen=True, slots=True)
class _Head:
    """What one statement reads under the table's lock: the chain's end and the seed in force."""

    seq: int
    hash: str
    commitment: str | None
    server_seed: str | None


def _head_query() -> Select[Any]:
    c, s = log_entries.c, table_seeds.c
    table: BindParameter[int] = bindparam("table_id", type_=Integer)
    last = select(c.seq, c.hash).where(c.table_id == table).order_by(c.seq.desc()).limit(1)
    last_q = last.subquery()
    seed = (
        select(s.commitment, s.server_seed)
        .where(s.table_id == table, s.revealed_at.is_(None))
        .order_by(s.id.desc())
        .limit(1)
        .subquery()
    )
    return (
        select(game_tables.c.id, last_q.c.seq, last_q.c.hash, seed.c.commitment, seed.c.server_seed)
        .select_from(game_tables)
        .outerjoin(last_q, true())
        .outerjoin(seed, true())
        .where(game_tables.c.id == table)
    )


HEAD = _head_query()
NOTIFY = text("SELECT pg_notify(:channel, :payload)")
NOTICE = {"channel": NOTIFY_CHANNEL}
LOCK = select(game_tables.c.id).where(game_tables.c.id == bindparam("table_id")).with_for_update()
INSERT_ENTRY = log_entries.insert()
CHARACTER = select(characters).where(
    characters.c.table_id == bindparam("table_id"), characters.c.id == bindparam("character_id")
)
SESSION = select(members).where(
    members.c.table_id == bindparam("table_id"), members.c.session_hash == bindparam("digest")
)
"""The statements of a roll, built once (SQLAlchemy then reuses their compiled form)."""


def _head(conn: Connection, table_id: int, lock: bool) -> _Head:
    """Lock the table and read its chain's last seq and hash and its unrevealed seed.

    SQLite's ``BEGIN IMMEDIATE`` already holds the write lock, so this is one statement.
    PostgreSQL locks the table's row first, in a statement of its own: under READ COMMITTED
    the next statement reads with a fresh snapshot, so it sees what the writer it waited
    for committed (a subquery beside the ``FOR UPDATE`` would not)."""
    if lock:
        _lock_table(conn, table_id)
    row = conn.execute(HEAD, {"table_id": table_id}).first()
    if row is None:
        raise NotFound("table", table_id)
    return _head_of(tuple(row))


def _head_of(row: Sequence[Any]) -> _Head:
    """The head from ``HEAD``'s row: (table id, seq, hash, commitment, server seed)."""
    _, seq, last, commitment, server_seed = row
    return _Head(
        0 if seq is None else int(seq),
        GENESIS if last is None else str(last),
        None if commitment is None else str(commitment),
        None if server_seed is None else str(server_seed),
    )


class _Declined(Exception):
    """The raw append's ``prepare`` declined (the seed moved): roll back, take the general path."""


def _raw_kind(entry: NewEntry, changes: Sequence[SheetChange]) -> bool:
    """Whether an append may take the driver's path: it changes no sheet and indexes
    nothing (a reveal does)."""
    return not changes and entry.kind != "reveal"


def parts_changed(kind: str, sheets: bool) -> tuple[Part, ...]:
    """What of its table an entry's commit changed (``sheets``: it changed a sheet), so
    the caches drop it, here and in the other processes."""
    parts: list[Part] = []
    if kind in ("join", "member"):
        parts += ["members", "table"]  # a revoke replaces an invite link too
    if sheets or kind in ("character", "reveal"):
        parts.append("characters")  # a reveal shows hidden changes: the sheets seen change
    return tuple(parts)


def _table_exists(table_id: int) -> Select[Any]:
    return select(game_tables.c.id).where(game_tables.c.id == table_id)


def _lock_table(conn: Connection, table_id: int) -> None:
    """Hold the table's row until commit (PostgreSQL); SQLite's write lock already covers it."""
    if conn.execute(LOCK, {"table_id": table_id}).first() is None:
        raise NotFound("table", table_id)


def _seat(conn: Connection, table_id: int, role: Role, name: str) -> tuple[Member, str]:
    token = new_token()
    created = _now()
    values = {
        "table_id": table_id,
        "role": role,
        "name": name,
        "session_hash": token_hash(token),
        "revoked": False,
        "grant_all": False,
        "created_at": created,
    }
    key = conn.execute(members.insert().values(**values)).inserted_primary_key
    assert key is not None
    member = Member(int(key[0]), table_id, role, name, False, False, created)
    return member, token


def _rotate(conn: Connection, table_id: int, role: Role, *, disable: bool = False) -> None:
    column = f"{role}_token"
    done = conn.execute(
        update(game_tables)
        .where(game_tables.c.id == table_id)
        .values({column: None if disable else new_token()})
    )
    if done.rowcount == 0:
        raise NotFound("table", table_id)


def _spend(conn: Connection, table_id: int, nonce: str) -> None:
    """Spend a single-use value: a second spend is refused (the primary key holds it)."""
    used = select(used_nonces.c.nonce).where(used_nonces.c.nonce == nonce)
    if conn.execute(used).first() is not None:
        raise Conflict("nonce", "this step was already taken: go on from the step it led to")
    conn.execute(used_nonces.insert().values(nonce=nonce, table_id=table_id, created_at=_now()))


def _hidden_changes(conn: Connection, table_id: int, scope: Scope) -> dict[int, int]:
    hidden: dict[int, int] = {}
    keys = {"table_id": table_id, "member_id": scope.member_id}
    for deltas in conn.execute(HIDDEN[scope.is_gm], keys).scalars():
        for key in deltas:
            hidden[int(key)] = hidden.get(int(key), 0) + 1
    return hidden


def _copied(row: CharacterRow) -> CharacterRow:
    """A cached row with sheets of its own: nothing its reader does reaches the cache."""
    stored = None if row.stored is None else json_copy(row.stored)
    return CharacterRow(  # not ``dataclasses.replace``, which takes 70 % longer: every roll
        id=row.id,
        table_id=row.table_id,
        owner_id=row.owner_id,
        name=row.name,
        sheet=json_copy(row.sheet),
        version=row.version,
        updated_at=row.updated_at,
        hidden=row.hidden,
        stored=stored,
    )


def _as_seen(
    conn: Connection,
    table_id: int,
    scope: Scope | None,
    rows: Sequence[Row[Any]],
    hidden: dict[int, int],
) -> list[CharacterRow]:
    """Characters as ``scope`` sees them: base plus the deltas of the entries it sees whole
    or that were revealed (``hidden``: how many changes of each character it may not see)."""
    stored = [character_row(row) for row in rows]
    if scope is None or not rows:
        return stored
    if not hidden.keys() & {row.id for row in stored}:
        return stored
    c = log_entries.c
    changed = select(c.deltas).where(c.table_id == table_id, c.deltas.is_not(None))
    seen = list(conn.execute(changed.where(folded_for(scope)).order_by(c.seq)).scalars())
    found = []
    for row, raw in zip(stored, rows, strict=True):
        if row.id not in hidden:
            found.append(row)
            continue
        key = str(row.id)
        sheet = fold(raw._mapping["base"], (d[key] for d in seen if key in d))
        found.append(
            replace(
                row,
                name=_sheet_name(sheet),
                sheet=sheet,
                version=row.version - hidden[row.id],
                hidden=hidden[row.id],
                stored=row.sheet,
            )
        )
    return found


def _append(
    conn: Connection,
    entry: NewEntry,
    changes: Sequence[SheetChange],
    dice: Dice | None,
    sqlite: bool,
    *,
    locked: bool = False,
    head: _Head | None = None,
    notify: str | None = None,
) -> LogEntry:
    """Apply the sheet changes and seal the entry onto the end of its table's chain (the
    table locked first, unless ``locked`` says this transaction already holds it).

    The entry comes back as written, built from what was inserted: nothing is read again."""
    if head is None:
        head = _head(conn, entry.table_id, lock=not (locked or sqlite))
    for change in changes:
        _apply_change(conn, entry.table_id, change)
    values = _sealed(entry, changes, dice, head)
    key = conn.execute(INSERT_ENTRY, values).inserted_primary_key
    assert key is not None
    if entry.kind == "reveal":
        _index_reveal(conn, entry, int(key[0]))
    if notify is not None:
        _notify(conn, _notice(entry, values["seq"], notify, changes))
    return _written(entry, values, int(key[0]))


def _sealed(
    entry: NewEntry, changes: Sequence[SheetChange], dice: Dice | None, head: _Head
) -> dict[str, Any]:
    """The row ``entry`` is inserted as, sealed onto the chain's end ``head``."""
    values, digest = _unchained(entry, changes, dice)
    seq = head.seq + 1
    content = entry_content(entry.table_id, seq, entry.privacy, _dice(values), digest)
    values["seq"], values["prev_hash"] = seq, head.hash
    values["hash"] = chain_hash(head.hash, content, parsed=True)
    return values


def _unchained(
    entry: NewEntry, changes: Sequence[SheetChange], dice: Dice | None
) -> tuple[dict[str, Any], str]:
    """The row ``entry`` is inserted as but for its place on the chain (``seq``,
    ``prev_hash``, ``hash``), and its ``body_hash``. Its record and card are serialised once
    (``Stored``): the seal commits to them as they will be read back, the insert writes
    that text, and ``_written`` answers with it parsed."""
    record = entry.record if type(entry.record) is Stored else Stored.of(entry.record)
    card = entry.card if entry.card is None or type(entry.card) is Stored else Stored.of(entry.card)
    values: dict[str, Any] = {
        "kind": entry.kind,
        "actor_id": entry.actor_id,
        "character_id": entry.character_id,
        "parent_id": entry.parent_id,
        "record": record,
        "card": card,
        "summary": entry.summary,
        "changed": [change.character_id for change in changes],
        "created_at": _now(),
    }
    salt = new_salt()
    digest = body_hash(salt, entry_body(**values), parsed=True)
    values["table_id"], values["privacy"], values["salt"] = entry.table_id, entry.privacy, salt
    values["deltas"] = {str(ch.character_id): ch.delta for ch in changes} if changes else None
    values["commitment"] = None if dice is None else dice.commitment
    values["contribution"] = None if dice is None else dice.contribution
    values["server_chosen"] = None if dice is None else dice.server_chosen
    return values, digest


def _dice(values: dict[str, Any]) -> dict[str, Any] | None:
    """The ``dice`` an entry's content names, from its row."""
    return dice_of(values["commitment"], values["contribution"], values["server_chosen"])


def _written(entry: NewEntry, values: dict[str, Any], entry_id: int) -> LogEntry:
    """The entry as inserted (``_sealed``'s row, given its id): nothing is read again. A
    card the caller handed over ``Stored`` is the value every entry of that card holds
    (``web/rollcache``): what reads an entry's card never changes it."""
    card: Stored | None = values["card"]
    return LogEntry(
        id=entry_id,
        **{name: values[name] for name in WRITTEN},
        record=values["record"].value,
        card=None if card is None else card.value,
        changed=tuple(values["changed"]),
        card_text=None if card is None else card.text,
    )


WRITTEN = (
    *("table_id", "seq", "kind", "privacy", "actor_id", "character_id", "parent_id"),
    *("summary", "created_at", "prev_hash", "hash", "salt"),
    *("commitment", "contribution", "server_chosen"),
)
"""The fields of a written entry that are its inserted row's values as they are."""


def _notice(entry: NewEntry, seq: int, origin: str, changes: Sequence[SheetChange]) -> str:
    """The ``pg_notify`` payload of an entry: table, seq, this process, the parts it changed."""
    return f"{entry.table_id}:{seq}{_notice_tail(entry, origin, changes)}"


def _notice_tail(entry: NewEntry, origin: str, changes: Sequence[SheetChange]) -> str:
    """A notice after its seq (``rulebound_append`` writes the table and the seq)."""
    return f":{origin}:{','.join(parts_changed(entry.kind, bool(changes)))}"


def _index_reveal(conn: Connection, entry: NewEntry, reveal_id: int) -> None:
    """Name the entries a reveal shows (its record's ``reveals``, those of its own table)
    in ``revealed_entries``, in the reveal's transaction: from its commit, every viewer's
    sheets count their changes."""
    record = entry.record.value if isinstance(entry.record, Stored) else entry.record
    named = record.get("reveals")
    ids = [i for i in named or () if isinstance(i, int) and not isinstance(i, bool)]
    if not ids:
        return
    c = log_entries.c
    shown = select(c.id, bindparam("reveal_id", reveal_id, type_=Integer)).where(
        c.table_id == entry.table_id, c.id.in_(ids), c.id != reveal_id
    )
    conn.execute(revealed_entries.insert().from_select(["entry_id", "reveal_id"], shown))


def _notify(conn: Connection, payload: str) -> None:
    """PostgreSQL delivers it to every listening process when the transaction commits."""
    conn.execute(NOTIFY, NOTICE | {"payload": payload})


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


def _next_dice(conn: Connection, table_id: int, head: _Head, given: Contribution | None) -> Dice:
    """Pair the table's seed in force (read with its lock, ``_head``) with the play's
    contribution: the roller's, if made under that very commitment, else (none given) one
    the server chooses."""
    if head.commitment is None or head.server_seed is None:
        made = _commit_seed(conn, table_id)
        commitment, server_seed = str(made.commitment), str(made.server_seed)
    else:
        commitment, server_seed = head.commitment, head.server_seed
    if given is None:
        return Dice(server_seed, commitment, secrets.token_hex(16), True)
    if given.commitment != commitment:
        raise Conflict(
            "dice",
            "the table has committed to a new seed since this contribution was made:"
            " reload and roll again",
        )
    return Dice(server_seed, commitment, given.value, False)


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
