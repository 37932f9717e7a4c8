"""Discord's part of a table's database: which table a channel plays at, which member a
Discord user is, and which interactions were answered (so that a replay is refused in every
process that serves the table)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from rulebound.store.base import Member, NewEntry, Role, TableRow
from rulebound.store.schema import discord_channels, discord_interactions, discord_members
from rulebound.store.sql.common import now
from rulebound.store.sql.tables import TablesPart, seat
from rulebound.store.writer import Batch


class DiscordPart(TablesPart):
    def channel_table(self, channel_id: str) -> TableRow | None:
        c = discord_channels.c
        with self._read() as conn:
            table_id = conn.execute(select(c.table_id).where(c.channel_id == channel_id)).scalar()
        return None if table_id is None else self.table(int(table_id))

    def link_channel(
        self, channel_id: str, guild_id: str | None, table_id: int, member_id: int
    ) -> None:
        def write(batch: Batch) -> Callable[[], None]:
            c = discord_channels.c
            batch.conn.execute(delete(discord_channels).where(c.channel_id == channel_id))
            values = {"channel_id": channel_id, "guild_id": guild_id, "table_id": table_id}
            batch.conn.execute(
                insert(discord_channels).values(**values, linked_by=member_id, created_at=now())
            )
            return lambda: None

        self._write(write)

    def discord_member(self, table_id: int, user_id: str) -> Member | None:
        c = discord_members.c
        query = select(c.member_id).where(c.table_id == table_id, c.user_id == user_id)
        with self._read() as conn:
            member_id = conn.execute(query).scalar()
        return None if member_id is None else self.member(table_id, int(member_id))

    def seat_discord_user(
        self, table_id: int, user_id: str, role: Role, name: str, summary: str
    ) -> Member:
        c = discord_members.c
        known = select(c.member_id).where(c.table_id == table_id, c.user_id == user_id)

        def write(batch: Batch) -> Callable[[], int]:
            batch.lock([table_id])
            found = batch.conn.execute(known).scalar()
            if found is not None:  # seated a moment ago, by another request
                return lambda: int(found)
            member, _session = seat(batch.conn, table_id, role, name)
            values = {"table_id": table_id, "user_id": user_id, "member_id": member.id}
            batch.conn.execute(insert(discord_members).values(**values, created_at=now()))
            self._seal(batch, NewEntry(table_id, "join", "public", member.id, summary))
            return lambda: member.id

        return self.member(table_id, self._write(write, [table_id]))

    def first_interaction(self, interaction_id: str, signed_at: int, oldest: int) -> bool:
        c = discord_interactions.c

        def write(batch: Batch) -> Callable[[], None]:
            batch.conn.execute(delete(discord_interactions).where(c.signed_at < oldest))
            values = {"interaction_id": interaction_id, "signed_at": signed_at}
            batch.conn.execute(insert(discord_interactions).values(**values))
            return lambda: None

        try:
            self.writer.run(write)
        except IntegrityError:
            return False
        return True
