"""Ghostburn characters: the one validation of a sheet, its edit form, and rolling from it.

A roll from a sheet stores the sheet as it stood (less any item set aside) in its
request, so the card and a replay need nothing else. A luck spend adds the
current sheet's Luck Bonus (``follow_params``) and takes one Luck Point from it
(``settle``). Every bad field of a form or a sheet is reported at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulebound.core.errors import InvalidInput, problems_of, raise_all
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Choice, Field, Params, Sheet, Sheets, SheetView, Variants
from rulebound.rulesets.fields import grouped, number, put
from rulebound.rulesets.ghostburn.card import SPEND
from rulebound.rulesets.ghostburn.character import (
    ITEMS,
    MAX_LUCK_POINTS,
    Character,
    item_lines,
    items_from_lines,
    load_character,
)
from rulebound.rulesets.ghostburn.content import GhostburnContent, TrickKind
from rulebound.rulesets.ghostburn.luck import spend_character_luck
from rulebound.rulesets.ghostburn.request import Check, make_check, skill_total
from rulebound.rulesets.ghostburn.roll import GhostburnResult

CAP = DEFAULT_LIMITS.max_modifier
"""The sheet's bound on scores and bonuses (the character model's)."""
IMPROVISED = PRIMARY = ""
ITEM_KINDS = (("gear", "gear"), ("aug", "augs"))
"""(value prefix in ``set_aside``, list on the sheet)."""
NO_SCORE = "Blank if the character has no score in it."
CHOSEN = ("skill", "trick", "dl", "chart", "ability")
"""The dialog's choices a roll's request stores as they are (when given)."""
KNOWN = ("abilities.", "skills.")
"""Keys the edit form takes for any ability or skill of the content (``abilities.<key>``)."""
GROUPS = ("abilities", "skills")
TEXT = {  # a roll's inputs: (label, help)
    "skill": ("Skill", "A skill key; a trick sets its own."),
    "trick": ("Trick", "A trick sets its skill and DL; an improvised one needs a DL."),
    "dl": ("DL (improvised trick)", "A level ({}) or a number from 1 to 100."),
    "chart": ("Outcome chart (improvised trick)", "A trick uses its own chart."),
    "trait": ("Target's trait, as NAME=VALUE", "The trait a trick reads its DL from, repeatable."),
    "dl_shift": ("GM adjusts the DL (levels)", "A shift by whole levels of the ladder."),
    "ability": ("Ability (GM substitution)", "The ability the GM calls for instead."),
    "set_aside": ("Gear and augs not in use", "gear:NAME or aug:NAME; the rest stack."),
}


def _choices(table: Mapping[str, Any], *first: Choice) -> tuple[Choice, ...]:
    return (*first, *(Choice(key, spec.name) for key, spec in table.items()))


def _choice_fields(content: GhostburnContent) -> tuple[Field, ...]:
    """A roll from a sheet: every input, with the content's choices (the CLI's options)."""
    tricks = _choices(content.tricks, Choice(IMPROVISED, "Improvised trick (the GM sets the DL)"))
    charts = (Choice("", "default"), *(Choice(k, k) for k in content.charts if k != "default"))
    abilities = _choices(content.abilities, Choice(PRIMARY, "the skill's primary ability"))
    levels = content.ladder.describe()
    return (
        _input("skill", "select", _choices(content.skills)),
        _input("trick", "select", tricks, default=IMPROVISED),
        _input("dl", "text", help=TEXT["dl"][1].format(levels)),
        _input("chart", "select", charts),
        _input("trait", "multiselect", group="traits"),
        _input("dl_shift", "int", default=0),
        _input("ability", "select", abilities, default=PRIMARY),
        _input("set_aside", "multiselect", default=()),
    )


def _input(name: str, *args: Any, **more: Any) -> Field:
    label, text = TEXT[name]
    return Field(name, label, *args, **({"help": text} | more))


def _on_form(error: InvalidInput, form: Mapping[str, Any]) -> InvalidInput:
    """A sheet error for the edit form: ``gear.1.bonus`` is line 2 of the form's ``gear``."""
    kind, _, where = error.field.partition(".")
    if kind not in ("gear", "augs") or kind not in form:
        return error
    line, _, part = where.partition(".")
    place = f"line {int(line) + 1} {part}" if line.isdecimal() else where
    return InvalidInput(kind, error.value, f"{error.expected} ({place})")


