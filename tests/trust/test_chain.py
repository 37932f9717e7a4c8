"""The store seals every entry into its table's chain, with each play's own dice.

Pass criteria: each entry's ``prev_hash`` is the hash before it and its hash is
SHA-256(prev_hash + canonical content), per table, on SQLite and PostgreSQL; a play's
dice come from the committed seed and its roller's contribution (refused when made
under another commitment, or used before; chosen by the server, and marked so, when
none is given); concurrent writers (threads of one process) never fork the chain; a
failed play writes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from rulebound.core.canonical import canonical_json
from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import Draw
from rulebound.core.verifiable import commitment_for, verify_draws
from rulebound.store import (
    Conflict,
    Contribution,
    Dice,
    LogEntry,
    NewEntry,
    Privacy,
    SqlStore,
    Staged,
    Stored,
    TableRow,
)
from rulebound.trust.chain import GENESIS, body_hash, chain_hash, entry_body, entry_content

THREADS = 8
EACH = 15


@pytest.fixture
def store(db_url: str) -> Iterator[SqlStore]:
    opened = SqlStore(db_url)
    yield opened
    opened.close()


def _table(store: SqlStore, name: str = "T") -> TableRow:
    table, _, _ = store.create_table(
        name, "empty-reach", {}, observers=False, founder="Gina", summary="Gina opened it"
    )
    return table


def _mine(store: SqlStore, table_id: int) -> Contribution:
    return Contribution(secrets.token_hex(16), store.commitment(table_id))


def _draw(
    table_id: int, note: str = "roll", privacy: Privacy = "public"
) -> Callable[[Dice], Staged]:
    def build(dice: Dice) -> Staged:
        source = dice.source()
        faces = [[20, source.draw(20)], [6, source.draw(6)]]
        record = {"kind": "roll", "draws": faces}
        return Staged(NewEntry(table_id, "roll", privacy, None, note, record=record))

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
        if entry.contribution is not None:
            dice = {
                "commitment": entry.commitment,
                "contribution": entry.contribution,
                "server_chosen": entry.server_chosen,
            }
        assert dice == entry.dice
        content = entry_content(table_id, entry.seq, entry.privacy, dice, digest)
        text = prev + canonical_json(content)
        assert entry.hash == hashlib.sha256(text.encode()).hexdigest()
        assert entry.hash == chain_hash(prev, content)
        prev = entry.hash


def test_every_entry_is_chained_per_table(store: SqlStore) -> None:
    one, two = _table(store, "One"), _table(store, "Two")
    for i in range(3):
        store.append(NewEntry(one.id, "note", "public", None, f"one {i}"))
        store.append_drawn(two.id, _draw(two.id, f"two {i}", "blind"), _mine(store, two.id))
    store.append(NewEntry(two.id, "note", "gm", None, "ünïcode ✓"))
    for table in (one, two):
        _recompute(table.id, store.log(table.id))
    assert store.log(one.id)[0].prev_hash == GENESIS
    assert all(len(e.salt) == 64 for e in store.log(two.id))
    assert len({e.salt for e in store.log(two.id)}) == 5


def test_the_seal_commits_to_the_entry_as_it_is_read_back(store: SqlStore, db_url: str) -> None:
    """A record or card whose keys JSON spells differently from ``str`` (True is "true",
    None is "null") or whose values are tuples is sealed as the column gives it back: a
    fresh store recomputes every hash from what it reads, and the entry the append
    answers with is that same entry."""
    table = _table(store)
    odd = {"flags": {True: 1, None: 2, 10: "ten", 2: "two"}, "pairs": (("a", 1), ("b", 2))}
    written = [
        store.append(NewEntry(table.id, "note", "public", None, "odd", record=odd, card=odd)),
        store.append_drawn(
            table.id,
            lambda dice: Staged(
                NewEntry(table.id, "roll", "public", None, "odd", record=odd, card=None)
            ),
            _mine(store, table.id),
        ),
    ]
    shared = Stored.of({"title": "Force", "dice": [{"sides": 8, "face": 7}]})
    twice = [
        store.append(NewEntry(table.id, "note", "public", None, "card", card=shared))
        for _ in range(2)
    ]
    fresh = SqlStore(db_url)
    try:
        read = fresh.log(table.id)
    finally:
        fresh.close()
    _recompute(table.id, read)
    assert read[-4:] == [*written, *twice]
    # a card handed over already serialised is the one value of every entry that logs it
    # (``sealing.Row.written``; nothing that shows an entry changes its card)
    assert twice[0].card is twice[1].card is shared.value
    assert written[0].record == {
        "flags": {"true": 1, "null": 2, "10": "ten", "2": "two"},
        "pairs": [["a", 1], ["b", 2]],
    }
    assert written[1].card is None


def test_dice_come_from_the_committed_seed_and_recompute_after_the_reveal(
    store: SqlStore,
) -> None:
    table = _table(store)
    committed = store.commitment(table.id)
    assert store.log(table.id)[0].record["committed"] == committed
    assert store.seeds(table.id)[0].server_seed is None
    given = [_mine(store, table.id) for _ in range(4)]
    rolled = [store.append_drawn(table.id, _draw(table.id), c) for c in given]
    chosen = store.append_drawn(table.id, _draw(table.id))
    assert [(e.contribution, e.server_chosen) for e in rolled] == [(c.value, False) for c in given]
    assert chosen.server_chosen is True
    assert chosen.contribution
    assert len(chosen.contribution) == 32
    assert {e.commitment for e in [*rolled, chosen]} == {committed}
    assert {e.nonce for e in rolled} == {None}
    revealed = store.rotate_seed(
        table.id, lambda old, new: NewEntry(table.id, "seed", "public", None, "reveal")
    )
    seed = store.seeds(table.id)[0]
    assert seed.server_seed is not None
    assert commitment_for(seed.server_seed) == committed
    assert store.commitment(table.id) == store.seeds(table.id)[1].commitment
    assert store.seeds(table.id)[1].server_seed is None
    for entry in [*rolled, chosen]:
        draws = [Draw(sides, face) for sides, face in entry.record["draws"]]
        assert entry.contribution is not None
        assert verify_draws(seed.server_seed, entry.contribution, 0, draws) is None
    after = store.append_drawn(table.id, _draw(table.id), _mine(store, table.id))
    assert after.commitment != committed
    _recompute(table.id, store.log(table.id))
    assert revealed.seq < after.seq


def test_a_contribution_counts_once_and_only_under_the_commitment_it_saw(
    store: SqlStore,
) -> None:
    table = _table(store)
    mine = _mine(store, table.id)
    store.append_drawn(table.id, _draw(table.id), mine)
    with pytest.raises(Conflict, match="already used"):
        store.append_drawn(table.id, _draw(table.id), mine)
    stale = _mine(store, table.id)
    store.rotate_seed(table.id, lambda old, new: NewEntry(table.id, "seed", "public", None, "r"))
    with pytest.raises(Conflict, match="re-committed"):
        store.append_drawn(table.id, _draw(table.id), stale)
    assert store.last_seq(table.id) == 3


def test_a_failed_play_writes_nothing(store: SqlStore) -> None:
    table = _table(store)
    mine = _mine(store, table.id)

    def refuse(dice: Dice) -> Staged:
        raise RuleViolation("roll", "not now")

    with pytest.raises(RuleViolation):
        store.append_drawn(table.id, refuse, mine)
    assert store.last_seq(table.id) == 1
    assert store.append_drawn(table.id, _draw(table.id), mine).contribution == mine.value
    assert store.last_seq(table.id) == 2


def test_threads_never_fork_the_chain(store: SqlStore) -> None:
    table = _table(store)

    def work(i: int) -> None:
        if i % 3:
            store.append_drawn(table.id, _draw(table.id, f"r{i}"), _mine(store, table.id))
        else:
            store.append(NewEntry(table.id, "note", "public", None, f"n{i}"))

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(work, range(THREADS * EACH)))
    entries = store.log(table.id)
    _recompute(table.id, entries)
    assert len(entries) == 1 + THREADS * EACH
    drawn = [e.contribution for e in entries if e.contribution is not None]
    assert len(drawn) == len(set(drawn)) == sum(1 for i in range(THREADS * EACH) if i % 3)
