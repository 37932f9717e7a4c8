"""Sheet history (``store.history``): diffs, merges and folds, and the store's per-viewer sheets.

Pass criteria: folding every delta over the base gives the last sheet, whatever the
sheets were (Hypothesis); a whole number moves by its change when merged onto a sheet
another play changed (hidden damage is kept), anything else takes its new value, a
removed key goes; the store shows each scope the base plus the deltas of the entries it
sees whole, with a version that leaves the others out, and a change hidden from a scope
appears, at its place, once its entry is visible to it.
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from rulebound.store import NewEntry, Scope, SheetChange, SqlStore
from rulebound.store.history import diff, fold, merge
from rulebound.store.schema import log_entries

from .conftest import character, new_table, seat

LEAF = st.one_of(st.integers(-5, 5), st.booleans(), st.text(max_size=3), st.lists(st.integers()))
SHEET = st.dictionaries(
    st.sampled_from(["name", "damage", "stress", "notes"]),
    LEAF | st.dictionaries(st.sampled_from(["a", "b"]), LEAF, max_size=2),
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(sheets=st.lists(SHEET, min_size=1, max_size=6))
def test_folding_every_delta_gives_the_last_sheet(sheets: list[dict[str, Any]]) -> None:
    deltas = [diff(a, b) for a, b in itertools.pairwise(sheets)]
    assert fold(sheets[0], deltas) == sheets[-1]
    assert diff(sheets[-1], sheets[-1]) == []


def test_a_merge_keeps_what_another_play_changed() -> None:
    hidden = diff({"damage": 0, "notes": "a"}, {"damage": 2, "notes": "a"})
    seen = diff({"damage": 0, "notes": "a"}, {"damage": 1, "notes": "b", "x": {"y": 1}})
    stored = merge(merge({"damage": 0, "notes": "a", "gone": 1}, hidden), seen)
    assert stored == {"damage": 3, "notes": "b", "gone": 1, "x": {"y": 1}}
    assert merge(stored, diff({"gone": 1}, {})) == {"damage": 3, "notes": "b", "x": {"y": 1}}
    assert merge({"flag": True}, diff({"flag": False}, {"flag": 1})) == {"flag": 1}


def test_each_scope_sees_the_sheet_as_of_the_entries_it_sees(store: SqlStore) -> None:
    table, gm = new_table(store)
    player, _ = seat(store, table.id, "player", "Pia")
    other, _ = seat(store, table.id, "player", "Oz")
    ana = character(store, table.id, player.id, {"name": "Ana", "damage": 0, "notes": ""})

    def play(privacy: Any, actor: int, scope: Scope, after: dict[str, Any]) -> int:
        row = store.character(table.id, ana.id, scope)
        entry = NewEntry(table.id, "roll", privacy, actor, "x", ana.id)
        return store.append(entry, [SheetChange.of(row, after)]).id

    gm_scope, pia, oz = Scope(gm.id, True), Scope(player.id, False), Scope(other.id, False)
    blind = play("blind", player.id, pia, {"name": "Ana", "damage": 2, "notes": ""})
    play("public", player.id, pia, {"name": "Ana", "damage": 1, "notes": "cut"})

    def seen(scope: Scope) -> tuple[int, str, int]:
        row = store.character(table.id, ana.id, scope)
        return row.sheet["damage"], row.sheet["notes"], row.version

    assert seen(gm_scope) == (3, "cut", 3)
    assert seen(pia) == seen(oz) == (1, "cut", 2)
    assert store.character(table.id, ana.id).sheet["damage"] == 3
    assert [row.sheet["damage"] for row in store.characters(table.id, oz)] == [1]
    with store.engine.connect().execution_options(rulebound_write=True) as conn, conn.begin():
        conn.execute(update(log_entries).where(log_entries.c.id == blind).values(privacy="public"))
    assert seen(pia) == seen(oz) == (3, "cut", 3)
