"""Column and constraint shapes the revisions share.

They are part of the revisions' history: changing one changes what an old revision
builds, so a new shape gets a new name instead.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.schema import SchemaItem


def when(name: str, *, nullable: bool = False) -> sa.Column[object]:
    """A timezone-aware timestamp column."""
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def snowflake(name: str, *, nullable: bool = False) -> sa.Column[object]:
    """A Discord id (a 64-bit snowflake), kept as its decimal text."""
    return sa.Column(name, sa.String(32), nullable=nullable)


def references(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    """``table.column`` points at ``target.id``, named as the schema's convention names it."""
    return sa.ForeignKeyConstraint([column], [f"{target}.id"], name=f"fk_{table}_{column}_{target}")


def keyed(table: str) -> list[SchemaItem]:
    """The integer ``id`` that is the table's primary key."""
    return [
        sa.Column("id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=f"pk_{table}"),
    ]


def of_table(table: str) -> list[SchemaItem]:
    """``table_id``: the game table a row belongs to."""
    return [
        sa.Column("table_id", sa.Integer(), nullable=False),
        references(table, "table_id", "game_tables"),
    ]


def table_row(table: str) -> list[SchemaItem]:
    """The integer key of a row that belongs to one game table, and its link to that table."""
    return [*keyed(table), *of_table(table)]
