"""What every Discord answer is made of: the interaction types, a message in words, a
refusal, and the character a command acts for (the same choice for rolls and sheets)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulebound.discord import embeds
from rulebound.store import CharacterRow
from rulebound.web.auth import Viewer
from rulebound.web.service import TableService

PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, MESSAGE, UPDATE, CHOICES, MODAL = 1, 4, 7, 8, 9
TEXT_INPUT, SHORT, PARAGRAPH = 4, 1, 2
MAX_CHOICES = 25
"""Discord's cap on an autocomplete's choices (and a select menu's options)."""

Payload = Mapping[str, Any]
Answer = dict[str, Any]


class Refusal(Exception):
    """An answer for the user alone, in words (not linked, not seated, not theirs)."""


def said(text: str, *, ephemeral: bool = True) -> Answer:
    data: dict[str, Any] = {"content": text[:2000]}
    if ephemeral:
        data["flags"] = embeds.EPHEMERAL
    return {"type": MESSAGE, "data": data}


def choices(pairs: list[tuple[str, str]], typed: str) -> Answer:
    """An autocomplete's answer: the (label, value) pairs whose label or value holds what was
    typed, as many as Discord shows."""
    typed = typed.lower()
    shown = [
        {"name": label[:100], "value": value[:100]}
        for label, value in pairs
        if typed in label.lower() or typed in value.lower()
    ]
    return {"type": CHOICES, "data": {"choices": shown[:MAX_CHOICES]}}


def submitted(data: Mapping[str, Any]) -> dict[str, str]:
    """A submitted modal's text inputs, by custom id."""
    return {
        str(c.get("custom_id")): str(c.get("value") or "")
        for row in data.get("components") or ()
        for c in row.get("components") or ()
    }


def pick_character(service: TableService, viewer: Viewer, chosen: str) -> CharacterRow:
    """The character a command acts for: one the viewer may play (any, for the game master),
    named by id or name; none named, the viewer's own first."""
    rows = [row for row in service.characters(viewer) if viewer.may_edit(row)]
    chosen = chosen.strip()
    if not chosen:
        own = [row for row in rows if row.owner_id == viewer.member.id] or rows
        if not own:
            raise Refusal(
                "You have no character at this table: `/rulebound character name:<name>`, "
                "or ask the game master to give you one on the web table."
            )
        return own[0]
    for row in rows:
        if chosen == str(row.id) or chosen.lower() == row.name.lower():
            return row
    names = ", ".join(row.name for row in rows) or "none"
    raise Refusal(f"No character of yours is called {chosen!r} (yours: {names}).")
