"""Issue 8, test 3 (integrity): tampering with one entry in the database is caught at that entry.

Pass criterion: after editing (a summary, a die face, a stored hash, a privacy
mode), deleting or reordering a single entry with raw SQL, on SQLite and on
PostgreSQL, ``rulebound verify`` on the table's export exits 1 and its first
problem names exactly that entry's seq; the untouched export exits 0.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, create_engine, text

from .conftest import Table, verify

Tamper = Callable[[Connection, int, int], None]


def _set(column: str, value: object) -> Tamper:
    def tamper(conn: Connection, table_id: int, seq: int) -> None:
        conn.execute(
            text(f"UPDATE log_entries SET {column} = :value WHERE table_id = :t AND seq = :s"),
            {"value": value, "t": table_id, "s": seq},
        )

    return tamper


def _other_face(conn: Connection, table_id: int, seq: int) -> None:
    query = text("SELECT record FROM log_entries WHERE table_id = :t AND seq = :s")
    raw = conn.execute(query, {"t": table_id, "s": seq}).scalar_one()
    record = json.loads(raw) if isinstance(raw, str) else dict(raw)
    sides, face = record["draws"][0]
    record["draws"][0] = [sides, face % sides + 1]
    _set("record", json.dumps(record))(conn, table_id, seq)


def _delete(conn: Connection, table_id: int, seq: int) -> None:
    conn.execute(
        text("DELETE FROM log_entries WHERE table_id = :t AND seq = :s"), {"t": table_id, "s": seq}
    )


def _swap_with_next(conn: Connection, table_id: int, seq: int) -> None:
    move = text("UPDATE log_entries SET seq = :to WHERE table_id = :t AND seq = :s")
    for frm, to in ((seq, -1), (seq + 1, seq), (-1, seq + 1)):
        conn.execute(move, {"t": table_id, "s": frm, "to": to})


TAMPERS: dict[str, tuple[Tamper, int]] = {
    "edit a join's summary": (_set("summary", "Mallory joined as game master"), 2),
    "edit a roll's summary": (_set("summary", "Ana: 3 successes"), 9),
    "edit a die face": (_other_face, 10),
    "edit a hidden roll's die": (_other_face, 8),
    "edit a stored hash": (_set("hash", "ab" * 32), 7),
    "edit a privacy mode": (_set("privacy", "public"), 9),
    "delete an entry": (_delete, 9),
    "reorder two entries": (_swap_with_next, 8),
}


@pytest.fixture
def played(table: Table) -> Table:
    """Seqs 1-4 joins, 5 a character, 6 its sheet, 7-11 rolls (8 and 9 hidden), 12 the reveal."""
    cid = table.character("player")
    for privacy in ("public", "gm", "blind", "public", "public"):
        table.roll("player", cid, privacy)
    table.reveal()
    return table


@pytest.fixture
def raw(db_url: str) -> Iterator[Callable[[Tamper, int, int], None]]:
    engine = create_engine(db_url)

    def run(tamper: Tamper, table_id: int, seq: int) -> None:
        with engine.begin() as conn:
            tamper(conn, table_id, seq)

    yield run
    engine.dispose()


def test_the_untouched_log_verifies(played: Table, tmp_path: Path) -> None:
    doc = played.export("gm")
    assert [e["seq"] for e in doc["entries"]] == list(range(1, 13))
    assert [e["kind"] for e in doc["entries"]][6:] == ["roll"] * 5 + ["seed"]
    assert verify(doc, tmp_path).code == 0


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_one_tampered_entry_is_named(
    played: Table, raw: Callable[[Tamper, int, int], None], tmp_path: Path, name: str
) -> None:
    tamper, seq = TAMPERS[name]
    raw(tamper, played.id, seq)
    for who in ("gm", "observer"):
        verdict = verify(played.export(who), tmp_path)
        assert verdict.code == 1, (who, verdict.out)
        assert verdict.first == seq, (who, verdict.problems)
