"""The visibility oracle: who may know of a log entry and who may see its content, from the
documented rules (docs/web.md, "Who sees what"), and checks of what a viewer was sent.

It is written apart from the server's own filter (``Viewer.knows_of``, the store's
``store.sql.queries``) so that a bug there shows as a difference here.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import escape

from rulebound.store import LogEntry, Scope, Store

PUBLIC_FIELDS = frozenset(
    {
        # what anyone who knows of an entry may read, even of a roll hidden from them
        "id",
        "seq",
        "kind",
        "privacy",
        "privacy_label",
        "actor_id",
        "actor",
        "character_id",
        "character",
        "parent_id",
        "created_at",
        "changed",
        "hidden",
        "summary",
        "can_act",
        "html",
        # the hash chain and the dice parameters: public by design (docs/security.md)
        "prev_hash",
        "hash",
        "body_hash",
        "dice",
        "disclosed",
    }
)
"""A new field of the entry view must be classified here: public, or content to withhold."""
WITHHELD_FIELDS = frozenset(
    {"withheld", "seq", "privacy", "dice", "body_hash", "prev_hash", "hash"}
)
"""All that the JSON export says of an entry the viewer may not know of: what recomputes
its link in the chain (issue 14 item 3), no salt, body or card."""
EMPTY: tuple[Any, ...] = (None, False, "", [], {})


@dataclass(frozen=True)
class Who:
    name: str
    member_id: int
    is_gm: bool


def knows(who: Who, entry: LogEntry) -> bool:
    if entry.privacy == "public":
        return True
    if entry.privacy == "self":
        return entry.actor_id == who.member_id
    return entry.actor_id == who.member_id or who.is_gm  # "gm" and "blind"


def sees(who: Who, entry: LogEntry) -> bool:
    return knows(who, entry) and (entry.privacy != "blind" or who.is_gm)


def truth(store: Store, table_id: int, members: Iterable[Who]) -> dict[int, LogEntry]:
    """Every entry of the table: each is known at least to its actor (union of all scopes)."""
    found: dict[int, LogEntry] = {}
    for who in members:
        scope = Scope(who.member_id, who.is_gm)
        for entry in store.entries(table_id, scope, after=0, limit=1_000_000):
            found[entry.id] = entry
    return found


class Leak(AssertionError):
    pass


def check_view(who: Who, entry: LogEntry, view: Mapping[str, Any], where: str) -> None:
    """One entry as ``who`` was sent it: nothing of its content unless they may see it."""
    label = f"{where}: entry {entry.id} ({entry.privacy} by {entry.actor_id}) to {who.name}"
    if not knows(who, entry):
        raise Leak(f"{label}: sent an entry they may not know of")
    if view.get("id") != entry.id or view.get("privacy") != entry.privacy:
        raise Leak(f"{label}: sent as {view.get('id')}/{view.get('privacy')}")
    if sees(who, entry):
        assert view.get("card") == entry.card, f"{label}: card differs"
        return
    if view.get("hidden") is not True or view.get("summary") == entry.summary:
        raise Leak(f"{label}: not redacted")
    for key, value in view.items():
        if key not in PUBLIC_FIELDS and value not in EMPTY:
            raise Leak(f"{label}: field {key!r} holds {str(value)[:80]}")
    html = view.get("html")
    if html is not None and ('class="card' in html or str(escape(entry.summary)) in html):
        raise Leak(f"{label}: the feed fragment shows the result")


def check_ids(who: Who, got: Iterable[int], want: Iterable[int], where: str) -> None:
    got_set, want_set = set(got), set(want)
    if got_set - want_set:
        raise Leak(f"{where}: {who.name} was sent entries {sorted(got_set - want_set)}")
    assert got_set == want_set, f"{where}: {who.name} missed {sorted(want_set - got_set)}"


def check_secrets(who: Who, entries: Iterable[LogEntry], sent: str, where: str) -> None:
    """No salt of an entry the viewer may not see appears anywhere in what they were sent."""
    for entry in entries:
        salt = getattr(entry, "salt", "")
        if salt and not sees(who, entry) and salt in sent:
            raise Leak(f"{where}: {who.name} was sent the salt of entry {entry.id}")


def feed_views(text: str) -> list[dict[str, Any]]:
    views, event = [], ""
    for line in text.splitlines():
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "entry":
            views.append(json.loads(line[6:]))
    return views


def export_views(who: Who, text: str, entries: Mapping[int, LogEntry]) -> list[dict[str, Any]]:
    """The JSON export's entries; withheld stubs must say nothing but their place in the chain."""
    document = json.loads(text)
    items = document["entries"] if isinstance(document, dict) else document
    views = []
    for item in items:
        if item.get("withheld"):
            if set(item) - WITHHELD_FIELDS:
                raise Leak(f"export: a withheld entry tells {who.name} {sorted(item)}")
            continue
        if item.get("disclosed"):
            raise Leak(f"export: entry {item.get('id')} disclosed though no seed was revealed")
        entry = entries[item["id"]]
        if not sees(who, entry) and (item.get("salt") or item.get("body")):
            raise Leak(f"export: entry {entry.id}'s salt or body sent to {who.name}")
        views.append(item)
    return views


def check_csv(who: Who, text: str, entries: Mapping[int, LogEntry]) -> list[int]:
    by_seq = {entry.seq: entry for entry in entries.values()}
    rows = list(csv.DictReader(io.StringIO(text)))
    for row in rows:
        entry = by_seq[int(row["seq"])]
        if not knows(who, entry):
            raise Leak(f"csv: entry {entry.id} sent to {who.name}")
        if not sees(who, entry) and (
            row["title"] or row["outcome"] or row["summary"] == entry.summary
        ):
            raise Leak(f"csv: entry {entry.id}'s result sent to {who.name}")
    return [by_seq[int(row["seq"])].id for row in rows]


ENTRY_ITEM = re.compile(
    r'<li class="entry[^"]*" id="e(\d+)"(.*?)</li>\s*(?=<li class="entry|</ol>)', re.S
)


def check_log_page(who: Who, html: str, entries: Mapping[int, LogEntry]) -> list[int]:
    shown = []
    for match in ENTRY_ITEM.finditer(html):
        entry = entries[int(match.group(1))]
        if not knows(who, entry):
            raise Leak(f"log page: entry {entry.id} shown to {who.name}")
        body = match.group(2)
        if not sees(who, entry) and ('class="card' in body or str(escape(entry.summary)) in body):
            raise Leak(f"log page: entry {entry.id}'s result shown to {who.name}")
        shown.append(entry.id)
    return shown
