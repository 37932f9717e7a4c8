"""The Python mirror of the log's visibility rule (``knows_of``, for rows a batch has sealed
but not yet written) answers as the SQL rule (``_visible``) does, for every privacy, author,
addressee and viewer."""

from __future__ import annotations

import itertools

import pytest
from sqlalchemy import create_engine, select, text

from rulebound.store.schema import log_entries
from rulebound.store.sql.queries import _visible, knows_of
from rulebound.web.views import PLAY_LABELS

PRIVACIES = (*PLAY_LABELS, "whisper")
PEOPLE = (1, 2, 3)
ROWS = [
    {"privacy": privacy, "actor_id": actor, "to_id": to}
    for privacy, actor, to in itertools.product(PRIVACIES, (None, *PEOPLE), (None, *PEOPLE))
]


@pytest.mark.parametrize(("is_gm", "member_id"), list(itertools.product((True, False), PEOPLE)))
def test_the_python_rule_knows_of_the_rows_the_sql_rule_finds(is_gm: bool, member_id: int) -> None:
    engine = create_engine("sqlite://")
    c = log_entries.c
    with engine.begin() as conn:
        conn.execute(
            text("CREATE TABLE log_entries (id INTEGER PRIMARY KEY, privacy, actor_id, to_id)")
        )
        conn.execute(
            text("INSERT INTO log_entries VALUES (:id, :privacy, :actor_id, :to_id)"),
            [{"id": n, **row} for n, row in enumerate(ROWS)],
        )
        query = select(c.id).where(_visible(is_gm, member_id))
        found = set(conn.execute(query).scalars())
    engine.dispose()
    assert {n for n, row in enumerate(ROWS) if knows_of(row, is_gm, member_id)} == found
    assert 0 < len(found) < len(ROWS)  # the rule tells rows apart for every viewer
