"""The inputs of a Legacy roll, raw or from a sheet, and the request they make.

A raw roll takes ``target`` or ``score`` (``bonus``, ``rank``, ``difficulty``, the edges);
a roll from a sheet takes ``characteristic``, ``affinity`` or ``proficiency`` (with
``untrained_penalty``), ``difficulty``, ``rank``, the edges, ``situations`` and ``favour``.
Either may add a helper (``helper``, a sheet, or ``assist.helper``, a name, with
``assist.rank``; ``assist.mode`` says what they lend), an opposed side (``opposed.*``:
numbers, or ``opposed.character``) or extended-check thresholds (``success_threshold``,
``failure_threshold``, ``max_rolls``; ``rolls`` and ``until_done``: turns to roll now).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulebound.rulesets.contract import Choice, Field, FieldKind
from rulebound.rulesets.fields import choices
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import MAX_PENALTY, MAX_SCORE
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue
from rulebound.rulesets.legacy.extended import MAX_ROLLS

CODES: tuple[str, ...] = (*CHARACTERISTICS, "LCK", "REN")
HELP = {
    "target": "The final number the die must not exceed.",
    "score": "A characteristic score (instead of a target).",
    "bonus": "The ability bonus (default: the score's tens digit).",
    "rank": "The rank's bonus applies when an affinity or proficiency is held.",
    "affinity": "A skill check without the affinity is one class harder.",
    "situations": "A situation a trait or soul reacts to (bright-light, fear...); repeatable.",
    "helper": "The helper's sheet: they must hold the affinity or proficiency.",
    "assist.mode": "What the helper lends (advantage, when only a helper is given).",
    "max_rolls": "An extended check: margins add up until a threshold or the last roll.",
}


def field(name: str, label: str, kind: FieldKind, group: str = "", **more: Any) -> Field:
    """A field with its help text (the opposed side's fields are labelled instead)."""
    return Field(name, label, kind, group=group, **{"help": HELP.get(name, ""), **more})


def number(
    name: str, label: str, low: int | None, high: int | None, group: str = "", **more: Any
) -> Field:
    return field(name, label, "int", group, minimum=low, maximum=high, **more)


def switch(name: str, label: str, group: str = "") -> Field:
    return field(name, label, "bool", group, default=False)


def levels(c: Catalogue, name: str = "difficulty", group: str = "", **more: Any) -> Field:
    shown = {
        d.key: f"{d.name} ({d.modifier:+d}{', ' + d.edge if d.edge else ''})"
        for d in c.tables.difficulty
    }
    label = "Difficulty class"
    return field(
        name, label, "select", group, choices=choices(shown), default="challenging", **more
    )


def codes(c: Catalogue, name: str = "characteristic", group: str = "", **more: Any) -> Field:
    shown = choices({code: f"{c.names.get(code, code)} ({code})" for code in CODES})
    return field(name, "Characteristic", "select", group, choices=shown, default="STR", **more)


def affinities(c: Catalogue, name: str = "affinity", group: str = "", skills: bool = True) -> Field:
    listed = {a.key: a.name for a in c.affinities.values() if a.kind == "skill" or not skills}
    shown = choices(listed, Choice("", "none: a characteristic check"))
    label = "Skill affinity" if skills else "Affinity"
    return field(name, label, "select", group, choices=shown, default="")


def numbers(c: Catalogue, prefix: str = "", group: str = "") -> tuple[Field, ...]:
    """A check from numbers: the final target, or a score with its bonus, rank and edges."""
    side = "Opposed: their " if prefix else ""
    return (
        number(prefix + "target", side + "final target", -MAX_SCORE, MAX_SCORE, group),
        number(prefix + "score", side + "characteristic score", 0, MAX_SCORE, group),
        number(prefix + "bonus", side + "ability bonus", 0, MAX_SCORE // 10, group),
        number(prefix + "rank", side + "rank", 1, 6, group),
        levels(c, prefix + "difficulty", group),
        switch(prefix + "advantage", side + "advantage", group),
        switch(prefix + "disadvantage", side + "disadvantage", group),
    )


def shared_fields(c: Catalogue) -> tuple[Field, ...]:
    """A helper, an opposed side and an extended check: any roll, raw or from a sheet."""
    assisted, opposed, extended = "Assisted check", "Opposed check", "Extended check"
    modes = (
        Choice("", "nobody"),
        Choice("advantage", "advantage"),
        Choice("proficiency", "their proficiency and rank"),
    )
    return (
        field("helper", "Helper (a character)", "sheet", assisted),
        field("assist.mode", "The helper lends", "select", assisted, choices=modes, default=""),
        field("assist.helper", "Helper's name (without a sheet)", "text", assisted),
        number("assist.rank", "Helper's rank (without a sheet)", 1, 6, assisted),
        *numbers(c, "opposed.", opposed),
        field("opposed.character", "Opposed: the other character", "sheet", opposed),
        codes(c, "opposed.characteristic", opposed),
        affinities(c, "opposed.affinity", opposed, skills=False),
        number("success_threshold", "Extended: success needed", 1, 10_000, extended),
        number("failure_threshold", "Extended: failure that ends it", 1, 10_000, extended),
        number("max_rolls", "Extended: rolls allowed", 1, MAX_ROLLS, extended),
        number("rolls", "Extended: turns to roll now", 1, MAX_ROLLS, extended, default=1),
        switch("until_done", "Extended: roll until it ends", extended),
    )


def situations_field(known: Mapping[str, str] | None = None) -> Field:
    shown = choices(known or {})
    return field(
        "situations", "Situations", "multiselect", choices=shown, default=(), flag="situation"
    )


def sheet_fields(c: Catalogue, char: Character | None = None) -> tuple[Field, ...]:
    """The choices of a roll from a sheet; with ``char``, its own labels and defaults."""
    penalty = "Untrained penalty (the item's)"
    fields = [
        codes(c, required=True),
        affinities(c),
        field("proficiency", "Proficiency check", "text", default=""),
        number("untrained_penalty", penalty, -MAX_PENALTY, 0, default=0),
        levels(c),
        number("rank", "Rank", 1, 6),
        switch("advantage", "Advantage"),
        switch("disadvantage", "Disadvantage"),
        situations_field(),
        switch("favour", "Spend favour (advantage)"),
    ]
    if char is not None:
        code, affinity, proficiency = fields[:3]
        notes = [
            "Fatigued: -1 applies." if char.fatigued else "",
            "Cursed: disadvantage on this roll." if char.cursed else "",
            "Unconscious: the check fails automatically." if not char.can_act else "",
        ]
        scores = tuple(Choice(x.value, f"{x.label} {char.score(x.value)}") for x in code.choices)
        fields[0] = replace(code, choices=scores, help=" ".join(n for n in notes if n))
        held = tuple(
            Choice(a.value, a.label + ("" if char.has_affinity(a.value, c) else " (not held)"))
            for a in affinity.choices[1:]
        )
        fields[1] = replace(affinity, choices=(*affinity.choices[:1], *held))
        fields[2] = replace(proficiency, help="Held: " + (", ".join(char.proficiencies) or "none"))
        fields[5] = replace(fields[5], default=char.rank)
        fields[8] = situations_field(char.situations(c))
        favour = "" if char.favour else f"{char.name} holds no favour now."
        fields[9] = replace(fields[9], help=favour)
    return (*fields, *shared_fields(c))
