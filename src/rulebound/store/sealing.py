"""An entry's row: sealed onto its table's chain end, and the entry it is once inserted.

The chain end (``Head``) is read under the table's lock; each entry sealed onto it
moves it on in Python (``trust.chain``), so a batch of entries reads it once.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Integer, Select, bindparam, select, true

from rulebound.core.stored import Stored
from rulebound.store.base import Dice, LogEntry, NewEntry, NotFound, SheetChange
from rulebound.store.cache import Part
from rulebound.store.schema import game_tables, log_entries, revealed_entries, table_seeds
from rulebound.trust.chain import (
    GENESIS,
    blinds_dice,
    body_hash,
    chain_hash,
    dice_of,
    entry_body,
    entry_content,
    new_salt,
)


@dataclass(frozen=True, slots=True)
class Head:
    """A table's chain end and its seed in force, as read under its lock."""

    seq: int
    hash: str
    commitment: str | None
    server_seed: str | None

    def seeded(self, commitment: str, server_seed: str) -> Head:
        return replace(self, commitment=commitment, server_seed=server_seed)


def _head_query() -> Select[Any]:
    c, s = log_entries.c, table_seeds.c
    table = bindparam("table_id", type_=Integer)
    last = (
        select(c.seq, c.hash).where(c.table_id == table).order_by(c.seq.desc()).limit(1).subquery()
    )
    seed = (
        select(s.commitment, s.server_seed)
        .where(s.table_id == table, s.revealed_at.is_(None))
        .order_by(s.id.desc())
        .limit(1)
        .subquery()
    )
    return (
        select(last.c.seq, last.c.hash, seed.c.commitment, seed.c.server_seed)
        .select_from(game_tables)
        .outerjoin(last, true())
        .outerjoin(seed, true())
        .where(game_tables.c.id == table)
    )


HEAD = _head_query()


def read_head(conn: Connection, table_id: int) -> Head:
    """The table's chain end and unrevealed seed (NotFound: no such table). On PostgreSQL the
    caller holds the table's row first, in a statement of its own: under READ COMMITTED this
    statement then reads what the writer it waited for committed."""
    row = conn.execute(HEAD, {"table_id": table_id}).first()
    if row is None:
        raise NotFound("table", table_id)
    seq, last, commitment, server_seed = row
    return Head(
        0 if seq is None else int(seq),
        GENESIS if last is None else str(last),
        None if commitment is None else str(commitment),
        None if server_seed is None else str(server_seed),
    )


@dataclass(frozen=True, slots=True)
class Row:
    """An entry's row as inserted (``values``), and how it reads back."""

    values: dict[str, Any]

    def written(self, entry_id: int) -> LogEntry:
        """The entry as inserted: nothing is read again."""
        v = self.values
        card: Stored | None = v["card"]
        return LogEntry(
            id=entry_id,
            **{name: v[name] for name in WRITTEN},
            record=v["record"].value,
            card=None if card is None else card.value,
            changed=tuple(v["changed"]),
        )


WRITTEN = (
    *("table_id", "seq", "kind", "privacy", "actor_id", "character_id", "parent_id"),
    *("summary", "created_at", "prev_hash", "hash", "salt"),
    *("commitment", "contribution", "server_chosen", "to_id"),
)
"""The fields of a written entry that are its inserted row's values as they are."""


def sealed(
    entry: NewEntry, changes: Sequence[SheetChange], dice: Dice | None, head: Head
) -> tuple[Row, Head]:
    """The row ``entry`` is inserted as, sealed onto the chain's end ``head``, and the end
    after it. Its record and card are serialised once (``Stored``): the seal commits to them
    as they will be read back, the insert writes that text, the entry answers with it parsed."""
    record = entry.record if type(entry.record) is Stored else Stored.of(entry.record)
    addressed(entry, record.value)
    if entry.privacy == "whisper" and dice is not None:  # its dice name the hash of this
        record = Stored.of({**record.value, "contribution": dice.contribution})
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
        "created_at": datetime.now(UTC),
    }
    salt = new_salt()
    digest = body_hash(salt, entry_body(**values), parsed=True)
    seq = head.seq + 1
    values |= {
        "table_id": entry.table_id,
        "seq": seq,
        "privacy": entry.privacy,
        "salt": salt,
        "deltas": {str(ch.character_id): ch.delta for ch in changes} if changes else None,
        "commitment": None if dice is None else dice.commitment,
        "contribution": None if dice is None else dice.contribution,
        "server_chosen": None if dice is None else dice.server_chosen,
        "client_seed": None,
        "nonce": None,
        "prev_hash": head.hash,
        "to_id": entry.to_id,
    }
    blinded = blinds_dice(entry.privacy, record.value)
    shown = dice_of(
        values["commitment"], values["contribution"], values["server_chosen"], blinded=blinded
    )
    content = entry_content(entry.table_id, seq, entry.privacy, shown, digest)
    values["hash"] = chain_hash(head.hash, content, parsed=True)
    return Row(values), replace(head, seq=seq, hash=values["hash"])


def addressed(entry: NewEntry, record: dict[str, Any]) -> None:
    """A whisper names its addressee in its record (what the chain commits to) and in
    ``to_id`` (what the read filters use), the same member; no other entry has one."""
    whisper = entry.privacy == "whisper"
    if whisper != (entry.to_id is not None) or (whisper and record.get("to") != entry.to_id):
        raise ValueError("a whisper, and only a whisper, names its addressee as to_id and to")


def parts_changed(kind: str, sheets: bool) -> tuple[Part, ...]:
    """What of its table an entry's commit changed (``sheets``: it changed a sheet), so the
    caches drop it, here and in the other processes."""
    parts: list[Part] = []
    if kind in ("join", "member"):
        parts += ["members", "table"]  # a revoke replaces an invite link too
    if sheets or kind in ("character", "reveal"):
        parts.append("characters")  # a reveal shows hidden changes: the sheets seen change
    return tuple(parts)


def index_reveal(record: dict[str, Any], table_id: int) -> Any:
    """What names the entries a reveal shows (its record's ``reveals``, of its own table) in
    ``revealed_entries``, once the reveal has its id: from its commit, every viewer's sheets
    count their changes. None: it names none."""
    named = record.get("reveals")
    ids = [i for i in named or () if isinstance(i, int) and not isinstance(i, bool)]
    if not ids:
        return None

    def index(conn: Connection, reveal_id: int) -> None:
        c = log_entries.c
        shown = select(c.id, bindparam("reveal_id", reveal_id, type_=Integer)).where(
            c.table_id == table_id, c.id.in_(ids), c.id != reveal_id
        )
        conn.execute(revealed_entries.insert().from_select(["entry_id", "reveal_id"], shown))

    return index


def server_contribution() -> str:
    """A contribution the server chooses for a roller who sent none."""
    return secrets.token_hex(16)
