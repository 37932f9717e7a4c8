"""The store seals every entry into its table's chain, and hands each play a nonce of its own.

Pass criteria: each entry's ``prev_hash`` is the hash before it and its hash is
SHA-256(prev_hash + canonical content), per table, on SQLite and PostgreSQL;
concurrent writers (threads of one process) neither fork the chain nor reuse a
nonce; a failed play consumes no nonce.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from rulebound.core.canonical import canonical_json
from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import Draw
from rulebound.core.verifiable import commitment_for, verify_draws
from rulebound.store import Dice, LogEntry, NewEntry, Privacy, SqlStore, Staged
from rulebound.trust.chain import GENESIS, body_hash, chain_hash, entry_body, entry_content

THREADS = 8
EACH = 15


@pytest.fixture
def store(db_url: str) -> Iterator[SqlStore]:
    opened = SqlStore(db_url)
    yield opened
    opened.close()


def _draw(
    table_id: int, note: str = "roll", privacy: Privacy = "public"
) -> Callable[[Dice], Staged]:
    def build(dice: Dice) -> Staged:
        source = dice.source()
        faces = [[20, source.draw(20)], [6, source.draw(6)]]
        record = {"kind": "roll", "draws": faces}
        return NewEntry(table_id, "roll", privacy, None, note, record=record), []

    return build


def _recompute(table_id: int, entries: list[LogEntry]) -> None:
    """Check the chain from scratch, with hashlib and canonical_json only."""
    prev = GENESIS
    for expected_seq, entry in enumerate(entries, start=1):
        assert entry.seq == expected_seq
        assert entry.prev_hash == prev
        body = entry_body(
            kind=entry.kind,
            actor_id=entry.actor_id,
            character_id=entry.character_id,
            parent_id=entry.parent_id,
            record=entry.record,
            card=entry.card,
            summary=entry.summary,
            changed=entry.changed,
            created_at=entry.created_at,
        )
        salted = bytes.fromhex(entry.salt) + canonical_json(body).encode()
        digest = hashlib.sha256(salted).hexdigest()
        assert digest == body_hash(entry.salt, body)
        dice = None
        if entry.nonce is not None:
            dice = {
                "commitment": entry.commitment,
                "client_seed": entry.client_seed,
                "nonce": entry.nonce,
            }
        content = entry_content(table_id, entry.seq, entry.privacy, dice, digest)
        text = prev + canonical_json(content)
        assert entry.hash == hashlib.sha256(text.encode()).hexdigest()
        assert entry.hash == chain_hash(prev, content)
        prev = entry.hash


def test_every_entry_is_chained_per_table(store: SqlStore) -> None:
    one = store.create_table("One", "empty-reach", {}, observers=False)
    two = store.create_table("Two", "empty-reach", {}, observers=False)
    for i in range(3):
        store.append(NewEntry(one.id, "note", "public", None, f"one {i}"))
        store.append_drawn(two.id, _draw(two.id, f"two {i}", "blind"))
    store.append(NewEntry(two.id, "note", "gm", None, "ünïcode ✓"))
    for table in (one, two):
        _recompute(table.id, store.log(table.id))
    assert store.log(one.id)[0].prev_hash == GENESIS
    assert all(len(e.salt) == 64 for e in store.log(two.id))
    assert len({e.salt for e in store.log(two.id)}) == 4


def test_dice_come_from_the_committed_seed_and_recompute_after_the_reveal(
    store: SqlStore,
) -> None:
    table = store.create_table("T", "empty-reach", {}, observers=False)
    committed = store.fairness(table.id).commitment
    assert store.seeds(table.id)[0].server_seed is None
    store.set_client_seed(table.id, "pia", NewEntry(table.id, "client-seed", "public", None, "x"))
    rolled = [store.append_drawn(table.id, _draw(table.id)) for _ in range(5)]
    assert [e.nonce for e in rolled] == [1, 2, 3, 4, 5]
    assert {(e.commitment, e.client_seed) for e in rolled} == {(committed, "pia")}
    revealed = store.rotate_seed(
        table.id, lambda old, new: NewEntry(table.id, "seed", "public", None, "reveal")
    )
    seed = store.seeds(table.id)[0]
    assert seed.server_seed is not None
    assert commitment_for(seed.server_seed) == committed
    assert store.fairness(table.id).commitment == store.seeds(table.id)[1].commitment
    assert store.seeds(table.id)[1].server_seed is None
    for entry in rolled:
        draws = [Draw(sides, face) for sides, face in entry.record["draws"]]
        assert verify_draws(seed.server_seed, "pia", entry.nonce or 0, draws) is None
    after = store.append_drawn(table.id, _draw(table.id))
    assert after.commitment != committed
    assert after.nonce == 6
    _recompute(table.id, store.log(table.id))
    assert revealed.seq < after.seq


def test_a_failed_play_takes_no_nonce_and_writes_nothing(store: SqlStore) -> None:
    table = store.create_table("T", "empty-reach", {}, observers=False)

    def refuse(dice: Dice) -> Staged:
        raise RuleViolation("roll", "not now")

    with pytest.raises(RuleViolation):
        store.append_drawn(table.id, refuse)
    assert store.fairness(table.id).nonce == 0
    assert store.append_drawn(table.id, _draw(table.id)).nonce == 1
    assert store.last_seq(table.id) == 1


def test_threads_neither_fork_the_chain_nor_reuse_a_nonce(store: SqlStore) -> None:
    table = store.create_table("T", "empty-reach", {}, observers=False)

    def work(i: int) -> None:
        if i % 3:
            store.append_drawn(table.id, _draw(table.id, f"r{i}"))
        else:
            store.append(NewEntry(table.id, "note", "public", None, f"n{i}"))

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(work, range(THREADS * EACH)))
    entries = store.log(table.id)
    _recompute(table.id, entries)
    nonces = [e.nonce for e in entries if e.nonce is not None]
    assert sorted(nonces) == list(range(1, len(nonces) + 1))
    assert nonces == sorted(nonces)  # handed out in log order: taken inside the same transaction
