"""The hash chain over each table's log, committed seeds, client seeds and nonces.

Adds ``prev_hash``, ``hash`` and ``salt`` to every log entry and backfills them
in seq order (existing entries get ``dice`` = None: their faces came from OS
entropy and cannot be recomputed); adds the dice columns (``commitment``,
``client_seed``, ``nonce``), the table's ``client_seed`` and last ``nonce``, and
``table_seeds`` with one fresh committed seed for every existing table.

Columns are added with server defaults (no table is rebuilt, so SQLite keeps its
foreign keys on), then filled.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from rulebound.core.verifiable import commitment_for, new_server_seed
from rulebound.store.migrations.shapes import table_row, when
from rulebound.trust.chain import GENESIS, entry_body, seal

revision = "0002"
down_revision = "0001"

_tables = sa.table("game_tables", sa.column("id", sa.Integer()))
_entries = sa.table(
    "log_entries",
    *(sa.column(name, sa.Integer()) for name in ("id", "table_id", "seq")),
    *(sa.column(name, sa.Integer()) for name in ("actor_id", "character_id", "parent_id")),
    *(sa.column(name, sa.String()) for name in ("kind", "privacy", "summary")),
    *(sa.column(name, sa.JSON()) for name in ("record", "card", "changed")),
    sa.column("created_at", sa.DateTime(timezone=True)),
    *(sa.column(name, sa.String()) for name in ("prev_hash", "hash", "salt")),
)
_seeds = sa.table(
    "table_seeds",
    sa.column("table_id", sa.Integer()),
    sa.column("commitment", sa.String()),
    sa.column("server_seed", sa.String()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    op.add_column(
        "game_tables", sa.Column("client_seed", sa.String(128), nullable=False, server_default="")
    )
    op.add_column(
        "game_tables", sa.Column("nonce", sa.Integer(), nullable=False, server_default="0")
    )
    for name in ("prev_hash", "hash", "salt"):
        op.add_column(
            "log_entries", sa.Column(name, sa.String(64), nullable=False, server_default="")
        )
    op.add_column("log_entries", sa.Column("commitment", sa.String(64), nullable=True))
    op.add_column("log_entries", sa.Column("client_seed", sa.String(128), nullable=True))
    op.add_column("log_entries", sa.Column("nonce", sa.Integer(), nullable=True))
    op.create_index(
        "uq_log_entries_table_id_nonce", "log_entries", ["table_id", "nonce"], unique=True
    )
    op.create_table(
        "table_seeds",
        *table_row("table_seeds"),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        when("created_at"),
        when("revealed_at", nullable=True),
        sa.UniqueConstraint("commitment", name="uq_table_seeds_commitment"),
    )
    op.create_index("ix_table_seeds_table_id", "table_seeds", ["table_id"])
    _backfill(op.get_bind())


def _backfill(conn: sa.Connection) -> None:
    now = datetime.now(UTC)
    for table_id in conn.execute(sa.select(_tables.c.id).order_by(_tables.c.id)).scalars():
        seed = new_server_seed()
        conn.execute(
            _seeds.insert().values(
                table_id=table_id,
                commitment=commitment_for(seed),
                server_seed=seed,
                created_at=now,
            )
        )
        prev = GENESIS
        query = sa.select(_entries).where(_entries.c.table_id == table_id)
        for row in conn.execute(query.order_by(_entries.c.seq)).mappings().all():
            body = entry_body(
                kind=row["kind"],
                actor_id=row["actor_id"],
                character_id=row["character_id"],
                parent_id=row["parent_id"],
                record=row["record"],
                card=row["card"],
                summary=row["summary"],
                changed=row["changed"],
                created_at=row["created_at"],
            )
            sealed = seal(table_id, row["seq"], row["privacy"], None, body, prev)
            conn.execute(
                _entries.update()
                .where(_entries.c.id == row["id"])
                .values(prev_hash=prev, hash=sealed.hash, salt=sealed.salt)
            )
            prev = sealed.hash


def downgrade() -> None:
    op.drop_index("ix_table_seeds_table_id", table_name="table_seeds")
    op.drop_table("table_seeds")
    op.drop_index("uq_log_entries_table_id_nonce", table_name="log_entries")
    with op.batch_alter_table("log_entries", recreate="never") as batch:
        for name in ("nonce", "client_seed", "commitment", "salt", "hash", "prev_hash"):
            batch.drop_column(name)
    with op.batch_alter_table("game_tables", recreate="never") as batch:
        batch.drop_column("nonce")
        batch.drop_column("client_seed")
