"""The store's read statements: who may see which log rows, and the rows each read finds.

Built once at import, with the values they take as bound parameters: building a statement
costs about as much as running it, and one kept keeps its cache key, so SQLAlchemy finds its
compiled form at once. A statement whose shape varies (whether a viewer is a game master;
which bounds a page of the log has) is built once per shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

from sqlalchemy import (
    Integer,
    Select,
    String,
    Table,
    and_,
    bindparam,
    case,
    exists,
    func,
    not_,
    or_,
    select,
)
from sqlalchemy.sql.elements import BindParameter, ColumnElement

from rulebound.store.schema import characters, game_tables, log_entries, members, revealed_entries

_c = log_entries.c
TABLE_ID = bindparam("table_id", type_=Integer)
MEMBER_ID = bindparam("member_id", type_=Integer)

CHARACTER = select(characters).where(
    characters.c.table_id == bindparam("table_id"), characters.c.id == bindparam("character_id")
)
SESSION = select(members).where(
    members.c.table_id == bindparam("table_id"), members.c.session_hash == bindparam("digest")
)
TABLE = select(game_tables).where(game_tables.c.id == TABLE_ID)
_token = bindparam("token", type_=String)
BY_TOKEN = select(game_tables).where(
    or_(
        game_tables.c.gm_token == _token,
        game_tables.c.player_token == _token,
        game_tables.c.observer_token == _token,
    )
)
CHARACTERS = select(characters).where(characters.c.table_id == TABLE_ID).order_by(characters.c.id)
MEMBERS = select(members).where(members.c.table_id == TABLE_ID).order_by(members.c.id)


def _by_ids(rows: Table) -> Select[Any]:
    """The rows of ``ids`` at a table (``table_id``)."""
    ids = bindparam("ids", type_=Integer, expanding=True)
    return select(rows).where(rows.c.table_id == TABLE_ID, rows.c.id.in_(ids))


CHARACTERS_BY_ID = _by_ids(characters)
MEMBERS_BY_ID = _by_ids(members)

ENTRY = select(log_entries).where(_c.table_id == TABLE_ID, _c.id == bindparam("entry_id"))
LOG = select(log_entries).where(_c.table_id == TABLE_ID).order_by(_c.seq)
TAIL = (
    select(log_entries)
    .where(_c.table_id == TABLE_ID, _c.seq > bindparam("after", type_=Integer))
    .order_by(_c.seq)
    .limit(bindparam("limit", type_=Integer))
)
CHILD = select(_c.id).where(_c.parent_id == bindparam("entry_id", type_=Integer))
FOLLOWED = select(_c.parent_id).where(
    _c.parent_id.in_(bindparam("entry_ids", type_=Integer, expanding=True))
)
REVEALED = select(revealed_entries.c.entry_id).where(
    revealed_entries.c.entry_id.in_(bindparam("entry_ids", type_=Integer, expanding=True))
)
LAST_SEQ = select(func.max(_c.seq)).where(_c.table_id == TABLE_ID)


GM_KNOWS = ("public", "gm", "blind", "whisper")
"""What a game master knows of, whoever logged it ("self" only their own)."""
OWN_ONLY = ("gm", "blind", "self", "whisper")
"""What a player knows of only when they logged it (or, a whisper, are its addressee)."""


def _visible(is_gm: bool, member_id: int | BindParameter[int]) -> ColumnElement[bool]:
    """The log rows a viewer may know of. Blind rows reach their roller only to be redacted;
    a whisper reaches its sender, its addressee and the game masters."""
    mine = _c.actor_id == member_id
    if is_gm:
        return or_(_c.privacy.in_(GM_KNOWS), and_(_c.privacy == "self", mine))
    return or_(_c.privacy == "public", and_(_c.privacy.in_(OWN_ONLY), mine), _to_me(member_id))


def knows_of(row: Mapping[str, Any], is_gm: bool, member_id: int) -> bool:
    """``_visible`` for a row not yet inserted (its values): the same rule, in Python."""
    privacy, mine = str(row["privacy"]), bool(row["actor_id"] == member_id)
    if is_gm:
        return privacy in GM_KNOWS or (privacy == "self" and mine)
    to_me = privacy == "whisper" and bool(row["to_id"] == member_id)
    return privacy == "public" or (privacy in OWN_ONLY and mine) or to_me


def _to_me(member_id: int | BindParameter[int]) -> ColumnElement[bool]:
    return and_(_c.privacy == "whisper", _c.to_id == member_id)


def _shown(
    is_gm: bool, mine: ColumnElement[bool], to_me: ColumnElement[bool]
) -> ColumnElement[bool]:
    """The log rows a viewer sees whole (``Viewer.sees_fully``): a blind roll is the GMs'."""
    if is_gm:
        return or_(_c.privacy.in_(GM_KNOWS), and_(_c.privacy == "self", mine))
    return or_(_c.privacy == "public", and_(_c.privacy.in_(("gm", "self", "whisper")), mine), to_me)


