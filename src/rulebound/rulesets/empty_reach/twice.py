"""Killer and Lucky at the table: a sheet action that rolls a critical injury table's die
twice, and the follow-up that keeps one of the two results.

Records: ``{"kind": "roll-twice", "name", "specialty", "table", "sides", "first", "draws"}``
(``first``: a result rolled already, or null) and then ``{"kind": "choose", "keep": 1 | 2,
"draws": []}``. A card is rebuilt from them alone, the sheet is not needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import ActionView, Chain, Choice, Field, Params
from rulebound.rulesets.empty_reach.character import Character
from rulebound.rulesets.empty_reach.specialties import (
    MAX_TABLE_SIDES,
    TwiceRolled,
    draw_twice,
    roll_twice,
)
from rulebound.rulesets.fields import number
from rulebound.rulesets.plays import make_record, replayed
from rulebound.rulesets.views import Card, DieView, Play

ROLL_TWICE = "roll-twice"
CHOOSE = "choose"
SIDES = 6
"""The table die a form offers first (the text gives no critical injury table)."""
KEEP = Field(
    "keep",
    "Which result to keep",
    "select",
    (Choice("1", "the first"), Choice("2", "the second")),
    default="1",
)


def action(character: Character) -> ActionView | None:
    """The sheet action, if the character holds a roll-twice specialty (Killer, Lucky)."""
    content = character.content
    held = [content.specialty(s) for s in character.specialties]
    twice = [s for s in held if s.effect == "roll-twice"]
    if not twice:
        return None
    which = tuple(Choice(s.name, f"{s.name}: {s.summary}") for s in twice)
    first_help = "A result rolled already (an attacker's Killer pick): roll once more against it."
    fields = (
        Field("specialty", "Specialty", "select", which, default=which[0].value, required=True),
        number("sides", "Sides of the table's die", 2, MAX_TABLE_SIDES, default=SIDES),
        number("first", "Result already rolled (optional)", 1, MAX_TABLE_SIDES, help=first_help),
    )
    label = "Critical injury: roll twice and keep one (" + ", ".join(s.name for s in twice) + ")"
    return ActionView(ROLL_TWICE, label, fields)


def act(character: Character, params: Params, source: RandomSource) -> Play:
    """Roll for the named specialty; the card offers the choice of result."""
    name = str(params.get("specialty") or "")
    sides, first = params.get("sides") or SIDES, params.get("first")
    twice = roll_twice(character, name, sides, source, first)
    stored = {
        "name": character.name,
        "specialty": twice.specialty,
        "table": twice.table,
        "sides": sides,
        "first": first,
    }
    record = make_record(ROLL_TWICE, stored, twice.provenance.draws)
    card = _offer(record, twice)
    return Play(record, card, None, card.outcome)


def _replay(record: Mapping[str, Any]) -> TwiceRolled:
    try:
        sides, first = int(record["sides"]), record.get("first")
        specialty, table = str(record["specialty"]), str(record.get("table") or "")
        first = None if first is None else int(first)
    except (KeyError, TypeError, ValueError):
        expected = "a roll-twice record: specialty, sides, first"
        raise InvalidInput("record", dict(record), expected) from None
    faces, provenance = replayed(record, lambda source: draw_twice(sides, source, first))
    return TwiceRolled(specialty, table, faces, provenance, sides, first is not None)


def _dice(twice: TwiceRolled) -> tuple[DieView, ...]:
    first = "rolled before" if twice.rolled_before else "first"
    labels = (f"d{twice.sides} ({first})", f"d{twice.sides} (second)")
    pairs = zip(labels, twice.faces, strict=True)
    return tuple(DieView(label, twice.sides, face) for label, face in pairs)


def _title(record: Mapping[str, Any], twice: TwiceRolled) -> str:
    return f"{record.get('name', '')}: {twice.specialty}, {twice.table}".strip(": ")


def _offer(record: Mapping[str, Any], twice: TwiceRolled) -> Card:
    a, b = twice.faces
    keep = Field(
        KEEP.name,
        KEEP.label,
        "select",
        (Choice("1", f"the first ({a})"), Choice("2", f"the second ({b})")),
        default="1",
    )
    return Card(
        _title(record, twice),
        f"Rolled {a} and {b} on a d{twice.sides}: keep one",
        None,
        _dice(twice),
        details=("The critical injury table is the GM's (the text does not give it).",),
        actions=(ActionView(CHOOSE, "Keep one result", (keep,)),),
    )


def _kept(record: Mapping[str, Any], twice: TwiceRolled, keep: int) -> Card:
    a, b = twice.faces
    who = str(record.get("name") or "The player")
    return Card(
        _title(record, twice),
        f"{who} keeps {twice.faces[keep - 1]} (of {a} and {b})",
        None,
        _dice(twice),
    )


def _keep(record: Mapping[str, Any]) -> int:
    keep = record.get("keep")
    if keep not in (1, 2) or isinstance(keep, bool):
        raise InvalidInput("record.keep", keep, "1 or 2")
    return int(keep)


def card(chain: Chain) -> Card:
    """The card a roll-twice chain rebuilds: the offer, or the result kept."""
    twice = _replay(chain[0])
    if len(chain) == 1:
        return _offer(chain[0], twice)
    if len(chain) != 2 or chain[1].get("kind") != CHOOSE:
        raise InvalidInput("chain", [r.get("kind") for r in chain], "roll-twice, then choose")
    return _kept(chain[0], twice, _keep(chain[1]))


def follow(chain: Chain, action: str, params: Params) -> Play:
    """Keep one of the two results (once)."""
    if len(chain) != 1:
        raise RuleViolation("choose", "a result was kept already")
    if action != CHOOSE:
        raise InvalidInput("action", action, CHOOSE)
    keep = int(forms.read((KEEP,), params)["keep"])
    twice = _replay(chain[0])
    record = make_record(CHOOSE, {"keep": keep}, ())
    shown = _kept(chain[0], twice, keep)
    return Play(record, shown, None, shown.outcome)
