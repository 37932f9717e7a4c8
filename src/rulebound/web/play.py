"""The play screen beside the feed, for any game: each character's one-click rolls with their
exact chances, the roll dialog in place, pickers of the table's characters, the variants in
words and the table's counters. Nothing here knows which game it shows."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import segno

from rulebound.core.canonical import fraction_text
from rulebound.core.dice import Expression, NotComputed, Odds, odds, preview
from rulebound.core.errors import InvalidInput, RuleboundError
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import Field, Play
from rulebound.rulesets.forms import initial_values
from rulebound.rulesets.forms import parse_html_form as parse_form
from rulebound.store import CharacterRow, EntryOutline, LogEntry, Member
from rulebound.web.auth import Viewer
from rulebound.web.views import chance_text

if TYPE_CHECKING:
    from rulebound.web.service import TableService

MAX_QUICK = 24
"""One-click rolls shown per character (a sheet with more shows its first ones)."""
ROLLS = ("roll", "sheet-action")
"""Entries that start a new chain for their character: they close its older follow-ups."""
VOIDS = ("void",)
"""Entries whose record says what they close (``voided``)."""


def hidden_fields(values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A form's values as the (name, value) pairs of hidden inputs that post them again."""
    pairs: list[tuple[str, str]] = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        if isinstance(value, list | tuple | set):
            pairs += [(name, str(item)) for item in value]
        else:
            pairs.append((name, "on" if value is True else str(value)))
    return pairs


def quick_rolls(service: TableService, viewer: Viewer, row: CharacterRow) -> list[dict[str, Any]]:
    """The sheet's one-click rolls, each with the values it posts and its chance to succeed."""
    rules = service.game(viewer.table.ruleset).table
    try:
        base = initial_values(rules.dialog(row.sheet), rules.sheets.dialog_values(row.sheet))
        offered = rules.sheets.quick_rolls(row.sheet)[:MAX_QUICK]
    except RuleboundError:
        return []
    shown = []
    for quick in offered:
        values = {**base, **quick.values}
        try:
            chances = rules.chances(row.sheet, values, viewer.table.variants)
        except RuleboundError:
            continue  # a roll the sheet cannot make as it stands: the dialog says why
        shown.append(
            {
                "label": quick.label,
                "fields": hidden_fields(values),
                "percent": chance_text(chances.success),
                "exact": fraction_text(chances.success),
                "success": chances.success_label,
            }
        )
    return shown


