"""What a process does with another's notice, whichever backplane carried it."""

from __future__ import annotations

from collections.abc import Callable

from rulebound.store import SqlStore
from rulebound.store.cache import PARTS
from rulebound.web.feed.hub import Hub


def hear(store: SqlStore, hub: Hub, table_id: int, seq: str, parts: str) -> None:
    """Another process wrote ``seq`` of a table (``-``: changed it without logging),
    changing ``parts`` of it (comma-separated names)."""
    named = [part for part in PARTS if part in parts.split(",")]
    if named:
        store.forget(table_id, named)
    if seq.isdecimal():
        hub.notice(table_id, int(seq))
    else:
        hub.changed(table_id)


def pg_heard(store: SqlStore, hub: Hub) -> Callable[[int, str, str, str], None]:
    """The PostgreSQL listener's callback: notices from other processes only."""

    def heard(table_id: int, seq: str, sender: str, parts: str) -> None:
        if sender != store.origin:
            hear(store, hub, table_id, seq, parts)

    return heard
