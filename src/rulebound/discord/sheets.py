"""``/sheet``: a character's sheet from Discord, and its edits, through the web sheet's code.

``show`` answers (to the user alone) with the sheet's tracks and values, and a button per
page of its edit form: a page is up to five fields of one group, Discord's cap on a form.
A submitted page, and ``set`` (one field), go to ``TableService.edit_sheet`` as the web
sheet's form does: the game's own validation, one "edited" entry in the log. The form
carries the sheet's version when it was opened, so an edit made meanwhile is not lost.

Custom ids: ``rb:se:CHARACTER:PAGE`` opens a page's form, ``rb:sm:CHARACTER:PAGE:VERSION``
is that form submitted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebound.core.canonical import to_jsonable
from rulebound.discord import embeds
from rulebound.discord.common import MESSAGE, UPDATE, Answer, Refusal, pick_character, said
from rulebound.discord.forms import MAX_INPUTS, form, sent_values, shown
from rulebound.rulesets.contract import Field, SheetView
from rulebound.store import CharacterRow
from rulebound.web.auth import Viewer
from rulebound.web.service import TableService

MAX_BUTTONS = 25
"""Five rows of five: the pages past these are edited with ``/sheet set``."""
MAX_EMBED = 5500
"""Below Discord's 6000 characters for all of a message's embeds."""
OPS = ("se", "sm")

Page = tuple[str, tuple[Field, ...]]


def pages(view: SheetView) -> list[Page]:
    """The edit form in pages of at most five fields, each of one group, in the form's order;
    a group of more is cut ("Skills 1/3", "Skills 2/3"...)."""
    groups: dict[str, list[Field]] = {}
    for field in view.fields:
        groups.setdefault(field.group, []).append(field)
    made: list[Page] = []
    for group, fields in groups.items():
        cuts = [fields[i : i + MAX_INPUTS] for i in range(0, len(fields), MAX_INPUTS)]
        name = group or "General"
        for n, cut in enumerate(cuts):
            made.append((f"{name} {n + 1}/{len(cuts)}" if len(cuts) > 1 else name, tuple(cut)))
    return made


def value_text(field: Field, value: Any) -> str:
    """A sheet value in words: a choice by its label, yes/no, "—" for none."""
    labels = {c.value: c.label for c in field.choices}
    if isinstance(value, list | tuple):
        value = [labels.get(str(v), v) for v in value]
    elif field.kind in ("select",) and str(value) in labels and value not in (None, ""):
        value = labels[str(value)]
    return shown(value) or "—"


class SheetCommands:
    def __init__(self, service: TableService) -> None:
        self.service = service

    def view(self, viewer: Viewer, row: CharacterRow) -> SheetView:
        return self.service.game(viewer.table.ruleset).table.sheet_view(row.sheet)

    # /sheet show and its pages

    def show(self, viewer: Viewer, chosen: str) -> Answer:
        row = pick_character(self.service, viewer, chosen)
        data = self.shown(viewer, row)
        return {"type": MESSAGE, "data": data | {"flags": embeds.EPHEMERAL}}

    def shown(self, viewer: Viewer, row: CharacterRow, note: str = "") -> dict[str, Any]:
        """The sheet as an embed (tracks first, then each group's values) and its pages'
        buttons."""
        view = self.view(viewer, row)
        tracks = "\n".join(f"**{label}**: {value}" for label, value in view.tracks)
        fields = []
        for name, part in pages(view):
            lines = [f"{f.label}: {value_text(f, view.values.get(f.name))}" for f in part]
            fields.append({"name": name[:256], "value": _clip("\n".join(lines), 1024)})
        title = f"{row.name} ({self.service.game(viewer.table.ruleset).title})"
        description = "\n".join(part for part in (note, tracks) if part)
        used = len(title) + len(description)
        kept = []
        for field in fields[:25]:
            used += len(field["name"]) + len(field["value"])
            if used > MAX_EMBED:
                break
            kept.append(field)
        embed = {
            "title": title[:256],
            "description": _clip(description or "No tracks.", 4096),
            "color": embeds.NEUTRAL,
            "fields": kept,
            "footer": {"text": "Edit a page with its button, or one field: /sheet set"},
        }
        buttons = [
            {
                "type": embeds.BUTTON,
                "style": embeds.SECONDARY,
                "label": _clip(f"Edit: {name}", 80),
                "custom_id": f"rb:se:{row.id}:{n}",
            }
            for n, (name, _) in enumerate(pages(view)[:MAX_BUTTONS])
        ]
        rows = [{"type": embeds.ROW, "components": buttons[i : i + 5]} for i in range(0, 25, 5)]
        return {"embeds": [embed], "components": [r for r in rows if r["components"]]}

    def press(self, viewer: Viewer, parts: list[str], data: Mapping[str, Any]) -> Answer:
        """A page's button (its form), or its form submitted (the edit)."""
        op, character_id = parts[1], int(parts[2])
        page = int(parts[3]) if parts[3].isdecimal() else -1
        row = self.service.editable(viewer, character_id)
        view = self.view(viewer, row)
        found = pages(view)
        if not 0 <= page < len(found):
            raise Refusal("That page of the sheet is gone: run `/sheet show` again.")
        name, part = found[page]
        fields = [dict(to_jsonable(f)) for f in part]
        if op == "se":
            values = {f.name: shown(view.values.get(f.name)) for f in part}
            title = _clip(f"{row.name}: {name}", embeds.MAX_TITLE)
            return form(f"rb:sm:{row.id}:{page}:{row.version}", title, fields, values)
        version = int(parts[4]) if len(parts) > 4 and parts[4].isdecimal() else None
        sent = sent_values(fields, data)
        edited = self.service.edit_sheet(viewer, row.id, typed(part, sent), version)
        note = self.changes(viewer, view, edited) or "Saved: nothing changed."
        return {"type": UPDATE, "data": self.shown(viewer, edited, note)}

    # /sheet set

    def set(self, viewer: Viewer, chosen: str, name: str, value: str) -> Answer:
        row = pick_character(self.service, viewer, chosen)
        view = self.view(viewer, row)
        field = field_named(view.fields, name)
        edited = self.service.edit_sheet(viewer, row.id, typed((field,), {field.name: value}), None)
        changed = self.changes(viewer, view, edited) or f"{field.label}: unchanged"
        return said(f"{viewer.member.name} edited {row.name}. {changed}", ephemeral=False)

    def changes(self, viewer: Viewer, before: SheetView, row: CharacterRow) -> str:
        """What an edit changed, in the sheet's words ("Damage: 0 → 2")."""
        now = self.view(viewer, row).values
        changed = [
            f"{f.label}: {value_text(f, before.values.get(f.name))} → "
            f"{value_text(f, now.get(f.name))}"
            for f in before.fields
            if before.values.get(f.name) != now.get(f.name)
        ]
        return _clip("; ".join(changed), 1500)

    # autocomplete

    def field_choices(self, viewer: Viewer, chosen: str) -> list[tuple[str, str]]:
        row = pick_character(self.service, viewer, chosen)
        return [(f"{f.label} ({f.name})", f.name) for f in self.view(viewer, row).fields]

    def value_choices(self, viewer: Viewer, chosen: str, name: str) -> list[tuple[str, str]]:
        row = pick_character(self.service, viewer, chosen)
        view = self.view(viewer, row)
        field = field_named(view.fields, name)
        current = shown(view.values.get(field.name))
        pairs = [(c.label, c.value) for c in field.choices if c.value]
        if field.kind == "bool":
            pairs = [("yes", "yes"), ("no", "no")]
        return ([(f"now: {current}", current)] if current else []) + pairs


def field_named(fields: Sequence[Field], name: str) -> Field:
    """The sheet's field by name (or label), else a refusal that lists the names."""
    wanted = name.strip().lower()
    for field in fields:
        if wanted in (field.name.lower(), field.label.lower()):
            return field
    names = ", ".join(f.name for f in fields)
    raise Refusal(f"The sheet has no field {name!r}: " + _clip(names, 1500))


def typed(fields: Sequence[Field], sent: Mapping[str, str]) -> dict[str, Any]:
    """A form's text as the web sheet posts it: several values a list, the rest as typed
    (the rules read "5" and "yes" as they read a web form, and name what they refuse)."""
    values: dict[str, Any] = {}
    for field in fields:
        if field.name not in sent:
            continue
        text = sent[field.name]
        if field.repeated:
            values[field.name] = [part.strip() for part in text.split(",") if part.strip()]
        else:
            values[field.name] = text if field.multiline else text.strip()
    return values


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
