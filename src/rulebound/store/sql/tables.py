"""Tables, their invite links and their members: each change logged in its own transaction."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, and_, select, update

from rulebound.store.base import Conflict, Member, NewEntry, NotFound, Role, TableRow
from rulebound.store.rows import member_row, table_row
from rulebound.store.schema import game_tables, members
from rulebound.store.sql.common import StoreBase, new_token, now, token_hash
from rulebound.store.sql.dice import commit_seed
from rulebound.store.sql.log import LogPart
from rulebound.store.sql.queries import BY_TOKEN, MEMBERS, MEMBERS_BY_ID, SESSION, TABLE
from rulebound.store.writer import Batch


class TablesPart(LogPart, StoreBase):
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
            "created_at": now(),
        }

        def write(batch: Batch) -> Any:
            key = batch.conn.execute(game_tables.insert().values(**values)).inserted_primary_key
            assert key is not None
            table_id = int(key[0])
            commitment = commit_seed(batch, table_id)
            gm, session = seat(batch.conn, table_id, "gm", founder)
            record = {"ruleset": ruleset, "variants": dict(variants), "committed": commitment}
            self._seal(batch, NewEntry(table_id, "join", "public", gm.id, summary, record=record))
            return lambda: (table_id, gm, session)

        table_id, gm, session = self._write(write)
        return self.table(table_id), gm, session

    def table(self, table_id: int) -> TableRow:
        def load() -> TableRow:
            return table_row(self._one(TABLE, {"table_id": table_id}, "table", table_id))

        return self._cached(table_id, "table", "row", load)

    def table_by_token(self, token: str) -> tuple[TableRow, Role]:
        with self._read() as conn:
            row = conn.execute(BY_TOKEN, {"token": token}).mappings().first()
        if row is None or not token:
            raise NotFound("invite", "(token)")
        table = table_row(row)
        roles: dict[str | None, Role] = {table.gm_token: "gm", table.player_token: "player"}
        return table, roles.get(token, "observer")

    def rotate_token(self, table_id: int, role: Role, *, disable: bool = False) -> TableRow:
        if disable and role != "observer":
            raise Conflict("invite", "only the observer link can be switched off")

        def write(batch: Batch) -> Any:
            rotate(batch.conn, table_id, role, disable=disable)
            batch.changed.append((table_id, ("table",)))
            return lambda: None

        self._write(write, [table_id])
        return self.table(table_id)

    # members

    def add_member(self, table_id: int, role: Role, name: str, summary: str) -> tuple[Member, str]:
        def write(batch: Batch) -> Any:
            batch.lock([table_id])
            seated = seat(batch.conn, table_id, role, name)
            self._seal(batch, NewEntry(table_id, "join", "public", seated[0].id, summary))
            return lambda: seated

        seated: tuple[Member, str] = self._write(write, [table_id])
        return seated

    def member_by_session(self, table_id: int, token: str) -> Member | None:
        digest = token_hash(token)
        found = self.cache.get(table_id, "members", ("session", digest))
        if isinstance(found, Member):
            return found
        generation = self.cache.generation(table_id, "members")
        with self._read() as conn:
            row = conn.execute(SESSION, {"table_id": table_id, "digest": digest}).mappings().first()
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
            with self._read() as conn:
                rows = conn.execute(MEMBERS, {"table_id": table_id}).mappings()
                return tuple(member_row(row) for row in rows)

        return list(self._cached(table_id, "members", "all", load))

    def members_by_id(self, table_id: int, ids: Iterable[int]) -> Mapping[int, Member]:
        return self._by_ids(
            table_id, "members", ids, lambda i: ("id", i), MEMBERS_BY_ID, member_row
        )

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

        def write(batch: Batch) -> Any:
            batch.lock([table_id])
            row = batch.conn.execute(select(members).where(where)).mappings().first()
            if row is None:
                raise NotFound("member", member_id)
            if values:
                batch.conn.execute(update(members).where(where).values(**values))
            if revoked:
                for role in BELOW[member_row(row).role]:
                    rotate(batch.conn, table_id, role, keep_off=True)
            if entry is not None:
                self._seal(batch, entry)
            elif values:
                batch.changed.append((table_id, ("members", "table") if revoked else ("members",)))
            return lambda: None

        self._write(write, [table_id])
        return self.member(table_id, member_id)


def seat(conn: Connection, table_id: int, role: Role, name: str) -> tuple[Member, str]:
    """A new member of the table, and the session token to hand them once."""
    token = new_token()
    created = now()
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
    return Member(int(key[0]), table_id, role, name, False, False, created), token


BELOW: dict[Role, tuple[Role, ...]] = {
    "gm": ("gm", "player", "observer"),
    "player": ("player", "observer"),
    "observer": ("observer",),
}
"""The links a revoked member of each role may have held: their own role's, and every role's
below it (a player has seen the observer link), each replaced so that none seats them again."""


def rotate(
    conn: Connection, table_id: int, role: Role, *, disable: bool = False, keep_off: bool = False
) -> None:
    """Replace a role's invite token (or switch the observer link off; ``keep_off``: a link
    switched off stays off)."""
    column = game_tables.c[f"{role}_token"]
    query = update(game_tables).where(game_tables.c.id == table_id)
    if keep_off:
        query = query.where(column.is_not(None))
    done = conn.execute(query.values({column: None if disable else new_token()}))
    if keep_off:
        return  # a link that is off stays off; the caller has found the table
    if done.rowcount == 0:
        raise NotFound("table", table_id)
