"""Empty Reach characters: the one validation of a sheet, its edit form, rolling from it,
and what a push costs it (damage or stress, and gear points); and a roll's inputs, with a
sheet or without."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.rulesets.content import input_error
from rulebound.rulesets.contract import Choice, Field, Sheet, Sheets, SheetView, Variants
from rulebound.rulesets.empty_reach.character import (
    Character,
    gear_from_lines,
    load_character,
    request_for,
)
from rulebound.rulesets.empty_reach.check import CheckRequest, Defender, ExtraModifier, Options
from rulebound.rulesets.empty_reach.content import EmptyReachContent, SpecialtySpec
from rulebound.rulesets.empty_reach.flow import Played, settle
from rulebound.rulesets.empty_reach.rules import LADDER, MAX_HELPERS
from rulebound.rulesets.fields import choices, grouped, number, put, switch
from rulebound.rulesets.forms import MISSING, coerce, what

NO_SKILL = ""
DICE = choices(d.label for d in LADDER)
STATE = {"base_health": (1, 20), "base_resolve": (1, 20), "damage": (0, None), "stress": (0, None)}
"""Whole-number sheet fields and their bounds; a blank one is 0."""
GEAR = "Gear (one per line: Name bonus/max [tech], e.g. Crowbar 2/2, Drill 1/3 steamtech)"
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


class EmptyReachSheets(Sheets[CheckRequest, Played]):
    def __init__(self, content: EmptyReachContent) -> None:
        self.content = content
        skills = tuple(Choice(s.name, f"{s.name} ({s.attribute})") for s in content.skills.values())
        self.choice_fields = self._choices(skills, list(content.specialties.values()))

    def character(self, sheet: Mapping[str, Any]) -> Character:
        if not isinstance(sheet, Mapping):
            raise InvalidInput("sheet", sheet, "an Empty Reach character as a JSON object")
        return load_character(sheet, self.content)

    def validate(self, sheet: Mapping[str, Any]) -> Sheet:
        return self.character(sheet).model_dump(mode="json")

    def new(self, name: str) -> Sheet:
        attributes = {a.name: "D8" for a in self.content.attributes.values()}
        sheet = {"name": name, "attributes": attributes, "base_health": 4, "base_resolve": 4}
        return self.validate(sheet)

    def _form(self) -> list[Field]:
        skill_dice = (Choice(NO_SKILL, "-"), *DICE)
        attributes = [
            Field(f"attributes.{a.name}", a.name, "select", DICE)
            for a in self.content.attributes.values()
        ]
        skills = [
            Field(f"skills.{s.name}", f"{s.name} ({s.attribute})", "select", skill_dice)
            for s in self.content.skills.values()
        ]
        state = [number(k, k.replace("_", " ").title(), *bounds) for k, bounds in STATE.items()]
        return [
            Field("name", "Name", "text"),
            *grouped("Attributes", attributes),
            *grouped("Skills", skills),
            Field("specialties", "Specialties (comma separated; repeat Tough/Hardened)", "text"),
            *grouped("State", state),
            Field("gear", GEAR, "text", group="Gear", multiline=True),
        ]

    def view(self, sheet: Sheet) -> SheetView:
        held = self.character(sheet)
        values: dict[str, Any] = {"name": held.name, "specialties": ", ".join(held.specialties)}
        values |= {f"attributes.{k}": v.label for k, v in held.attributes.items()}
        values |= {f"skills.{s.name}": NO_SKILL for s in self.content.skills.values()}
        values |= {f"skills.{k}": v.label for k, v in held.skills.items()}
        values |= {name: getattr(held, name) for name in STATE}
        values["gear"] = "\n".join(
            f"{g.name} {g.bonus}/{g.max_bonus}" + (f" {g.tech}" if g.tech else "")
            for g in held.gear
        )
        tracks = [
            ("Health", f"{max(0, held.max_health - held.damage)} / {held.max_health}"),
            ("Resolve", f"{max(0, held.max_resolve - held.stress)} / {held.max_resolve}"),
            ("Broken", "yes" if held.broken else "no"),
        ]
        tracks += [
            (f"Gear {g.name}", "destroyed" if g.destroyed else f"{g.bonus} / {g.max_bonus}")
            for g in held.gear
        ]
        return SheetView(tuple(self._form()), values, tuple(tracks))

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """Apply the edit form; a blank skill is removed, a blank number is 0."""
        updated = {**sheet, **{g: dict(sheet.get(g) or {}) for g in ("attributes", "skills")}}
        problems: list[InvalidInput] = []
        for field in (f for f in self._form() if f.name in form):
            group, _, name = field.name.partition(".")
            try:
                value = coerce(field, form[field.name])
                if group == "attributes" and value is MISSING:
                    raise InvalidInput(field.name, form[field.name], what(field))
                if value is MISSING:
                    value = 0 if field.kind == "int" else ""
                if field.name == "gear":
                    value = gear_from_lines(value, sheet.get("gear", []))
            except InvalidInput as exc:
                problems.append(exc)
                continue
            if field.name == "specialties":
                value = [s.strip() for s in value.split(",") if s.strip()]
            blank = name and value == NO_SKILL  # a skill without a die: not on the sheet
            put(updated, (group, name) if name else group, None if blank else value)
        raise_all(problems)
        return self.validate(updated)

    def _choices(
        self,
        skills: tuple[Choice, ...],
        owned: Sequence[SpecialtySpec],
        gear: tuple[Choice, ...] = (),
        dialog: bool = False,
    ) -> tuple[Field, ...]:
        """The roll's inputs; in the dialog, with the sheet's skills, specialties and gear."""
        skill = replace(skill_field(skills), required=True)
        helpers, level, *others = modifier_fields(self.content)
        swaps = [
            Choice(s.name, f"{s.name}: {s.skill} with {s.attribute}")
            for s in owned
            if s.effect == "swap"
        ]
        by_group = situation_fields(self.content, owned) if dialog else ()
        return (
            replace(skill, default=skills[0].value) if dialog else skill,
            helpers,
            replace(level, default="average") if dialog else level,
            *others,
            *(by_group or [situations(self.content, owned)]),
            Field("swap", "Use another attribute", "select", (Choice("", "-"), *swaps), default=""),
            Field("gear", "Gear", "select", gear, default="", help="An item on the sheet."),
            PASSIVE,
            *OPPOSED,
        )

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        held = self.character(sheet)
        dice = {s.name: held.attributes[s.attribute].label for s in self.content.skills.values()}
        dice |= {k: f"{dice[k]} + {v.label}" for k, v in held.skills.items() if k in dice}
        skills = choices({name: f"{name} ({shown})" for name, shown in dice.items()})
        owned = [self.content.specialty(n) for n in dict.fromkeys(held.specialties)]
        usable = tuple(
            Choice(g.name, f"{g.name} (+{g.bonus})")
            for g in held.gear
            if g.bonus and not g.destroyed
        )
        return self._choices(skills, owned, (Choice("", "none"), *usable), dialog=True)

    def request(self, sheet: Sheet, values: Mapping[str, Any], variants: Variants) -> CheckRequest:
        held = self.character(sheet)
        chosen: dict[str, Any] = {k: values.get(k) or 0 for k in ("helpers", "difficulty")}
        chosen |= {k: values.get(k) or None for k in ("difficulty_level", "gear", "swap")}
        chosen["situations"] = values.get("situations") or ()
        if modifier := values.get("modifier"):
            chosen["modifiers"] = (ExtraModifier(source="other modifier", value=modifier),)
        if values.get("passive"):
            chosen["unpushable"] = "passive roll"
        try:
            chosen["opposed"] = Defender.of(values)
            return request_for(
                held, values["skill"], options=Options.of(variants), content=self.content, **chosen
            )
        except ValidationError as exc:
            raise input_error(exc) from None

    def settle(self, sheet: Sheet, result: Played) -> Sheet | None:
        """What the result leaves on the sheet (``flow.settle``): a push's costs, Second Wind's
        points, a repaired item."""
        after = settle(self.character(sheet), result)
        return None if after is None else after.model_dump(mode="json")