def revealed() -> ColumnElement[bool]:
    """The log row is one that a later "reveal" entry showed to the whole table."""
    return exists().where(revealed_entries.c.entry_id == log_entries.c.id)


def _entries_query(is_gm: bool, after: bool, before: bool, kind: bool) -> Select[Any]:
    """A page of the entries a viewer (``member_id``) may know of: ascending from ``after``
    if it bounds the page, else the newest first; ``kind`` rendered inline, so that a
    partial index on one kind can serve it."""
    query = select(log_entries).where(_c.table_id == TABLE_ID, _visible(is_gm, MEMBER_ID))
    if kind:
        query = query.where(_c.kind == bindparam("kind", type_=String, literal_execute=True))
    if after:
        query = query.where(_c.seq > bindparam("after", type_=Integer)).order_by(_c.seq)
    else:
        query = query.order_by(_c.seq.desc())
    if before:
        query = query.where(_c.seq < bindparam("before", type_=Integer))
    return query.limit(bindparam("limit", type_=Integer))


ENTRIES = {shape: _entries_query(*shape) for shape in product((False, True), repeat=4)}
"""``_entries_query`` by (game master, after, before, kind)."""


def _outlines_query(is_gm: bool) -> Select[Any]:
    """The outlines of the entries after ``after`` that a viewer may know of, ascending: the
    record only of the kinds in ``kinds`` (NULL for the others, never decoded)."""
    record = case((_c.kind.in_(bindparam("kinds", type_=String, expanding=True)), _c.record))
    return (
        select(_c.id, _c.seq, _c.kind, _c.parent_id, _c.character_id, record.label("record"))
        .where(
            _c.table_id == TABLE_ID,
            _visible(is_gm, MEMBER_ID),
            _c.seq > bindparam("after", type_=Integer),
        )
        .order_by(_c.seq)
        .limit(bindparam("limit", type_=Integer))
    )


OUTLINES = {is_gm: _outlines_query(is_gm) for is_gm in (False, True)}


def _folded_query(is_gm: bool) -> Select[Any]:
    """The deltas a viewer (``member_id``) folds into their sheets, in log order: of the
    rows it sees whole, and of every revealed one (its change shows at its place in the log)."""
    mine, to_me = _c.actor_id == MEMBER_ID, _to_me(MEMBER_ID)
    return (
        select(_c.deltas)
        .where(
            _c.table_id == TABLE_ID,
            _c.deltas.is_not(None),
            or_(_shown(is_gm, mine, to_me), revealed()),
        )
        .order_by(_c.seq)
    )


FOLDED = {is_gm: _folded_query(is_gm) for is_gm in (False, True)}


def _hidden_query(is_gm: bool) -> Select[Any]:
    """The deltas a viewer may not see (``member_id``, a game master or not): the
    complement of ``FOLDED``.

    What is hidden is never public (nor, from a game master, anything but "self"): saying
    so lets the query run on the index of the entries that changed a sheet."""
    private = _c.privacy == "self" if is_gm else _c.privacy.in_(OWN_ONLY)
    return select(_c.deltas).where(
        _c.table_id == TABLE_ID,
        _c.deltas.is_not(None),
        private,
        not_(_shown(is_gm, _c.actor_id == MEMBER_ID, _to_me(MEMBER_ID))),
        not_(revealed()),
    )


HIDDEN = {is_gm: _hidden_query(is_gm) for is_gm in (False, True)}
