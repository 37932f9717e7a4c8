"""Empty Reach characters: the one validation of a sheet, its edit form, rolling from it,
and what a push costs it (damage or stress, and gear points)."""

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
    apply_push_costs,
    gear_from_lines,
    load_character,
    request_for,
)
from rulebound.rulesets.empty_reach.check import CheckRequest, ExtraModifier, Options
from rulebound.rulesets.empty_reach.content import EmptyReachContent, SpecialtySpec
from rulebound.rulesets.empty_reach.roll import EmptyReachResult
from rulebound.rulesets.empty_reach.rules import LADDER, MAX_HELPERS
from rulebound.rulesets.forms import MISSING, coerce, what

NO_SKILL = ""
DICE = tuple(Choice(d.label, d.label) for d in LADDER)
STATE = {"base_health": (1, 20), "base_resolve": (1, 20), "damage": (0, None), "stress": (0, None)}
"""Whole-number sheet fields and their bounds; a blank one is 0."""


def names(specs: Mapping[str, Any]) -> tuple[Choice, ...]:
    return tuple(Choice(s.name, s.name) for s in specs.values())


def skill_field(skills: tuple[Choice, ...]) -> Field:
    help = "The skill rolled (Force, Stealth...): it sets the attribute."
    return Field("skill", "Skill", "select", skills, flag="skill-name", help=help)


def modifier_fields(content: EmptyReachContent) -> tuple[Field, ...]:
    """Help, difficulty and the other rules modifiers: the same with a sheet or without."""
    levels = tuple(Choice(d.key, f"{d.name} ({d.value:+d})") for d in content.difficulty.values())
    return (
        Field("helpers", "People helping", "int", default=0, minimum=0, maximum=MAX_HELPERS),
        Field("difficulty_level", "Difficulty", "select", levels),
        Field("difficulty", "Difficulty modifier", "int", default=0, minimum=-10, maximum=10),
        Field(
            "modifier", "Other modifier from the rules", "int", default=0, minimum=-10, maximum=10
        ),
    )


def situation_fields(content: EmptyReachContent, owned: Sequence[SpecialtySpec]) -> list[Field]:
    """The situational factors by group, then the +1 specialties that may apply."""
    groups: dict[str, list[Choice]] = {}
    for s in content.situations.values():
        groups.setdefault(s.group, []).append(Choice(s.key, f"{s.name} ({s.value:+d})"))
    groups["specialties"] = [
        Choice(s.toggle_key, f"{s.name}: +1 {'/'.join(s.skills)} when {s.situation}")
        for s in owned
        if s.effect == "situational"
    ]
    labels = {group: f"{group.title()} factors" for group in groups}
    labels["specialties"] = "Specialties that apply"
    return [
        Field("situations", labels[g], "multiselect", tuple(c), group=g, flag="situation")
        for g, c in groups.items()
        if c
    ]


def situations(content: EmptyReachContent, owned: Sequence[SpecialtySpec]) -> Field:
    """Every situational factor (and specialty toggle) in one field, for the CLI and the API."""
    fields = situation_fields(content, owned)
    choices = tuple(c for f in fields for c in f.choices)
    return replace(fields[0], label="Situational factors (and specialties)", choices=choices)


class EmptyReachSheets(Sheets[CheckRequest, EmptyReachResult]):
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
        gear = "Gear (one per line: Name bonus/max, e.g. Crowbar 2/2)"
        return [
            Field("name", "Name", "text"),
            *(
                Field(f"attributes.{a.name}", a.name, "select", DICE, group="Attributes")
                for a in self.content.attributes.values()
            ),
            *(
                Field(
                    f"skills.{s.name}",
                    f"{s.name} ({s.attribute})",
                    "select",
                    skill_dice,
                    group="Skills",
                )
                for s in self.content.skills.values()
            ),
            Field("specialties", "Specialties (comma separated; repeat Tough/Hardened)", "text"),
            *(
                Field(
                    name,
                    name.replace("_", " ").title(),
                    "int",
                    minimum=low,
                    maximum=high,
                    group="State",
                )
                for name, (low, high) in STATE.items()
            ),
            Field("gear", gear, "text", group="Gear", multiline=True),
        ]

    def view(self, sheet: Sheet) -> SheetView:
        held = self.character(sheet)
        values: dict[str, Any] = {"name": held.name, "specialties": ", ".join(held.specialties)}
        values |= {f"attributes.{k}": v.label for k, v in held.attributes.items()}
        values |= {f"skills.{s.name}": NO_SKILL for s in self.content.skills.values()}
        values |= {f"skills.{k}": v.label for k, v in held.skills.items()}
        values |= {name: getattr(held, name) for name in STATE}
        values["gear"] = "\n".join(f"{g.name} {g.bonus}/{g.max_bonus}" for g in held.gear)
        tracks = [
            ("Health", f"{held.max_health - held.damage} / {held.max_health}"),
            ("Resolve", f"{held.max_resolve - held.stress} / {held.max_resolve}"),
            ("Broken", "yes" if held.broken else "no"),
        ]
        for g in held.gear:
            tracks.append(
                (f"Gear {g.name}", "destroyed" if g.destroyed else f"{g.bonus} / {g.max_bonus}")
            )
        return SheetView(tuple(self._form()), values, tuple(tracks))

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """Apply the edit form; a blank skill is removed, a blank number is 0."""
        updated: dict[str, Any] = dict(sheet)
        groups = {g: dict(sheet.get(g) or {}) for g in ("attributes", "skills")}
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
            else:
                if name and value == NO_SKILL:
                    groups[group].pop(name, None)
                elif name:
                    groups[group][name] = value
                elif field.name == "specialties":
                    updated[field.name] = [s.strip() for s in value.split(",") if s.strip()]
                else:
                    updated[field.name] = value
        raise_all(problems)
        return self.validate(updated | groups)

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
        grouped = situation_fields(self.content, owned) if dialog else ()
        return (
            replace(skill, default=skills[0].value) if dialog else skill,
            helpers,
            replace(level, default="average") if dialog else level,
            *others,
            *(grouped or [situations(self.content, owned)]),
            Field("swap", "Use another attribute", "select", (Choice("", "-"), *swaps), default=""),
            Field("gear", "Gear", "select", gear, default="", help="An item on the sheet."),
            Field("passive", "Passive roll (cannot be pushed)", "bool", default=False),
        )

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        held = self.character(sheet)
        skills = tuple(
            Choice(
                s.name,
                f"{s.name} ({held.attributes[s.attribute].label}"
                + (f" + {held.skills[s.name].label})" if s.name in held.skills else ")"),
            )
            for s in self.content.skills.values()
        )
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
            return request_for(
                held, values["skill"], options=Options.of(variants), content=self.content, **chosen
            )
        except ValidationError as exc:
            raise input_error(exc) from None

    def settle(self, sheet: Sheet, result: EmptyReachResult) -> Sheet | None:
        """A push's costs land on the sheet: damage or stress, and gear points lost."""
        if result.costs is None:
            return None
        return apply_push_costs(self.character(sheet), result).model_dump(mode="json")
