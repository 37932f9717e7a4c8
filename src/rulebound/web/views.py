"""What one viewer is shown of the log: entries as JSON-ready dicts, redacted per viewer.

Every page, feed event, API answer and export goes through ``entry_view``. A
blind entry reaches its roller only as "a roll happened": no card, no record,
no summary of the result. Entries the viewer may not know of at all never get
here (the store's query filters them) and ``entry_view`` drops them again.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulebound.core import display
from rulebound.core.canonical import fraction_text
from rulebound.rulesets.contract import Chances
from rulebound.store import CharacterRow, LogEntry, Member, Store
from rulebound.web.auth import Viewer

PRIVACY_LABELS = {
    "public": "Everyone",
    "gm": "Me and the game master",
    "blind": "Blind (game master only)",
    "self": "Only me",
    "whisper": "Whisper",
}
PLAY_LABELS = {mode: label for mode, label in PRIVACY_LABELS.items() if mode != "whisper"}
"""The privacy a play may take (a whisper is table talk, to one member)."""


@dataclass(frozen=True, slots=True)
class Context:
    """Names and permissions needed to show a batch of entries to one viewer."""

    viewer: Viewer
    members: Mapping[int, Member]
    characters: Mapping[int, CharacterRow]
    followed: set[int]
    revealed: set[int] = field(default_factory=set)
    """The hidden entries among them a reveal has shown (read for a game master alone)."""


def context_for(
    store: Store,
    viewer: Viewer,
    entries: Sequence[LogEntry],
    followed: set[int] | None = None,
) -> Context:
    """Names (cached by the store) and which entries were followed up (None: ask the store;
    an entry just written has no follow-up yet)."""
    table_id = viewer.table.id
    named = {e.actor_id for e in entries if e.actor_id is not None}
    named |= {e.to_id for e in entries if e.to_id is not None}  # a whisper's addressee
    named |= {r for r in map(_roller, entries) if r is not None}  # whom a reveal shows
    hidden = [e.id for e in entries if e.privacy in HIDDEN] if viewer.is_gm else []
    return Context(
        viewer,
        store.members_by_id(table_id, named),
        store.characters_by_id(table_id, {e.character_id for e in entries if e.character_id}),
        store.followed([e.id for e in entries]) if followed is None else followed,
        store.revealed(hidden) if hidden else set(),
    )


HIDDEN = ("gm", "blind")
"""The privacy of the results a game master may reveal."""


def _roller(entry: LogEntry) -> int | None:
    """Who made the roll a reveal shows (its record says, from when reveals named them)."""
    found = entry.record.get("rolled_by") if entry.kind == "reveal" else None
    return found if isinstance(found, int) else None


def _can_act(entry: LogEntry, ctx: Context, character: CharacterRow | None) -> bool:
    viewer = ctx.viewer
    return bool(
        entry.card
        and entry.card.get("actions")
        and entry.id not in ctx.followed
        and character is not None
        and viewer.member.role != "observer"
        and viewer.may_edit(character)
    )


def _may_reveal(entry: LogEntry, ctx: Context) -> bool:
    return (
        ctx.viewer.is_gm
        and entry.privacy in HIDDEN
        and entry.card is not None
        and entry.id not in ctx.revealed
    )


def _may_void(entry: LogEntry, viewer: Viewer) -> bool:
    """A turn entry is not voided: the tracker's own moves undo it."""
    return viewer.is_gm and entry.card is not None and entry.kind not in ("reveal", "void", "turn")


ShareKey = tuple[str, int | bool]
"""("member", a member's id): shown to that member alone; ("shared", whether in full)."""


def share_key(entry: LogEntry, ctx: Context) -> ShareKey | None:
    """Viewers with the same key are shown ``entry`` byte for byte alike (its view and its
    HTML), so the live feed renders it once per key: None for those who may not know of it,
    the member's own key where the view holds something of theirs (their contribution,
    forms carrying their CSRF token), else one key per redaction level."""
    viewer = ctx.viewer
    if not viewer.knows_of(entry):
        return None
    character = ctx.characters.get(entry.character_id) if entry.character_id else None
    fully = viewer.sees_fully(entry)
    mine = entry.dice is not None and entry.actor_id == viewer.member.id
    unseen = not fully and entry.actor_id == viewer.member.id  # may push it unseen
    acts = unseen or _may_reveal(entry, ctx) or _may_void(entry, viewer)
    if mine or acts or (fully and _can_act(entry, ctx, character)):
        return ("member", viewer.member.id)
    return ("shared", fully)


