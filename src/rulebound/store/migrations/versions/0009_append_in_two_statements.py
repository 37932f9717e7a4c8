"""PostgreSQL's append in two statements (issue 13): ``rulebound_append`` made leaner.

Migration 0008's function ran five statements inside the server for every roll: the
table's lock, the seed check, the chain's end, the insert, and a query for its answer.
Each costs the server an executor start and end, and together they were two thirds of
what PostgreSQL spent on a roll. This body keeps the lock a statement of its own (the
chain's end must be read with a snapshot taken after the lock is held, so that it sees
what the writer it waited for committed) and does the rest in one ``INSERT ... SELECT``:
the chain's end read beside it, the seed checked in its ``WHERE`` (no row: the seed moved,
nothing was written), the hash made in it, and ``RETURNING ... INTO`` the answer, which
``RETURN NEXT`` sends without another query. The signature, the answers and the chain it
writes are 0008's.
"""

from __future__ import annotations

from importlib import import_module

from alembic import op

revision = "0009"
down_revision = "0008"

APPEND = """
CREATE OR REPLACE FUNCTION rulebound_append(
    p_table integer, p_commitment varchar, p_before text, p_after text,
    p_channel text, p_tail text,
    p_kind varchar, p_privacy varchar, p_actor integer, p_character integer,
    p_parent integer, p_record json, p_card json, p_summary text, p_changed json,
    p_created timestamptz, p_salt varchar, p_contribution varchar, p_server_chosen boolean
) RETURNS TABLE (entry_id integer, entry_seq integer, entry_prev varchar, entry_hash varchar)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM 1 FROM game_tables t WHERE t.id = p_table FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    INSERT INTO log_entries (
        table_id, seq, kind, privacy, actor_id, character_id, parent_id, record, card,
        summary, changed, created_at, prev_hash, hash, salt, commitment, contribution,
        server_chosen
    )
    SELECT
        p_table, chained.seq, p_kind, p_privacy, p_actor, p_character, p_parent, p_record,
        p_card, p_summary, p_changed, p_created, chained.prev,
        encode(
            sha256(convert_to(chained.prev || p_before || chained.seq::text || p_after, 'UTF8')),
            'hex'
        ),
        p_salt, p_commitment, p_contribution, p_server_chosen
    FROM (
        SELECT coalesce(last.seq, 0) + 1 AS seq, coalesce(last.hash, repeat('0', 64)) AS prev
        FROM (SELECT 1) AS one LEFT JOIN LATERAL (
            SELECT e.seq, e.hash FROM log_entries e
            WHERE e.table_id = p_table ORDER BY e.seq DESC LIMIT 1
        ) AS last ON true
    ) AS chained
    WHERE p_commitment IS NULL OR p_commitment IS NOT DISTINCT FROM (
        SELECT s.commitment FROM table_seeds s
        WHERE s.table_id = p_table AND s.revealed_at IS NULL
        ORDER BY s.id DESC LIMIT 1
    )
    RETURNING id, seq, prev_hash, hash INTO entry_id, entry_seq, entry_prev, entry_hash;
    IF FOUND AND p_channel IS NOT NULL THEN
        PERFORM pg_notify(p_channel, p_table::text || ':' || entry_seq::text || p_tail);
    END IF;
    RETURN NEXT;  -- NULLs where the seed moved
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(APPEND)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(import_module("rulebound.store.migrations.versions.0008_append_function").APPEND)
