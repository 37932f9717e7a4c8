"""The store's read statements: who may see which log rows, and the rows a roll reads.

Built once at import: SQLAlchemy then reuses their compiled form.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer, Select, and_, bindparam, exists, not_, or_, select
from sqlalchemy.sql.elements import BindParameter, ColumnElement

from rulebound.store.base import Scope
from rulebound.store.schema import characters, log_entries, members, revealed_entries

CHARACTER = select(characters).where(
    characters.c.table_id == bindparam("table_id"), characters.c.id == bindparam("character_id")
)
SESSION = select(members).where(
    members.c.table_id == bindparam("table_id"), members.c.session_hash == bindparam("digest")
)


def visible_to(scope: Scope) -> ColumnElement[bool]:
    """The log rows a viewer may know of. Blind rows reach their roller only to be redacted;
    a whisper reaches its sender, its addressee and the game masters."""
    c = log_entries.c
    mine = c.actor_id == scope.member_id
    if scope.is_gm:
        return or_(
            c.privacy.in_(("public", "gm", "blind", "whisper")), and_(c.privacy == "self", mine)
        )
    return or_(
        c.privacy == "public",
        and_(c.privacy.in_(("gm", "blind", "self", "whisper")), mine),
        _to_me(scope.member_id),
    )


def shown_to(scope: Scope) -> ColumnElement[bool]:
    """The log rows a viewer sees whole (``Viewer.sees_fully``): a blind roll is the GMs'."""
    c = log_entries.c
    return _shown(scope.is_gm, c.actor_id == scope.member_id, _to_me(scope.member_id))


def _to_me(member_id: int | BindParameter[int]) -> ColumnElement[bool]:
    c = log_entries.c
    return and_(c.privacy == "whisper", c.to_id == member_id)


def _shown(
    is_gm: bool, mine: ColumnElement[bool], to_me: ColumnElement[bool]
) -> ColumnElement[bool]:
    c = log_entries.c
    if is_gm:
        return or_(
            c.privacy.in_(("public", "gm", "blind", "whisper")), and_(c.privacy == "self", mine)
        )
    return or_(c.privacy == "public", and_(c.privacy.in_(("gm", "self", "whisper")), mine), to_me)


def revealed() -> ColumnElement[bool]:
    """The log row is one that a later "reveal" entry showed to the whole table."""
    return exists().where(revealed_entries.c.entry_id == log_entries.c.id)


def folded_for(scope: Scope) -> ColumnElement[bool]:
    """The log rows whose sheet changes ``scope``'s sheets show: those it sees whole, and
    every revealed one (its change appears at its place in the log)."""
    return or_(shown_to(scope), revealed())


def _hidden_query(is_gm: bool) -> Select[Any]:
    """The deltas a viewer may not see (``member_id``, a game master or not): the
    complement of ``folded_for``.

    What is hidden is never public (nor, from a game master, anything but "self"): saying
    so lets the query run on the index of the entries that changed a sheet."""
    c = log_entries.c
    member = bindparam("member_id", type_=Integer)
    private = c.privacy == "self" if is_gm else c.privacy.in_(("gm", "blind", "self", "whisper"))
    return select(c.deltas).where(
        c.table_id == bindparam("table_id", type_=Integer),
        c.deltas.is_not(None),
        private,
        not_(_shown(is_gm, c.actor_id == member, _to_me(member))),
        not_(revealed()),
    )


HIDDEN = {is_gm: _hidden_query(is_gm) for is_gm in (False, True)}
