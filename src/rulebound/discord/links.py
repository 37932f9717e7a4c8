"""Which table a channel plays at, and which member of it a Discord user is.

Both live in the table's own database (migration 0005): ``discord_channels`` and
``discord_members``. Seating goes through the store like any join (a log entry); the
identity row is written right after it. ``discord_interactions`` (migration 0007) holds
the ids of the interactions answered, so that a replayed request is refused in every
process that serves the table.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from rulebound.store import Member, Role, Store, TableRow
from rulebound.store.schema import discord_channels, discord_interactions, discord_members


class Links:
    def __init__(self, store: Store, engine: Engine) -> None:
        self.store = store
        self.engine = engine

    def table(self, channel_id: str) -> TableRow | None:
        query = select(discord_channels.c.table_id).where(
            discord_channels.c.channel_id == channel_id
        )
        with self.engine.connect() as conn:
            table_id = conn.execute(query).scalar()
        return None if table_id is None else self.store.table(int(table_id))

    def link(self, channel_id: str, guild_id: str | None, table_id: int, member_id: int) -> None:
        """Bind the channel to the table (a channel linked before moves to this one)."""
        c = discord_channels.c
        with self.engine.begin() as conn:
            conn.execute(delete(discord_channels).where(c.channel_id == channel_id))
            conn.execute(
                insert(discord_channels).values(
                    channel_id=channel_id,
                    guild_id=guild_id,
                    table_id=table_id,
                    linked_by=member_id,
                    created_at=datetime.now(UTC),
                )
            )

    def member(self, table_id: int, user_id: str) -> Member | None:
        c = discord_members.c
        query = select(c.member_id).where(c.table_id == table_id, c.user_id == user_id)
        with self.engine.connect() as conn:
            member_id = conn.execute(query).scalar()
        return None if member_id is None else self.store.member(table_id, int(member_id))

    def seat(self, table_id: int, user_id: str, role: Role, name: str) -> Member:
        """Seat the user as a new member of the table, with their Discord identity."""
        words = "game master" if role == "gm" else "player"
        member, _session = self.store.add_member(
            table_id, role, name, f"{name} joined as {words} from Discord"
        )
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(discord_members).values(
                        table_id=table_id,
                        user_id=user_id,
                        member_id=member.id,
                        created_at=datetime.now(UTC),
                    )
                )
        except IntegrityError:
            # the same user joined twice at once: the first identity stands (the extra seat
            # stays in the log, unused)
            first = self.member(table_id, user_id)
            if first is None:
                raise
            return first
        return member

    def first_time(self, interaction_id: str, signed_at: int, oldest: int) -> bool:
        """Remember an interaction by its id: False when it was answered before (a replay).
        Ids signed before ``oldest`` are forgotten: their timestamps are refused anyway."""
        c = discord_interactions.c
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(discord_interactions).where(c.signed_at < oldest))
                conn.execute(
                    insert(discord_interactions).values(
                        interaction_id=interaction_id, signed_at=signed_at
                    )
                )
        except IntegrityError:
            return False
        return True