def looks_blank(quick: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a sheet's one-click rolls say nothing yet: none at all, or three or more with
    the same exact chance (a sheet still on its starting values: twelve skills at D8). Read
    from the quick rolls alone, so it holds for every game without asking it; two equal
    skills are common on a real sheet, three or more all alike are not."""
    return not quick or (len(quick) >= 3 and len({q["exact"] for q in quick}) == 1)


def quick_basis(fields: Sequence[Field], values: Mapping[str, Any], quick: set[str]) -> list[str]:
    """What the one-click rolls take from the dialog that the rules need ("Difficulty
    Rating 1"), so a default they roll against is never silent."""
    shown = []
    for field in fields:
        value = values.get(field.name)
        if field.required and field.name not in quick and value not in (None, ""):
            words = next((c.label for c in field.choices if c.value == str(value)), str(value))
            shown.append(f"{field.label} {words}")
    return shown


def roster_choices(rows: Sequence[CharacterRow]) -> list[tuple[str, str]]:
    return [(str(row.id), row.name) for row in rows]


def posted(fields: Sequence[Field], form: Any, rows: Sequence[CharacterRow] = ()) -> dict[str, Any]:
    """A posted form as the rules read it: a picked character (kind "sheet") becomes its
    sheet as the poster sees it, and a picker of several characters one comma-separated text."""
    values = parse_form(fields, form)
    sheets = {str(row.id): row.sheet for row in rows}
    for field in fields:
        if field.picks == "many":
            picked = [v for v in form.getlist(field.name) if isinstance(v, str) and v]
            values[field.name] = ", ".join(picked)
        elif field.kind == "sheet" and field.name in values:
            chosen = values.pop(field.name)
            if chosen in sheets:
                values[field.name] = sheets[chosen]
            elif chosen:
                raise InvalidInput(field.name, chosen, "a character of this table")
    return values


def variant_words(service: TableService, ruleset: str, chosen: Mapping[str, str]) -> list[str]:
    """The table's rules variants in words ("Which banes risk the gear: banes on the base
    dice"), never as raw keys."""
    lines = []
    for variant in service.game(ruleset).table.game.variants:
        if variant.key in chosen:
            lines.append(f"{variant.label or variant.key}: {variant.words(chosen[variant.key])}")
    return lines


def counters(members: Sequence[Member], characters: int) -> list[str]:
    seated = [m for m in members if not m.revoked]
    players = sum(1 for m in seated if m.role == "player")
    observers = sum(1 for m in seated if m.role == "observer")
    return [
        _count(players, "player"),
        _count(observers, "observer"),
        _count(characters, "character"),
    ]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def close_superseded(views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Follow-ups close once the character makes its next roll: entries older than that roll
    (``views`` newest first, as the pages show them) no longer offer theirs. A voided roll's
    follow-ups stand in the log, marked void with it (a void names the chain up to the
    entry it was made on; what follows that entry is void through its parent)."""
    newest: dict[int, int] = {}
    parents = {view.get("parent_id") for view in views}
    void = {i for view in views if view["kind"] == "void" for i in _voids(view)}
    for view in reversed(views):  # oldest first: a parent before its follow-ups
        if view.get("parent_id") in void:
            void.add(view["id"])
    scene = max((int(v["seq"]) for v in views if v["kind"] == "scene"), default=0)
    for view in views:
        character = view.get("character_id")
        if character is not None and view.get("kind") in ROLLS and character not in newest:
            newest[character] = int(view["seq"])
    for view in views:
        latest = newest.get(view.get("character_id") or -1)
        if view["id"] in void:
            view["voided"] = True
            view["may_void"] = False
        later = latest is not None and int(view["seq"]) < latest
        if later or int(view["seq"]) < scene or view["id"] in parents | void:
            view["can_act"] = False
            view["closed"] = True  # a blind roll's unseen follow-ups too
    return views


def _voids(view: Mapping[str, Any]) -> list[int]:
    record = view.get("record") or {}
    return [i for i in record.get("voids") or () if isinstance(i, int)]


def superseded(entries: Sequence[LogEntry | EntryOutline], chain_root: LogEntry) -> bool:
    """Whether a newer roll of the chain's character was made after the chain began."""
    return any(
        e.kind in ROLLS and e.character_id == chain_root.character_id and e.seq > chain_root.seq
        for e in entries
    )


def voided(entries: Sequence[LogEntry | EntryOutline], entry_id: int) -> bool:
    """Whether a void entry among ``entries`` names ``entry_id`` (outlines: read with the
    records of ``VOIDS``)."""
    return any(e.kind == "void" and entry_id in (e.record.get("voids") or ()) for e in entries)


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code in SVG (segno: pure Python, no front-end code)."""
    out = io.BytesIO()
    code = segno.make(text, error="m")
    code.save(out, kind="svg", scale=4, border=2, xmldecl=False, title="Invite link")
    return out.getvalue()


def expression_odds(expression: Expression) -> str:
    """The exact odds of a free roll in a line: P(total >= x), or a comparison's chance of
    success (or why they were not worked out: the roll still happens)."""
    return preview(expression)


def free_roll(
    expression: Expression, source: RandomSource, found: Odds | NotComputed | None = None
) -> Play:
    """A table-talk roll ("/r 4d6kh3") as a play: its record (the expression and its draws)
    and its card, with the chance of a total at least as high. Pass ``found`` (the odds,
    worked out before the dice are drawn) to keep that work out of the log's transaction."""
    from rulebound.rulesets.free_roll import free_roll_play

    return free_roll_play(expression, source, odds(expression) if found is None else found)
