from __future__ import annotations

import pytest
from sqlalchemy import select

from rulebound.store import Conflict, NewEntry, NotFound, SqlStore
from rulebound.store.schema import members

from .conftest import character, new_table, seat


def test_a_table_gets_three_distinct_unguessable_invite_tokens(store: SqlStore) -> None:
    table = new_table(store, "Night run", {"gear_banes": "base-dice"}, observers=True)[0]
    tokens = {table.gm_token, table.player_token, table.observer_token}
    assert len(tokens) == 3
    assert all(t is not None and len(t) >= 32 for t in tokens)
    assert store.table(table.id).variants == {"gear_banes": "base-dice"}


def test_without_observers_there_is_no_observer_link(store: SqlStore) -> None:
    table = new_table(store, "T", {}, observers=False)[0]
    assert table.observer_token is None
    with pytest.raises(NotFound):
        store.table_by_token("")


def test_each_token_opens_its_own_role(store: SqlStore) -> None:
    table = new_table(store, "T", {}, observers=True)[0]
    assert store.table_by_token(table.gm_token) == (table, "gm")
    assert store.table_by_token(table.player_token) == (table, "player")
    assert table.observer_token is not None
    assert store.table_by_token(table.observer_token) == (table, "observer")
    with pytest.raises(NotFound):
        store.table_by_token("not-a-token")


def test_rotating_a_token_kills_the_old_link(store: SqlStore) -> None:
    table = new_table(store, "T", {}, observers=True)[0]
    rotated = store.rotate_token(table.id, "player")
    assert rotated.player_token != table.player_token
    with pytest.raises(NotFound):
        store.table_by_token(table.player_token)
    assert store.rotate_token(table.id, "observer", disable=True).observer_token is None
    with pytest.raises(Conflict):
        store.rotate_token(table.id, "gm", disable=True)
    with pytest.raises(NotFound):
        store.rotate_token(table.id + 999, "player")


def test_sessions_are_stored_only_as_hashes(store: SqlStore) -> None:
    table = new_table(store, "T", {}, observers=False)[0]
    member, token = seat(store, table.id, "player", "Pia")
    assert store.member_by_session(table.id, token) == member
    with store.engine.connect() as conn:
        stored = conn.execute(select(members.c.session_hash)).scalars().all()
    assert token not in stored
    other = new_table(store, "Other", {}, observers=False)[0]
    assert store.member_by_session(other.id, token) is None
    assert store.member_by_session(table.id, token + "x") is None


def test_the_gm_can_revoke_and_grant(store: SqlStore) -> None:
    table = new_table(store, "T", {}, observers=False)[0]
    member, _ = seat(store, table.id, "player", "Pia")
    granted = store.update_member(table.id, member.id, revoked=None, grant_all=True)
    assert granted.grant_all
    assert not granted.revoked
    revoked = store.update_member(table.id, member.id, revoked=True, grant_all=None)
    assert revoked.revoked
    assert revoked.grant_all
    assert [m.id for m in store.members(table.id)][1:] == [member.id]
    with pytest.raises(NotFound):
        store.update_member(table.id, member.id + 99, revoked=True, grant_all=None)


def test_revoking_a_seat_replaces_its_invite_link_with_the_entry(store: SqlStore) -> None:
    table, gm = new_table(store, observers=True)
    player, _ = seat(store, table.id, "player", "Pia")
    entry = NewEntry(table.id, "member", "public", gm.id, "Gina: Pia revoked")
    store.update_member(table.id, player.id, revoked=True, grant_all=None, entry=entry)
    after = store.table(table.id)
    assert after.player_token != table.player_token
    assert after.observer_token != table.observer_token  # she has seen that one too
    assert after.gm_token == table.gm_token
    assert store.log(table.id)[-1].summary == "Gina: Pia revoked"
    for token in (table.player_token, table.observer_token):
        assert token is not None
        with pytest.raises(NotFound):
            store.table_by_token(token)
    store.update_member(table.id, player.id, revoked=False, grant_all=None)
    assert store.table(table.id).player_token == after.player_token


def test_revoking_keeps_a_switched_off_observer_link_off(store: SqlStore) -> None:
    table, gm = new_table(store, observers=False)
    player, _ = seat(store, table.id, "player", "Pia")
    entry = NewEntry(table.id, "member", "public", gm.id, "Gina: Pia revoked")
    store.update_member(table.id, player.id, revoked=True, grant_all=None, entry=entry)
    assert store.table(table.id).observer_token is None


def test_characters_belong_to_their_table(store: SqlStore) -> None:
    table = new_table(store, "T", {}, observers=False)[0]
    other = new_table(store, "U", {}, observers=False)[0]
    member, _ = seat(store, table.id, "player", "Pia")
    made = character(store, table.id, member.id, {"name": "Ana"})
    assert (made.name, made.version, made.owner_id) == ("Ana", 1, member.id)
    assert store.characters(table.id) == [made]
    assert store.characters(other.id) == []
    assert store.log(table.id)[-1].character_id == made.id
    with pytest.raises(NotFound):
        store.character(other.id, made.id)
    assert store.set_owner(table.id, made.id, None).owner_id is None
    with pytest.raises(NotFound):
        store.set_owner(other.id, made.id, None)


def test_the_secret_is_created_once_and_kept(store: SqlStore) -> None:
    first = store.secret("csrf")
    assert len(first) == 32
    assert store.secret("csrf") == first
    assert store.secret("other") != first
