"""Empty Reach characters: the one validation of a sheet, its edit form, rolling from it,
and what a push costs it (damage or stress, and gear points). A roll's inputs are built in
``inputs``; the sheet's and the roll's modules are imported when a sheet is first used, so
the game's fields and the CLI's options cost no more than the content."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.rulesets.contract import Choice, Field, Sheet, Sheets, Variants
from rulebound.rulesets.empty_reach.check import CheckRequest, Defender, ExtraModifier, Options
from rulebound.rulesets.empty_reach.inputs import DICE, raw_fields, roll_inputs
from rulebound.rulesets.fields import choices, grouped, number, put
from rulebound.rulesets.forms import MISSING, coerce, what

if TYPE_CHECKING:
    from rulebound.rulesets.contract import SheetView
    from rulebound.rulesets.empty_reach.character import Character
    from rulebound.rulesets.empty_reach.content import EmptyReachContent
    from rulebound.rulesets.empty_reach.flow import Played

__all__ = ["EmptyReachSheets", "raw_fields"]

NO_SKILL = ""
STATE = {"base_health": (1, 20), "base_resolve": (1, 20), "damage": (0, None), "stress": (0, None)}
"""Whole-number sheet fields and their bounds; a blank one is 0."""
GEAR = "Gear (one per line: Name bonus/max [tech], e.g. Crowbar 2/2, Drill 1/3 steamtech)"


class EmptyReachSheets(Sheets[CheckRequest, "Played"]):
    def __init__(self, content: EmptyReachContent) -> None:
        self.content = content
        skills = tuple(Choice(s.name, f"{s.name} ({s.attribute})") for s in content.skills.values())
        self.choice_fields = roll_inputs(content, skills, list(content.specialties.values()))

    def character(self, sheet: Mapping[str, Any]) -> Character:
        from rulebound.rulesets.empty_reach.character import load_character

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
        from rulebound.rulesets.views import SheetView

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
                    from rulebound.rulesets.empty_reach.character import gear_from_lines

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
        return roll_inputs(self.content, skills, owned, (Choice("", "none"), *usable), dialog=True)

    def request(self, sheet: Sheet, values: Mapping[str, Any], variants: Variants) -> CheckRequest:
        from pydantic import ValidationError

        from rulebound.rulesets.content import input_error
        from rulebound.rulesets.empty_reach.character import request_for

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
        from rulebound.rulesets.empty_reach.flow import settle

        after = settle(self.character(sheet), result)
        return None if after is None else after.model_dump(mode="json")
