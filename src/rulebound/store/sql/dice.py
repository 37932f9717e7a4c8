"""Committed seeds: each table rolls under one seed at a time, revealed when it is replaced.

A play's dice pair the seed in force, read under the table's lock, with the roller's own
contribution: one made under that very commitment, else refused; none sent, the server
chooses one (marked so). A table with no seed in force commits to a fresh one.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from rulebound.core.verifiable import commitment_for, new_server_seed
from rulebound.store.base import Conflict, Contribution, Dice
from rulebound.store.schema import table_seeds
from rulebound.store.sealing import Head, server_contribution
from rulebound.store.sql.common import now
from rulebound.store.writer import Batch

RECOMMITTED = (
    "the table's dice were re-committed since this contribution was made: reload and roll again"
)


def current_seed(conn: Connection, table_id: int) -> Any:
    """The table's unrevealed seed row (with its secret), or None."""
    c = table_seeds.c
    query = select(table_seeds).where(c.table_id == table_id, c.revealed_at.is_(None))
    return conn.execute(query.order_by(c.id.desc()).limit(1)).mappings().first()


def commit_seed(batch: Batch, table_id: int) -> str:
    """Commit the table to a fresh seed (the one in force, if any, revealed first by the
    caller): the batch's head of the table rolls under it from now on."""
    seed = new_server_seed()
    commitment = commitment_for(seed)
    values = {"table_id": table_id, "commitment": commitment, "server_seed": seed}
    batch.conn.execute(table_seeds.insert().values(**values, created_at=now()))
    batch.moved(table_id, batch.head(table_id).seeded(commitment, seed))
    return commitment


def next_dice(batch: Batch, table_id: int, head: Head, given: Contribution | None) -> Dice:
    """The dice of the table's next play: its seed in force (``head``), and the roller's
    contribution if made under that very commitment, else one the server chooses."""
    if head.commitment is None or head.server_seed is None:
        commit_seed(batch, table_id)
        head = batch.head(table_id)
    assert head.commitment is not None
    assert head.server_seed is not None
    if given is None:
        return Dice(head.server_seed, head.commitment, server_contribution(), True)
    if given.commitment != head.commitment:
        raise Conflict("dice", RECOMMITTED)
    return Dice(head.server_seed, head.commitment, given.value, False)