class GhostburnSheets(Sheets[Check, GhostburnResult]):
    def __init__(self, content: GhostburnContent) -> None:
        self.content = content
        self.choice_fields = _choice_fields(content)

    def character(self, sheet: Mapping[str, Any]) -> Character:
        """Validate a sheet's shape, then its keys against the content, naming every bad field."""
        return load_character(sheet, self.content, "")

    def validate(self, sheet: Mapping[str, Any]) -> Sheet:
        return self.character(sheet).model_dump(mode="json")

    def new(self, name: str) -> Sheet:
        """Every ability at 0, no skills or items; Luck Points 0 and the smallest Luck Bonus
        (the rule text sizes neither, so the player sets both on the sheet)."""
        sheet = {"name": name, "abilities": dict.fromkeys(self.content.abilities, 0)}
        return self.validate(sheet | {"luck_points": 0, "luck_bonus": 1})

    def view(self, sheet: Sheet) -> SheetView:
        held, content = self.character(sheet), self.content
        dumped = held.model_dump(mode="json")
        fields = [Field("name", "Name", "text")]
        values: dict[str, Any] = {k: dumped[k] for k in ("name", "luck_points", "luck_bonus")}
        for key, a in content.abilities.items():
            box = number(f"abilities.{key}", a.name, -CAP, CAP, help=NO_SCORE, group="Abilities")
            fields.append(box)
            values[f"abilities.{key}"] = held.abilities.get(key)
        for key, s in content.skills.items():
            own = Choice(PRIMARY, f"{content.abilities[s.ability].name} (the skill's own)")
            entry, label = held.skills.get(key), f"{s.name} primary ability"
            pick = _choices(content.abilities, own)
            fields += grouped(
                "Skills",
                (
                    number(f"skills.{key}.bonus", f"{s.name} bonus", 0, CAP, help=s.summary),
                    Field(f"skills.{key}.ability", label, "select", pick, PRIMARY),
                ),
            )
            values[f"skills.{key}.bonus"] = entry.bonus if entry else None
            values[f"skills.{key}.ability"] = (entry.ability if entry else None) or PRIMARY
        signature = tuple(
            Choice(t.key, f"{t.name} ({content.skills[t.skill].name})")
            for t in content.tricks.values()
            if t.kind is TrickKind.SIGNATURE
        )
        for kind in ("gear", "augs"):
            label = f"{kind.capitalize()} (one per line: {ITEMS})"
            fields.append(Field(kind, label, "text", group="Gear and augs", multiline=True))
            values[kind] = item_lines(dumped[kind])
        fields += [
            Field("signature_tricks", "Signature tricks known", "multiselect", signature),
            number("luck_points", "Luck Points", 0, MAX_LUCK_POINTS, group="Luck", required=True),
            number("luck_bonus", "Luck Bonus (per point)", 1, CAP, group="Luck", required=True),
        ]
        values["signature_tricks"] = tuple(held.signature_tricks)
        tracks = (("Luck Points", str(held.luck_points)), ("Luck Bonus", f"+{held.luck_bonus}"))
        return SheetView(tuple(fields), values, (*tracks, *self._skill_totals(held)))

    def _skill_totals(self, held: Character) -> list[tuple[str, str]]:
        """Each skill's ability and its total bonus after stacking."""
        rows = []
        for key, skill in self.content.skills.items():
            total = skill_total(held, self.content, key)
            ability = self.content.abilities[held.primary_ability(key, self.content)].name
            shown = "no score on the sheet" if total is None else f"{total:+d}"
            rows.append((f"{skill.name} ({ability})", shown))
        return rows

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """Apply the view's form (a blank score or bonus removes it), then validate the sheet."""
        sheet = self.validate(sheet)
        view = {f.name: f for f in self.view(sheet).fields}
        strays = [k.split(".", 1) for k in form if k not in view and k.startswith(KNOWN)]
        known = {g: "one of " + ", ".join(sorted(getattr(self.content, g))) for g in GROUPS}
        raise_all([InvalidInput(group, rest, known[group]) for group, rest in strays])
        posted = [field for name, field in view.items() if name in form]
        values = forms.read(posted, form, defaults=False)
        updated: dict[str, Any] = dict(sheet)
        for field in posted:
            value = values.get(field.name)
            if field.name in ("gear", "augs"):
                value = items_from_lines(value or "", field.name, self.content)
            elif "." not in field.name and value is None:
                value = ""
            put(updated, field.name, value)  # a blank score, bonus or override: none
        updated["skills"] = {  # no bonus and no override is the same as no entry (G2)
            skill: {k: v for k, v in entry.items() if v is not None}
            for skill, entry in updated["skills"].items()
            if entry.get("bonus") is not None or entry.get("ability")
        }
        try:
            return self.validate(updated)
        except InvalidInput as exc:
            raise_all([_on_form(problem, form) for problem in problems_of(exc)])
            raise

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        """The choice fields with this sheet's own choices: its scores, the tricks it knows."""
        held, content = self.character(sheet), self.content
        skill, trick, dl, chart, pair, shift, ability, aside = self.choice_fields
        skills = []
        for key, s in content.skills.items():
            primary = held.primary_ability(key, content)
            score = held.abilities.get(primary)
            shown = f"{score:+d}" if score is not None else "not on the sheet"
            bonus = f", skill {held.skill_bonus(key):+d}" if key in held.skills else ""
            label = f"{s.name} ({content.abilities[primary].name} {shown}{bonus})"
            skills.append(Choice(key, label))
        tricks = [trick.choices[0]]
        for t in content.tricks.values():
            if t.kind is TrickKind.CORE or t.key in held.signature_tricks:
                where = f"{content.skills[t.skill].name}, {t.kind.value}, DL {content.dl_text(t)}"
                tricks.append(Choice(t.key, f"{t.name} ({where})"))
        improvised = ("trick", (IMPROVISED,))  # a trick sets its own skill and DL
        fields = [replace(skill, choices=tuple(skills), shown_for=improvised)]
        fields += [replace(trick, choices=tuple(tricks)), replace(dl, shown_for=improvised)]
        fields.append(chart)
        for trait in dict.fromkeys(t.dl_trait for t in content.tricks.values() if t.dl_trait):
            readers = ", ".join(t.name for t in content.tricks.values() if t.dl_trait == trait)
            text = f"A level name or a number; {readers} read their DL from it."
            box = Field(f"traits.{trait}", f"Target's {trait}", "text", help=text, group="traits")
            fields.append(box)
        steps = len(content.ladder.levels) - 1
        fields += [pair, replace(shift, minimum=-steps, maximum=steps), ability]
        items = tuple(
            Choice(f"{prefix}:{i.name}", f"{i.name} ({prefix} {i.bonus:+d}, {i.skill})")
            for prefix, kind in ITEM_KINDS
            for i in (held.gear if kind == "gear" else held.augs)
        )
        return (*fields, replace(aside, choices=items)) if items else tuple(fields)

    def dialog_values(self, sheet: Sheet) -> dict[str, Any]:
        """The dialog opens on an improvised roll of the first skill at the ladder's second
        (moderate) level, so it shows odds at once."""
        levels, skills = self.content.ladder.levels, list(self.content.skills)
        opened = super().dialog_values(sheet)
        opened |= {"skill": skills[0]} if skills else {}
        return opened | ({"dl": levels[min(1, len(levels) - 1)].name} if levels else {})

    def request(self, sheet: Sheet, values: Mapping[str, Any], variants: Variants) -> Check:
        """The check this sheet makes with the ``dialog`` values."""
        dumped = self.validate(sheet)
        aside = sorted(set(values.get("set_aside") or ()))
        known = {f"{prefix}:{i['name']}" for prefix, kind in ITEM_KINDS for i in dumped[kind]}
        expected = "items on the sheet: " + (", ".join(sorted(known)) or "none")
        raise_all([InvalidInput("set_aside", i, expected) for i in aside if i not in known])
        for prefix, kind in ITEM_KINDS:
            dumped[kind] = [i for i in dumped[kind] if f"{prefix}:{i['name']}" not in aside]
        payload: dict[str, Any] = {"character": dumped, "dl_shift": values.get("dl_shift") or 0}
        payload |= {k: values[k] for k in CHOSEN if values.get(k)}
        spec = self.content.tricks.get(payload.get("trick", ""))
        if spec is not None and spec.dl_trait is not None:
            # only the trait this trick reads: a box of the dialog, or --trait NAME=VALUE
            given = dict(forms.pairs("trait", values.get("trait")))
            value = values.get(f"traits.{spec.dl_trait}") or given.get(spec.dl_trait)
            payload |= {"traits": {spec.dl_trait: value}} if value else {}
        return make_check({**payload, "variants": dict(variants)}, self.content, aside)

    def follow_params(
        self, sheet: Sheet, result: GhostburnResult, action: str, params: Params
    ) -> Params:
        """A luck spend adds the sheet's own Luck Bonus; the roller must have a point left."""
        if action != SPEND:
            return params
        held = self.character(sheet)
        spend_character_luck(result, held)  # the roller's own sheet, with a point left
        return {**params, "bonus": held.luck_bonus}

    def settle(self, sheet: Sheet, result: GhostburnResult) -> Sheet | None:
        """One Luck Point fewer once the roll's Luck Bonus is spent; a roll changes nothing."""
        if result.luck is None or result.parent is None or result.parent.luck is not None:
            return None
        held = self.character(sheet)
        return held.with_luck_points(held.luck_points - 1).model_dump(mode="json")