def share_keys(entry: LogEntry, ctx: Context, viewers: Sequence[Viewer]) -> list[ShareKey | None]:
    """``share_key`` of ``entry`` for each of ``viewers``, worked out once per standing. A
    member who is neither the entry's actor nor its character's owner is shown it as every
    such member of their role and grants is (``share_key`` reads nothing else of them), so
    a thousand observers cost one key, not a thousand. A whisper's addressee is involved
    too: they know of it where the others of their standing do not."""
    character = ctx.characters.get(entry.character_id) if entry.character_id else None
    owner = character.owner_id if character is not None else None
    found: dict[Hashable, ShareKey | None] = {}
    keys: list[ShareKey | None] = []
    for viewer in viewers:
        member = viewer.member
        involved = member.id in (entry.actor_id, owner, entry.to_id)
        standing = (member.role, member.grant_all, member.id if involved else None)
        if standing in found:
            key = found[standing]
            if key is not None and key[0] == "member":
                key = ("member", member.id)
        else:
            own = Context(viewer, ctx.members, ctx.characters, ctx.followed, ctx.revealed)
            key = found[standing] = share_key(entry, own)
        keys.append(key)
    return keys


def entry_view(entry: LogEntry, ctx: Context) -> dict[str, Any] | None:
    viewer = ctx.viewer
    if not viewer.knows_of(entry):
        return None
    actor = ctx.members.get(entry.actor_id) if entry.actor_id is not None else None
    character = ctx.characters.get(entry.character_id) if entry.character_id else None
    to = ctx.members.get(entry.to_id) if entry.to_id is not None else None
    roller = ctx.members.get(_roller(entry) or 0)
    label = PRIVACY_LABELS.get(entry.privacy, entry.privacy)
    view: dict[str, Any] = {
        "id": entry.id,
        "seq": entry.seq,
        "kind": entry.kind,
        "privacy": entry.privacy,
        "privacy_label": f"{label} to {to.name}" if to is not None else label,
        "to_id": entry.to_id,
        "to": to.name if to is not None else "",
        "actor_id": entry.actor_id,
        "actor": actor.name if actor else "",
        "revealed_from": roller.name if roller else "",
        "character_id": entry.character_id,
        "character": character.name if character else "",
        "parent_id": entry.parent_id,
        "created_at": entry.created_at.isoformat(),
        "changed": list(entry.changed),
        "dice": entry.dice,
    }
    if not viewer.sees_fully(entry):
        who = f" for {view['character']}" if view["character"] else ""
        return view | {
            "hidden": True,
            "summary": f"{view['actor']} rolled blind{who}; only the game master sees it",
            "card": None,
            "record": None,
            "can_act": False,
            "may_reveal": False,
            "may_void": False,
        }
    can_act = _can_act(entry, ctx, character)
    return view | {
        "hidden": False,
        "summary": entry.summary,
        "card": entry.card,
        "record": entry.record,
        "can_act": can_act,
        "may_reveal": _may_reveal(entry, ctx),
        "may_void": _may_void(entry, viewer),
    }


def chance_text(p: Fraction) -> str:
    """A chance in a few characters for a button or a card: "impossible" and "certain" for
    0 and 1, else a whole percent that never rounds to either ("<1%", ">99%")."""
    return "impossible" if p <= 0 else "certain" if p >= 1 else display.percent(p, digits=0)


def _chance(label: str, p: Fraction) -> dict[str, Any]:
    return {"label": label, "p": fraction_text(p), "percent": f"{float(p):.1%}", "float": float(p)}


def chances_view(chances: Chances) -> dict[str, Any]:
    """The chances list (success first, then each outcome) and the typed parts beside it."""
    return {
        "chances": [_chance(label, p) for label, p in chances.as_mapping().items()],
        "success": _chance(chances.success_label, chances.success),
        "outcomes": [
            _chance(o.label, o.probability) | {"key": o.key, "succeeds": o.success}
            for o in chances.outcomes
        ],
        "extras": [
            {
                "key": e.key,
                "label": e.label,
                "kind": e.kind,
                "p": fraction_text(e.value),
                "float": float(e.value),
                "shown": f"{float(e.value):.1%}"
                if e.kind == "probability"
                else f"{float(e.value):.2f}",
            }
            for e in chances.extras
        ],
    }


CSV_COLUMNS = (
    "seq",
    "created_at",
    "kind",
    "privacy",
    "actor",
    "character",
    "parent_id",
    "title",
    "outcome",
    "summary",
)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A spreadsheet reads a cell starting with one of these as a formula (or strips it)."""


def csv_row(view: Mapping[str, Any]) -> list[str]:
    card = view.get("card") or {}
    values = dict(view) | {"title": card.get("title", ""), "outcome": card.get("outcome", "")}
    return [_cell(values.get(col)) for col in CSV_COLUMNS]


def _cell(value: Any) -> str:
    """A CSV cell as text, never a formula: one that would start one gets a leading '."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text
