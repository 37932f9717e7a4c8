"""Sheet history (``store.history``): diffs, merges and folds, and the store's per-viewer sheets.

Pass criteria: folding every delta over the base gives the last sheet, whatever the
sheets were (Hypothesis); a whole number moves by its change when merged onto a sheet
another play changed (hidden damage is kept), anything else takes its new value, a
removed key goes; the store shows each scope the base plus the deltas of the entries it
sees whole, with a version that leaves the others out, and a change hidden from a scope
appears, at its place, once its entry is visible to it, or once a "reveal" entry names it
(in this process and another; also for reveals logged before migration 0006).
"""

from __future__ import annotations

import itertools
from typing import Any

from alembic import command
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, event, select, update

from rulebound.store import NewEntry, Privacy, Scope, SheetChange, SqlStore
from rulebound.store.history import diff, fold, merge
from rulebound.store.migrate import alembic_config, upgrade
from rulebound.store.schema import log_entries, revealed_entries
from rulebound.store.sql import parts_changed

from ..hunt import examples
from .conftest import character, new_table, seat

LEAF = st.one_of(st.integers(-5, 5), st.booleans(), st.text(max_size=3), st.lists(st.integers()))
SHEET = st.dictionaries(
    st.sampled_from(["name", "damage", "stress", "notes"]),
    LEAF | st.dictionaries(st.sampled_from(["a", "b"]), LEAF, max_size=2),
    max_size=4,
)


@settings(max_examples=examples(60), deadline=None)
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
    store.forget(table.id)  # changed behind the store's back: as another process's notice says
    assert seen(pia) == seen(oz) == (3, "cut", 3)


def _hidden_damage(store: SqlStore) -> tuple[Any, dict[str, Any]]:
    """A table where Pia's character took 2 damage blind, 1 seen by all, then 4 in a
    game-master-only play and 8 in one of her own: the plays' ids and the scopes."""
    table, gm = new_table(store)
    player, _ = seat(store, table.id, "player", "Pia")
    other, _ = seat(store, table.id, "player", "Oz")
    ana = character(store, table.id, player.id, {"name": "Ana", "damage": 0})
    scopes = {"gm": Scope(gm.id, True), "pia": Scope(player.id, False)}
    scopes["oz"] = Scope(other.id, False)
    plays = {}
    hurts: tuple[tuple[Privacy, int, str, int], ...] = (
        ("blind", player.id, "pia", 2),
        ("public", player.id, "pia", 1),
        ("gm", player.id, "pia", 4),
        ("self", player.id, "pia", 8),
    )
    for privacy, actor, scope, hurt in hurts:
        row = store.character(table.id, ana.id, scopes[scope])
        after = dict(row.sheet, damage=row.sheet["damage"] + hurt)
        entry = NewEntry(table.id, "roll", privacy, actor, "x", ana.id)
        plays[privacy] = store.append(entry, [SheetChange.of(row, after)]).id
    return (table, gm, ana, plays), scopes


def _reveal(store: SqlStore, table_id: int, gm: int, *ids: int) -> int:
    record = {"reveals": list(ids)}
    entry = NewEntry(table_id, "reveal", "public", gm, "revealed", None, None, record)
    return store.append(entry).id


def test_a_reveal_shows_what_it_names_to_every_scope_here_and_elsewhere(
    store: SqlStore,
) -> None:
    (table, gm, ana, plays), scopes = _hidden_damage(store)
    elsewhere = SqlStore(store.url, migrate=False)
    try:

        def seen(scope: str, where: SqlStore = store) -> tuple[int, int, int]:
            row = where.character(table.id, ana.id, scopes[scope])
            listed = [c for c in where.characters(table.id, scopes[scope]) if c.id == ana.id]
            assert listed == [row]
            return row.sheet["damage"], row.version, row.hidden

        assert [seen(s) for s in ("gm", "pia", "oz")] == [(7, 4, 1), (13, 4, 1), (1, 2, 3)]
        store.characters(table.id), elsewhere.characters(table.id)
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        other_table, other_gm = new_table(store, "Other")
        _reveal(store, other_table.id, other_gm.id, plays["blind"], plays["gm"])
        assert seen("oz") == (1, 2, 3)  # a reveal names entries of its own table only
        _reveal(store, table.id, gm.id, plays["blind"])
        statements.clear()
        assert [c.sheet["damage"] for c in store.characters(table.id)] == [15]
        assert statements, "a reveal drops the cached characters"
        assert parts_changed("reveal", sheets=False) == ("characters",)  # so do its notices
        assert [seen(s) for s in ("gm", "pia", "oz")] == [(7, 4, 1), (15, 5, 0), (3, 3, 2)]
        assert [seen(s, elsewhere) for s in ("gm", "pia", "oz")] == [
            (7, 4, 1),
            (15, 5, 0),
            (3, 3, 2),
        ]
        _reveal(store, table.id, gm.id, plays["blind"], plays["gm"])  # again, and one more
        assert [seen(s) for s in ("gm", "pia", "oz")] == [(7, 4, 1), (15, 5, 0), (7, 4, 1)]
        assert store.character(table.id, ana.id).version == 5
    finally:
        elsewhere.close()


def test_reveals_logged_before_migration_0006_are_indexed_from_their_records(
    store: SqlStore,
) -> None:
    (table, gm, ana, plays), scopes = _hidden_damage(store)
    elsewhere = store.log(new_table(store, "Other")[0].id)[0].id
    first = _reveal(store, table.id, gm.id, plays["blind"], plays["gm"])
    second = _reveal(store, table.id, gm.id, elsewhere)  # another table's entry: not indexed
    everything = select(revealed_entries).order_by("entry_id", "reveal_id")
    with store.engine.connect() as conn:
        indexed = conn.execute(everything).all()
    config = alembic_config()
    with store.engine.connect().execution_options(rulebound_write=True) as conn:
        conn.execute(delete(revealed_entries))
        config.attributes["connection"] = conn
        command.downgrade(config, "0005")
        conn.commit()
    upgrade(store.engine)
    with store.engine.connect() as conn:
        again = conn.execute(everything).all()
    assert again == indexed
    ours = [tuple(row) for row in again if row.reveal_id in (first, second)]
    assert ours == [(plays["blind"], first), (plays["gm"], first)]
    row = store.character(table.id, ana.id, scopes["oz"])
    assert (row.sheet["damage"], row.version, row.hidden) == (7, 4, 1)
