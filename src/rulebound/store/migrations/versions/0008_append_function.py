"""The append in one round trip on PostgreSQL (issue 13): ``rulebound_append``.

An entry that changes no sheet was appended in two round trips inside one transaction:
the table's row lock and the chain's end, then the insert and the commit. The table's lock
was held across the network and across the Python that sealed the entry in between, so
every writer at a busy table (in every process) queued behind that. The function does the
same work inside the server, in one statement the caller runs in autocommit: lock the
table's row; check that the seed the play drew from is still the one in force (None: the
entry draws no dice); read the chain's end with a fresh snapshot (a VOLATILE function's
every statement takes one, so it sees what the writer it waited for committed); chain the
entry; insert it; send the notice when asked (the backplane without Redis); answer the
id, seq, previous hash and hash. The lock is held only for that.

The entry's ``body_hash`` (the costly part of its seal) is made by the caller beforehand;
the chain's hash is ``SHA-256(prev_hash + content)``, and the caller passes the content's
canonical text cut at its seq's digits (``trust.chain.content_around_seq``), so the
function only joins the texts and hashes them. No row: the table does not exist. A row of
NULLs: the seed moved; nothing was written and the caller takes the general path.

SQLite has no such functions and needs none: its append holds the database's write lock
in-process, with no network between its statements.
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"

APPEND = """
CREATE OR REPLACE FUNCTION rulebound_append(
    p_table integer, p_commitment varchar, p_before text, p_after text,
    p_channel text, p_tail text,
    p_kind varchar, p_privacy varchar, p_actor integer, p_character integer,
    p_parent integer, p_record json, p_card json, p_summary text, p_changed json,
    p_created timestamptz, p_salt varchar, p_contribution varchar, p_server_chosen boolean
) RETURNS TABLE (entry_id integer, entry_seq integer, entry_prev varchar, entry_hash varchar)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    last_seq integer;
    last_hash varchar;
    next_seq integer;
    sealed varchar;
    made integer;
BEGIN
    PERFORM 1 FROM game_tables t WHERE t.id = p_table FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF p_commitment IS NOT NULL AND p_commitment IS DISTINCT FROM (
        SELECT s.commitment FROM table_seeds s
        WHERE s.table_id = p_table AND s.revealed_at IS NULL
        ORDER BY s.id DESC LIMIT 1
    ) THEN
        RETURN QUERY SELECT NULL::integer, NULL::integer, NULL::varchar, NULL::varchar;
        RETURN;
    END IF;
    SELECT e.seq, e.hash INTO last_seq, last_hash FROM log_entries e
    WHERE e.table_id = p_table ORDER BY e.seq DESC LIMIT 1;
    next_seq := coalesce(last_seq, 0) + 1;
    last_hash := coalesce(last_hash, repeat('0', 64));
    sealed := encode(
        sha256(convert_to(last_hash || p_before || next_seq::text || p_after, 'UTF8')), 'hex'
    );
    INSERT INTO log_entries (
        table_id, seq, kind, privacy, actor_id, character_id, parent_id, record, card,
        summary, changed, created_at, prev_hash, hash, salt, commitment, contribution,
        server_chosen
    ) VALUES (
        p_table, next_seq, p_kind, p_privacy, p_actor, p_character, p_parent, p_record,
        p_card, p_summary, p_changed, p_created, last_hash, sealed, p_salt, p_commitment,
        p_contribution, p_server_chosen
    ) RETURNING id INTO made;
    IF p_channel IS NOT NULL THEN
        PERFORM pg_notify(p_channel, p_table::text || ':' || next_seq::text || p_tail);
    END IF;
    RETURN QUERY SELECT made, next_seq, last_hash, sealed;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(APPEND)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS rulebound_append")
