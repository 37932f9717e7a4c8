"""``/sheet create``: a new character, through the web table's creation code.

A game with guided creation (``Game.creation``) is played step by step, each step a
message to the creator alone (its notes, its fields and their choices) with a button
that opens the step's form; the web's ``creation.advance`` takes it, with the same
signed state, the same single-use steps and the same dice. A game without makes a blank
sheet, to fill with ``/sheet show``'s forms.

The signed state travels in the step's message (an embed of its own), as the web page
carries it in a hidden input: Discord sends the message back with each press, and the
signature binds it to the table and the member. The start has none (as on the web, its
dice come from the member and how many characters they own).

Custom ids: ``rb:cs:0:STEP`` a step's button, ``rb:cm:0:STEP`` its form submitted.
"""

from __future__ import annotations

from typing import Any

from rulebound.core.canonical import to_jsonable
from rulebound.core.random_source import SystemSource
from rulebound.discord import embeds
from rulebound.discord.common import MESSAGE, UPDATE, Answer, Payload, Refusal
from rulebound.discord.forms import form, hint, sent_values
from rulebound.discord.sheets import SheetCommands, typed
from rulebound.rulesets.contract import CreationStep, Field
from rulebound.web.auth import Viewer
from rulebound.web.creation import Pending, advance, has_guided_creation, pending
from rulebound.web.service import TableService

STATE = "Creation state (signed; keep it as it is)"
"""The title of the embed that holds a step's signed state."""
MAX_STATE = 4096
"""Discord's cap on an embed's description, where the state travels."""
OPS = ("cs", "cm")


class Creation:
    def __init__(self, service: TableService, sheets: SheetCommands) -> None:
        self.service = service
        self.sheets = sheets

    def start(self, viewer: Viewer, name: str) -> Answer:
        """The first step of guided creation, or a blank sheet named ``name``."""
        ruleset = viewer.table.ruleset
        if not has_guided_creation(self.service, ruleset):
            if not name.strip():
                title = self.service.game(ruleset).title
                raise Refusal(f"{title} makes a blank sheet: `/sheet create name:<name>`.")
            row = self.service.new_character(viewer, name)
            note = f"{viewer.member.name} created {row.name}: fill the sheet with its buttons."
            return {"type": MESSAGE, "data": self.sheets.shown(viewer, row, note)}
        message = step_message(self.opening(viewer), 0, None)
        return {"type": MESSAGE, "data": message | {"flags": embeds.EPHEMERAL}}

    def press(self, viewer: Viewer, parts: list[str], payload: Payload) -> Answer:
        """A step's button (its form, or the step itself when it asks nothing), or its form."""
        op, step_no = parts[1], int(parts[3]) if len(parts) > 3 and parts[3].isdecimal() else 0
        blob = state_of(payload)
        last = pending(self.service, viewer, blob)
        fields = self.fields_of(viewer, last)
        data = payload.get("data") or {}
        if op == "cs" and fields:
            shown = [dict(to_jsonable(f)) for f in fields]
            title = last.step.title if last.blob else self.opening(viewer).title
            return form(f"rb:cm:0:{step_no}", title[: embeds.MAX_TITLE], shown)
        values = typed(fields, sent_values([dict(to_jsonable(f)) for f in fields], data))
        result = advance(self.service, viewer, last, values)
        if result.character is not None:
            row = result.character
            note = f"{viewer.member.name} created {row.name}. " + " ".join(result.step.notes)
            return {"type": UPDATE, "data": self.sheets.shown(viewer, row, note[:1500])}
        return {"type": UPDATE, "data": step_message(result.step, step_no + 1, result.state)}

    def fields_of(self, viewer: Viewer, last: Pending) -> tuple[Field, ...]:
        if last.blob is None:
            return self.opening(viewer).fields
        return last.step.fields

    def opening(self, viewer: Viewer) -> CreationStep:
        """The start's page: its form is what the first post takes (it draws no dice)."""
        rules = self.service.game(viewer.table.ruleset).table
        step = rules.creation({}, {}, SystemSource())  # as ``has_guided_creation`` asks
        if step is None:
            raise Refusal("This game has no guided creation: `/sheet create name:<name>`.")
        return step


def state_of(payload: Payload) -> str | None:
    """The signed state of the step a press came from (None: the start)."""
    message = payload.get("message") or {}
    for embed in message.get("embeds") or ():
        if embed.get("title") == STATE:
            return str(embed.get("description") or "") or None
    return None


def step_message(step: CreationStep, step_no: int, state: str | None) -> dict[str, Any]:
    """A step as a message: its title, notes and what each field takes, its signed state,
    and the button that opens its form (or takes it, when it asks nothing)."""
    lines = [f"- {note}" for note in step.notes]
    lines += [f"**{f.label}**: {hint_of(f)}" for f in step.fields]
    shown = [
        {
            "title": step.title[:256],
            "description": _clip("\n".join(lines) or "Nothing to choose here.", 4096),
            "color": embeds.NEUTRAL,
        }
    ]
    if state is not None:
        if len(state) > MAX_STATE:
            raise Refusal("This step's state is too long for Discord: go on on the web table.")
        shown.append({"title": STATE, "description": state})
    label = f"Fill in: {step.title}" if step.fields else f"Continue: {step.title}"
    button = {
        "type": embeds.BUTTON,
        "style": embeds.PRIMARY,
        "label": _clip(label, 80),
        "custom_id": f"rb:cs:0:{step_no}",
    }
    return {"embeds": shown, "components": [{"type": embeds.ROW, "components": [button]}]}


def hint_of(field: Field) -> str:
    """What a step's field takes, every choice named (a form shows only a hundred
    characters of them)."""
    if field.choices:
        many = "several of " if field.kind == "multiselect" else "one of "
        return _clip(many + ", ".join(f"{c.value} ({c.label})" for c in field.choices), 900)
    return hint(dict(to_jsonable(field))) or (field.help or "text")


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
