"""The inputs of an Empty Reach roll, with a sheet or without, built from the content.

The same fields serve the CLI, the API, Discord and the web dialog; they need only the
content's names and numbers, so building them imports no sheet or roll code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulebound.rulesets.contract import Choice, Field
from rulebound.rulesets.empty_reach.content import EmptyReachContent, SpecialtySpec
from rulebound.rulesets.empty_reach.rules import LADDER, MAX_HELPERS
from rulebound.rulesets.fields import choices, grouped, number, switch

DICE = choices(d.label for d in LADDER)
GEAR_IN_USE = (
    "NAME:BONUS[:D8,D6...] (with the item's extra dice), or an item's name with --character."
)
OTHER_ATTRIBUTE = "Attribute, when not the skill's own"
PASSIVE = switch("passive", "Passive roll (cannot be pushed)")
OPPOSED = grouped(
    "Opposed roll",
    (
        Field("opposed_attribute", "Defender's attribute die", "select", (Choice("", "-"), *DICE)),
        Field("opposed_skill", "Defender's skill die", "select", (Choice("", "-"), *DICE)),
        number("opposed_helpers", "People helping the defender", 0, MAX_HELPERS),
    ),
)


def names(specs: Mapping[str, Any]) -> tuple[Choice, ...]:
    return choices(s.name for s in specs.values())


def skill_field(skills: tuple[Choice, ...]) -> Field:
    help = "The skill rolled (Force, Stealth...): it sets the attribute."
    return Field("skill", "Skill", "select", skills, flag="skill-name", help=help)


def modifier_fields(content: EmptyReachContent) -> tuple[Field, ...]:
    """Help, difficulty and the other rules modifiers: the same with a sheet or without."""
    levels = choices({d.key: f"{d.name} ({d.value:+d})" for d in content.difficulty.values()})
    return (
        number("helpers", "People helping", 0, MAX_HELPERS, default=0),
        Field("difficulty_level", "Difficulty", "select", levels),
        number("difficulty", "Difficulty modifier", -10, 10, default=0),
        number("modifier", "Other modifier from the rules", -10, 10, default=0),
    )


def raw_fields(content: EmptyReachContent) -> tuple[Field, ...]:
    """A roll without a sheet: the dice, the names that pick the rules, every modifier."""
    attributes, known = names(content.attributes), names(content.specialties)
    return (
        Field("attribute_die", "Attribute die", "select", DICE, required=True, flag="attribute"),
        Field("skill_die", "Skill die (none: the attribute alone)", "select", DICE, flag="skill"),
        skill_field(names(content.skills)),
        Field("attribute", OTHER_ATTRIBUTE, "select", attributes, flag="attribute-name"),
        *modifier_fields(content),
        situations(content, list(content.specialties.values())),
        Field("specialties", "Specialties the roller has", "multiselect", known, flag="specialty"),
        Field("gear", "Gear in use", "text", help=GEAR_IN_USE),
        PASSIVE,
        *OPPOSED,
    )


def situation_fields(content: EmptyReachContent, owned: Sequence[SpecialtySpec]) -> list[Field]:
    """The situational factors by group, then the +1 specialties that may apply."""
    groups: dict[str, list[Choice]] = {}
    skills: dict[str, set[str]] = {}
    every = {skill.name for skill in content.skills.values()}
    for s in content.situations.values():
        groups.setdefault(s.group, []).append(Choice(s.key, f"{s.name} ({s.value:+d})"))
        skills.setdefault(s.group, set()).update(s.skills or every)
    owned_skills = {k for s in owned if s.effect == "situational" for k in s.skills}
    skills["specialties"] = owned_skills or every
    groups["specialties"] = [
        Choice(s.toggle_key, f"{s.name}: +1 {'/'.join(s.skills)} when {s.situation}")
        for s in owned
        if s.effect == "situational"
    ]
    labels = {group: f"{group.title()} factors" for group in groups}
    labels["specialties"] = "Specialties that apply"
    return [
        Field(
            "situations",
            *(labels[g], "multiselect", tuple(c)),
            group=g,
            flag="situation",
            shown_for=("skill", tuple(sorted(skills[g]))),
        )
        for g, c in groups.items()
        if c
    ]


def situations(content: EmptyReachContent, owned: Sequence[SpecialtySpec]) -> Field:
    """Every situational factor (and specialty toggle) in one field, for the CLI and the API."""
    fields = situation_fields(content, owned)
    every = tuple(c for f in fields for c in f.choices)
    return replace(fields[0], label="Situational factors (and specialties)", choices=every)


def roll_inputs(
    content: EmptyReachContent,
    skills: tuple[Choice, ...],
    owned: Sequence[SpecialtySpec],
    gear: tuple[Choice, ...] = (),
    dialog: bool = False,
) -> tuple[Field, ...]:
    """A roll's inputs from a sheet: for any sheet (the CLI's options), or in the dialog with
    the sheet's own skills, specialties and gear."""
    skill = replace(skill_field(skills), required=True)
    helpers, level, *others = modifier_fields(content)
    swaps = [
        Choice(s.name, f"{s.name}: {s.skill} with {s.attribute}")
        for s in owned
        if s.effect == "swap"
    ]
    by_group = situation_fields(content, owned) if dialog else ()
    return (
        replace(skill, default=skills[0].value) if dialog else skill,
        helpers,
        replace(level, default="average") if dialog else level,
        *others,
        *(by_group or [situations(content, owned)]),
        Field("swap", "Use another attribute", "select", (Choice("", "-"), *swaps), default=""),
        Field("gear", "Gear", "select", gear, default="", help="An item on the sheet."),
        PASSIVE,
        *OPPOSED,
    )
