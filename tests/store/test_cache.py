"""The store's cache of tables, members and characters: what a write changes is read fresh
right after it, here or (once told, or after the time limit) in another process."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event

from rulebound.store import (
    Conflict,
    Contribution,
    Dice,
    Member,
    NewEntry,
    Scope,
    SheetChange,
    SqlStore,
    Staged,
)
from rulebound.store.cache import MISS, Cache
from rulebound.store.sql import parts_changed

from .conftest import character, new_table, seat


def _seated(store: SqlStore, table_id: int, session: str) -> Member:
    member = store.member_by_session(table_id, session)
    assert member is not None  # the session is a seat at the table
    return member


def _statements(store: SqlStore) -> list[str]:
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    return seen


def test_lookups_are_cached_and_every_write_drops_what_it_changed(store: SqlStore) -> None:
    table, gm = new_table(store, observers=True)
    player, session = seat(store, table.id, "player", "Pia")
    ana = character(store, table.id, player.id, {"name": "Ana"})
    store.table(table.id), store.members(table.id), store.characters(table.id)
    assert store.member_by_session(table.id, session) == player
    seen = _statements(store)
    store.table(table.id), store.members(table.id), store.characters(table.id)
    assert store.member_by_session(table.id, session) == player
    assert store.member(table.id, player.id) == player
    assert seen == []

    rotated = store.rotate_token(table.id, "player")
    assert store.table(table.id).player_token == rotated.player_token != table.player_token
    store.update_member(table.id, player.id, revoked=None, grant_all=True)
    assert _seated(store, table.id, session).grant_all
    revoke = NewEntry(table.id, "member", "public", gm.id, "revoked")
    store.update_member(table.id, player.id, revoked=True, grant_all=None, entry=revoke)
    assert _seated(store, table.id, session).revoked
    assert store.member(table.id, player.id).revoked
    assert store.table(table.id).player_token != rotated.player_token  # a revoke rotates it
    store.set_owner(table.id, ana.id, gm.id)
    assert [c.owner_id for c in store.characters(table.id)] == [gm.id]
    seat(store, table.id, "observer", "Obi")
    assert [m.name for m in store.members(table.id)] == ["Gina", "Pia", "Obi"]


def test_another_process_write_is_seen_once_its_notice_drops_it(store: SqlStore) -> None:
    other = SqlStore(store.url, migrate=False)
    try:
        table, gm = new_table(store)
        player, session = seat(store, table.id, "player", "Pia")
        assert not _seated(store, table.id, session).revoked
        revoke = NewEntry(table.id, "member", "public", gm.id, "revoked")
        other.update_member(table.id, player.id, revoked=True, grant_all=None, entry=revoke)
        store.forget(table.id, ["characters"])  # a notice of a sheet change: seats kept
        assert not _seated(store, table.id, session).revoked
        store.forget(table.id, parts_changed("member", sheets=False))  # the revoke's notice
        assert _seated(store, table.id, session).revoked
    finally:
        other.close()


def test_a_read_that_raced_a_drop_is_not_kept_and_nothing_outlives_its_time() -> None:
    now = [0.0]
    cache = Cache(seconds=5.0, clock=lambda: now[0])
    generation = cache.generation(1, "members")
    cache.drop(1, "members")  # a write committed while the read was under way
    cache.put(1, "members", "all", "old", generation)
    assert cache.get(1, "members", "all") is MISS
    cache.put(1, "members", "all", "new", cache.generation(1, "members"))
    cache.put(1, "table", "row", "row", cache.generation(1, "table"))
    assert cache.get(1, "members", "all") == "new"
    cache.drop(1, "table")
    assert cache.get(1, "members", "all") == "new"  # a drop touches only its part
    assert cache.get(1, "table", "row") is MISS
    now[0] = 5.1
    assert cache.get(1, "members", "all") is MISS


def test_a_play_computed_before_its_transaction_follows_a_rotation_elsewhere(
    store: SqlStore,
) -> None:
    """``append_drawn`` computes the play from the seed it last saw, before the write; when
    another process has rotated the seed since, the play is computed again with the seed in
    force, and a contribution made under the old commitment is refused."""
    other = SqlStore(store.url, migrate=False)
    try:
        table, gm = new_table(store)

        def build(dice: Dice) -> Staged:
            return Staged(NewEntry(table.id, "roll", "public", gm.id, dice.commitment))

        first = store.append_drawn(table.id, build)
        other.rotate_seed(
            table.id, lambda _old, _new: NewEntry(table.id, "seed", "public", gm.id, "new")
        )
        second = store.append_drawn(table.id, build)
        assert second.commitment == other.commitment(table.id) != first.commitment
        assert second.summary == second.commitment  # drawn from the seed in force
        stale = Contribution("ab" * 16, str(first.commitment))
        with pytest.raises(Conflict, match="re-committed"):
            store.append_drawn(table.id, build, stale)
        mine = store.append_drawn(table.id, build, Contribution("cd" * 16, str(second.commitment)))
        assert (mine.contribution, mine.server_chosen) == ("cd" * 16, False)
    finally:
        other.close()


def test_a_character_as_a_scope_sees_it_is_cached_until_it_may_have_changed(
    store: SqlStore,
) -> None:
    """The sheet a roll is computed from comes from the cache (no statement) while nothing
    that could change it committed; each reader gets its own copy; a sheet change (seen or
    hidden), a reveal and a new owner each make the next read fresh."""
    table, gm = new_table(store)
    player, _ = seat(store, table.id, "player", "Pia")
    ana = character(store, table.id, player.id, {"name": "Ana", "damage": 0})
    pia, gina = Scope(player.id, False), Scope(gm.id, True)
    first = store.character(table.id, ana.id, pia)
    seen = _statements(store)
    again = store.character(table.id, ana.id, pia)
    assert seen == []
    assert again == first
    again.sheet["damage"] = 99  # the reader's own copy
    assert store.character(table.id, ana.id, pia).sheet["damage"] == 0
    shared = store.character(table.id, ana.id, pia, shared=True)  # a roll's: it only reads
    assert shared is store.character(table.id, ana.id, pia, shared=True)
    assert shared == first
    assert shared.sheet is not store.character(table.id, ana.id, pia).sheet
    roll = NewEntry(table.id, "roll", "public", player.id, "no change", ana.id)
    store.append(roll)
    assert store.character(table.id, ana.id, pia) == first  # a roll that changed nothing

    def hurt(privacy: Any, by: int) -> int:
        row = store.character(table.id, ana.id, gina)
        entry = NewEntry(table.id, "roll", privacy, gm.id, "hurt", ana.id)
        changed = dict(row.stored_sheet, damage=row.stored_sheet["damage"] + by)
        return store.append(entry, [SheetChange.of(row, changed)]).id

    hurt("public", 1)
    assert store.character(table.id, ana.id, pia).sheet["damage"] == 1
    hidden = hurt("gm", 2)
    assert store.character(table.id, ana.id, pia).sheet["damage"] == 1
    assert store.character(table.id, ana.id, pia).hidden == 1
    assert store.character(table.id, ana.id, gina).sheet["damage"] == 3
    reveal = NewEntry(
        table.id, "reveal", "public", gm.id, "shown", ana.id, record={"reveals": [hidden]}
    )
    store.append(reveal)
    assert store.character(table.id, ana.id, pia).sheet["damage"] == 3
    store.set_owner(table.id, ana.id, gm.id)
    assert store.character(table.id, ana.id, pia).owner_id == gm.id


def test_authors_are_named_from_the_seats_held_else_read_alone(store: SqlStore) -> None:
    """``members_by_id`` answers for the ids asked (those that exist): from the table's seats
    where they are held, otherwise from each seat's own cache, those it lacks in one
    statement, and every write to the seats drops both."""
    table, gm = new_table(store, observers=True)
    crowd = [seat(store, table.id, "observer", f"Obs {n}")[0] for n in range(20)]
    store.members(table.id)
    seen = _statements(store)
    assert store.members_by_id(table.id, [gm.id, crowd[3].id, 10_000]) == {
        gm.id: gm,
        crowd[3].id: crowd[3],
    }
    assert seen == []

    store.cache.drop(table.id, "members")  # as when their time ran out
    asked = [crowd[5].id, crowd[7].id, 10_000]
    assert dict(store.members_by_id(table.id, asked)) == {m.id: m for m in (crowd[5], crowd[7])}
    reads = [s for s in seen if s.startswith("SELECT")]
    assert len(reads) == 1
    assert "members.id IN (" in reads[0]
    assert store.members_by_id(table.id, asked[:2]).keys() == set(asked[:2])
    assert len([s for s in seen if s.startswith("SELECT")]) == 1  # each seat read is kept
    assert store.members_by_id(table.id, [crowd[5].id, gm.id])[gm.id] == gm
    reads = [s for s in seen if s.startswith("SELECT")]
    assert len(reads) == 2  # the one not held, alone
    assert "members.id IN (" in reads[1]

    store.update_member(table.id, crowd[5].id, revoked=None, grant_all=True)
    assert store.members_by_id(table.id, [crowd[5].id])[crowd[5].id].grant_all


def test_characters_are_named_from_those_held_else_read_alone(store: SqlStore) -> None:
    """``characters_by_id``, as ``members_by_id``: the stored rows of the ids asked, read in
    one statement for those the cache lacks, shared with ``character``'s own cache, and
    taken from the table's whole list where that is held."""
    table, gm = new_table(store)
    cast = [character(store, table.id, gm.id, {"name": f"C{n}"}) for n in range(12)]
    store.cache.drop(table.id, "characters")
    seen = _statements(store)
    got = store.characters_by_id(table.id, [cast[2].id, cast[9].id, 10_000])
    assert {i: row.name for i, row in got.items()} == {cast[2].id: "C2", cast[9].id: "C9"}
    reads = [s for s in seen if s.startswith("SELECT")]
    assert len(reads) == 1
    assert "characters.id IN (" in reads[0]
    assert store.character(table.id, cast[2].id).name == "C2"
    assert len([s for s in seen if s.startswith("SELECT")]) == 1  # the same cache entry
    store.characters(table.id)
    got = store.characters_by_id(table.id, [cast[0].id, cast[11].id])
    assert [row.name for row in got.values()] == ["C0", "C11"]
    assert len([s for s in seen if s.startswith("SELECT")]) == 2  # from all of them, held
