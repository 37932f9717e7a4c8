"""Outlines of the log (``Store.outlines``), and every shape of a page of it (``entries``):
each read is one statement built once, with the values bound when it runs."""

from __future__ import annotations

from itertools import product

from rulebound.store import LogEntry, NewEntry, Scope, SqlStore

from .conftest import character, new_table, seat


def _log(store: SqlStore) -> tuple[int, list[Scope]]:
    """A table whose log has a bit of everything after seq 4 (the GM's opening, two joins,
    a character and another's join come first), and the scopes that read it."""
    table, gm = new_table(store)
    player, _ = seat(store, table.id, "player", "Pia")
    made = character(store, table.id, player.id, {"name": "Ana"}).id
    other, _ = seat(store, table.id, "player", "Oz")
    root = store.append(NewEntry(table.id, "roll", "public", player.id, "roll", made, record={}))
    push = NewEntry(table.id, "follow-up", "public", player.id, "push", made, root.id, {"n": 1})
    store.append(push)
    voids = {"voids": [root.id]}
    store.append(NewEntry(table.id, "void", "public", gm.id, "void", made, record=voids))
    for privacy in ("gm", "blind", "self"):
        store.append(NewEntry(table.id, "roll", privacy, player.id, privacy, made, record={}))
    store.append(NewEntry(table.id, "roll", "self", gm.id, "gm-self"))
    to = {"to": other.id}
    store.append(NewEntry(table.id, "talk", "whisper", gm.id, "psst", record=to, to_id=other.id))
    store.append(NewEntry(table.id, "scene", "public", gm.id, "scene"))
    store.append(NewEntry(table.id, "turn", "public", gm.id, "turn", record={"kind": "start"}))
    scopes = [Scope(0, True), Scope(gm.id, True), Scope(player.id, False), Scope(other.id, False)]
    return table.id, scopes


def _outline(entry: LogEntry) -> tuple[object, ...]:
    return entry.id, entry.seq, entry.kind, entry.parent_id, entry.character_id


def test_outlines_are_the_entries_a_scope_knows_of_without_their_content(
    store: SqlStore,
) -> None:
    table_id, scopes = _log(store)
    for scope in scopes:
        entries = store.entries(table_id, scope, after=4, limit=100)
        outlines = store.outlines(table_id, scope, after=4, limit=100, kinds=("void", "turn"))
        assert [(o.id, o.seq, o.kind, o.parent_id, o.character_id) for o in outlines] == [
            _outline(e) for e in entries
        ]
        for outline, entry in zip(outlines, entries, strict=True):
            assert outline.record == (entry.record if entry.kind in ("void", "turn") else {})


def test_outlines_read_no_record_unless_asked_and_keep_to_the_bounds(store: SqlStore) -> None:
    table_id, scopes = _log(store)
    scope = scopes[0]
    every = store.entries(table_id, scope, after=0, limit=100)
    outlines = store.outlines(table_id, scope, after=every[2].seq, limit=3)
    assert [o.seq for o in outlines] == [e.seq for e in every[3:6]]
    assert all(o.record == {} for o in store.outlines(table_id, scope, after=0, limit=100))
    voids = store.outlines(table_id, scope, after=0, limit=100, kinds=("void",))
    assert [o.record for o in voids if o.record] == [e.record for e in every if e.kind == "void"]
    assert store.outlines(table_id, scope, after=every[-1].seq) == []
    assert store.outlines(table_id + 1000, scope, after=0) == []


def test_every_shape_of_a_page_keeps_to_its_bounds(store: SqlStore) -> None:
    table_id, scopes = _log(store)
    for scope, after, before, kind in product(scopes, (None, 5), (None, 12), (None, "roll")):
        known = {e.id for e in store.entries(table_id, scope, after=0, limit=1000)}
        every = [e for e in store.log(table_id) if e.id in known]
        wanted = [
            e.seq
            for e in every
            if (after is None or e.seq > after)
            and (before is None or e.seq < before)
            and (kind is None or e.kind == kind)
        ]
        page = store.entries(table_id, scope, after=after, before=before, limit=3, kind=kind)
        expected = wanted[:3] if after is not None else wanted[::-1][:3]
        assert [e.seq for e in page] == expected, (scope, after, before, kind)


def test_a_page_of_one_kind(store: SqlStore) -> None:
    table_id, scopes = _log(store)
    turns = store.entries(table_id, scopes[0], limit=10, kind="turn")
    assert [(e.kind, e.record) for e in turns] == [("turn", {"kind": "start"})]
