from __future__ import annotations

import pytest

from rulebound.store import Conflict, NewEntry, NotFound, Scope, SheetChange, SqlStore


def _setup(store: SqlStore) -> tuple[int, int, int, int]:
    table = store.create_table("T", "empty-reach", {}, observers=True)
    gm, _ = store.add_member(table.id, "gm", "Gina")
    player, _ = store.add_member(table.id, "player", "Pia")
    character = store.create_character(table.id, player.id, {"name": "Ana", "damage": 0})
    return table.id, gm.id, player.id, character.id


def test_seq_counts_per_table(store: SqlStore) -> None:
    table_id, gm, _, _ = _setup(store)
    other = store.create_table("U", "empty-reach", {}, observers=False)
    seqs = [store.append(NewEntry(table_id, "note", "public", gm, f"n{i}")).seq for i in range(3)]
    assert seqs == [1, 2, 3]
    assert store.append(NewEntry(other.id, "note", "public", None, "x")).seq == 1
    assert store.last_seq(table_id) == 3
    assert store.last_seq(other.id) == 1


def test_an_entry_and_its_sheet_change_commit_together(store: SqlStore) -> None:
    table_id, _, player, char = _setup(store)
    entry = NewEntry(table_id, "roll", "public", player, "pushed", char, record={"draws": [[6, 1]]})
    logged = store.append(entry, [SheetChange(char, 1, {"name": "Ana", "damage": 1})])
    assert logged.changed == (char,)
    assert logged.record == {"draws": [[6, 1]]}
    after = store.character(table_id, char)
    assert (after.version, after.sheet["damage"]) == (2, 1)


def test_a_stale_version_writes_neither_entry_nor_sheet(store: SqlStore) -> None:
    table_id, gm, player, char = _setup(store)
    second = store.create_character(table_id, player, {"name": "Bo"})
    changes = [
        SheetChange(second.id, 1, {"name": "Bo", "damage": 2}),
        SheetChange(char, 7, {"name": "Ana", "damage": 3}),
    ]
    with pytest.raises(Conflict):
        store.append(NewEntry(table_id, "table", "public", gm, "initiative"), changes)
    assert store.last_seq(table_id) == 0
    assert store.character(table_id, second.id).version == 1
    assert store.character(table_id, second.id).sheet == {"name": "Bo"}


def test_a_result_is_followed_up_once_and_chains_root_first(store: SqlStore) -> None:
    table_id, _, player, char = _setup(store)
    root = store.append(NewEntry(table_id, "roll", "public", player, "roll", char))
    push = store.append(NewEntry(table_id, "action", "public", player, "push", char, root.id))
    again = store.append(NewEntry(table_id, "action", "public", player, "push2", char, push.id))
    assert [e.id for e in store.chain(table_id, again.id)] == [root.id, push.id, again.id]
    assert store.has_child(root.id)
    assert not store.has_child(again.id)
    with pytest.raises(Conflict, match="already followed up"):
        store.append(NewEntry(table_id, "action", "public", player, "fork", char, root.id))
    with pytest.raises(NotFound):
        store.entry(table_id + 1, root.id)


def test_an_unknown_table_is_not_found(store: SqlStore) -> None:
    with pytest.raises(NotFound):
        store.append(NewEntry(12345, "note", "public", None, "x"))


def test_the_query_itself_filters_by_viewer(store: SqlStore) -> None:
    table_id, gm, player, _ = _setup(store)
    observer, _ = store.add_member(table_id, "observer", "Obi")
    other = store.add_member(table_id, "player", "Oz")[0].id
    for privacy in ("public", "gm", "blind", "self"):
        store.append(NewEntry(table_id, "roll", privacy, player, privacy))
    store.append(NewEntry(table_id, "roll", "self", gm, "gm-self"))

    def seen(member: int, is_gm: bool = False) -> list[str]:
        return [e.summary for e in store.entries(table_id, Scope(member, is_gm), after=0)]

    assert seen(player) == ["public", "gm", "blind", "self"]
    assert seen(gm, is_gm=True) == ["public", "gm", "blind", "gm-self"]
    assert seen(other) == ["public"]
    assert seen(observer.id) == ["public"]


def test_pages_go_newest_first_and_resume_after_a_seq(store: SqlStore) -> None:
    table_id, gm, _, _ = _setup(store)
    for i in range(1, 8):
        store.append(NewEntry(table_id, "note", "public", gm, str(i)))
    scope = Scope(gm, True)
    page = store.entries(table_id, scope, limit=3)
    assert [e.seq for e in page] == [7, 6, 5]
    assert [e.seq for e in store.entries(table_id, scope, before=5, limit=3)] == [4, 3, 2]
    assert [e.seq for e in store.entries(table_id, scope, after=5)] == [6, 7]


def test_listeners_hear_each_commit(store: SqlStore) -> None:
    table_id, gm, _, _ = _setup(store)
    heard: list[tuple[int, int]] = []
    store.listeners.append(lambda t, s: heard.append((t, s)))
    store.append(NewEntry(table_id, "note", "public", gm, "x"))
    with pytest.raises(Conflict):
        store.append(NewEntry(table_id, "note", "public", gm, "y"), [SheetChange(999, 1, {})])
    assert heard == [(table_id, 1)]


def test_followed_names_the_entries_that_have_a_follow_up(store: SqlStore) -> None:
    table_id, _, player, char = _setup(store)
    root = store.append(NewEntry(table_id, "roll", "public", player, "roll", char))
    lone = store.append(NewEntry(table_id, "roll", "public", player, "roll", char))
    store.append(NewEntry(table_id, "follow-up", "public", player, "push", char, root.id))
    assert store.followed([root.id, lone.id]) == {root.id}
    assert store.followed([]) == set()
