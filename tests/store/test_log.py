from __future__ import annotations

import pytest

from rulebound.store import Conflict, NewEntry, NotFound, Scope, SheetChange, SqlStore

from .conftest import character, new_table, seat


def _setup(store: SqlStore) -> tuple[int, int, int, int]:
    """Seq 1 the GM's opening, 2 the player's join, 3 the character: the log starts at 4."""
    table, gm = new_table(store, observers=True)
    player, _ = seat(store, table.id, "player", "Pia")
    made = character(store, table.id, player.id, {"name": "Ana", "damage": 0})
    return table.id, gm.id, player.id, made.id


def test_seq_counts_per_table(store: SqlStore) -> None:
    table_id, gm, _, _ = _setup(store)
    other, _ = new_table(store, "U")
    seqs = [store.append(NewEntry(table_id, "note", "public", gm, f"n{i}")).seq for i in range(3)]
    assert seqs == [4, 5, 6]
    assert store.append(NewEntry(other.id, "note", "public", None, "x")).seq == 2
    assert store.last_seq(table_id) == 6
    assert store.last_seq(other.id) == 2


def test_every_write_logs_itself_in_its_own_transaction(store: SqlStore) -> None:
    table_id, gm, player, char = _setup(store)
    log = store.log(table_id)
    assert [(e.kind, e.actor_id, e.character_id) for e in log] == [
        ("join", gm, None),
        ("join", player, None),
        ("character", player, char),
    ]
    assert log[0].record == {
        "ruleset": "empty-reach",
        "variants": {},
        "committed": store.commitment(table_id),
    }


def test_an_entry_and_its_sheet_change_commit_together(store: SqlStore) -> None:
    table_id, _, player, char = _setup(store)
    entry = NewEntry(table_id, "roll", "public", player, "pushed", char, record={"draws": [[6, 1]]})
    before = store.character(table_id, char)
    logged = store.append(entry, [SheetChange.of(before, {"name": "Ana", "damage": 1})])
    assert logged.changed == (char,)
    assert logged.record == {"draws": [[6, 1]]}
    after = store.character(table_id, char)
    assert (after.version, after.sheet["damage"]) == (2, 1)


def test_a_stale_version_writes_neither_entry_nor_sheet(store: SqlStore) -> None:
    table_id, gm, player, char = _setup(store)
    second = character(store, table_id, player, {"name": "Bo"})
    changes = [
        SheetChange(second.id, 1, {"name": "Bo", "damage": 2}, []),
        SheetChange(char, 7, {"name": "Ana", "damage": 3}, []),
    ]
    with pytest.raises(Conflict):
        store.append(NewEntry(table_id, "table", "public", gm, "initiative"), changes)
    assert store.last_seq(table_id) == 4
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
    observer, _ = seat(store, table_id, "observer", "Obi")
    other = seat(store, table_id, "player", "Oz")[0].id
    for privacy in ("public", "gm", "blind", "self"):
        store.append(NewEntry(table_id, "roll", privacy, player, privacy))
    store.append(NewEntry(table_id, "roll", "self", gm, "gm-self"))

    def seen(member: int, is_gm: bool = False) -> list[str]:
        found = store.entries(table_id, Scope(member, is_gm), after=5)
        return [e.summary for e in found]

    assert seen(player) == ["public", "gm", "blind", "self"]
    assert seen(gm, is_gm=True) == ["public", "gm", "blind", "gm-self"]
    assert seen(other) == ["public"]
    assert seen(observer.id) == ["public"]


def test_pages_go_newest_first_and_resume_after_a_seq(store: SqlStore) -> None:
    table_id, gm, _, _ = _setup(store)
    for i in range(4, 11):
        store.append(NewEntry(table_id, "note", "public", gm, str(i)))
    scope = Scope(gm, True)
    page = store.entries(table_id, scope, limit=3)
    assert [e.seq for e in page] == [10, 9, 8]
    assert [e.seq for e in store.entries(table_id, scope, before=8, limit=3)] == [7, 6, 5]
    assert [e.seq for e in store.entries(table_id, scope, after=8)] == [9, 10]


def test_listeners_hear_each_commit(store: SqlStore) -> None:
    table_id, gm, _, _ = _setup(store)
    heard: list[tuple[int, int]] = []
    store.listeners.append(lambda t, s: heard.append((t, s)))
    store.append(NewEntry(table_id, "note", "public", gm, "x"))
    with pytest.raises(Conflict):
        store.append(NewEntry(table_id, "note", "public", gm, "y"), [SheetChange(999, 1, {}, [])])
    assert heard == [(table_id, 4)]


def test_followed_names_the_entries_that_have_a_follow_up(store: SqlStore) -> None:
    table_id, _, player, char = _setup(store)
    root = store.append(NewEntry(table_id, "roll", "public", player, "roll", char))
    lone = store.append(NewEntry(table_id, "roll", "public", player, "roll", char))
    store.append(NewEntry(table_id, "follow-up", "public", player, "push", char, root.id))
    assert store.followed([root.id, lone.id]) == {root.id}
    assert store.followed([]) == set()


def test_a_nonce_is_spent_once(store: SqlStore) -> None:
    table_id, _, player, _ = _setup(store)
    store.use_nonce(table_id, "ab" * 16)
    with pytest.raises(Conflict, match="already taken"):
        store.use_nonce(table_id, "ab" * 16)
    with pytest.raises(Conflict):
        store.create_character(table_id, player, {"name": "Cy"}, "created", nonce="ab" * 16)
    assert [c.name for c in store.characters(table_id)] == ["Ana"]
    made = store.create_character(table_id, player, {"name": "Cy"}, "made", nonce="cd" * 16)
    assert made.name == "Cy"
    with pytest.raises(Conflict):
        store.use_nonce(table_id, "cd" * 16)
