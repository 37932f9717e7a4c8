"""Rainwall characters: the one validation of a sheet, its edit form, and rolling from it.

The web table, the CLI's ``--character`` file and the library all validate a sheet
here (``character.load_character``), against the catalogue the game was loaded with
(homebrew included), and report every bad field at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.rulesets.contract import Field, Sheet, Sheets, SheetView, Variants
from rulebound.rulesets.fields import choices, grouped, number, put, switch
from rulebound.rulesets.forms import MISSING, coerce
from rulebound.rulesets.rainwall.character import Character, load_character, request_for
from rulebound.rulesets.rainwall.content import Catalogue
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import RainwallResult
from rulebound.rulesets.rainwall.rules import MAX_DR, MAX_SCORE, MIN_DR, MIN_SCORE, Options

DR = number("dr", "Difficulty Rating", MIN_DR, MAX_DR, required=True, help="Successes needed.")
WITHOUT_BONUS = (
    "Otherwise the + bonus points are spent for the most successes; "
    "you can reallocate them on the result card."
)
CHOICE_FIELDS = (
    Field("skill", "Skill", "select", required=True, help="One of the character's skills."),
    replace(DR, default=1),
    switch("without_bonus", "Leave the skill's bonus out", help=WITHOUT_BONUS),
)
TRAIT = "Dice to roll, 1 to 10; blank if the character lacks it. "
SKILL = "The target, 1 to 10; blank if the character lacks the skill. "
BONUS = "The skill's + bonus: points that lower dice after the roll."
STARTER = (MIN_SCORE + MAX_SCORE) // 2
"""A ready-made sheet's scores: the middle of the scale, to edit into the character's own."""
WHOLE = Field("", "", "int")
"""What every posted score and bonus is read as (named by its key)."""


class RainwallSheets(Sheets[RainwallRequest, RainwallResult]):
    choice_fields = CHOICE_FIELDS

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue

    def validate(self, sheet: Mapping[str, Any]) -> Sheet:
        return load_character(sheet, self.catalogue).model_dump(mode="json")

    def new(self, name: str) -> Sheet:
        traits = dict.fromkeys(self.catalogue.traits, MIN_SCORE)
        return self.validate({"name": name, "traits": traits, "skills": {}})

    def starter(self, name: str) -> Sheet:
        """Every trait and every skill at the scale's middle, so each skill rolls at once."""
        traits = dict.fromkeys(self.catalogue.traits, STARTER)
        skills = {skill: {"score": STARTER, "bonus": 0} for skill in self.catalogue.skills}
        return self.validate({"name": name, "traits": traits, "skills": skills})

    def view(self, sheet: Sheet) -> SheetView:
        held = load_character(sheet, self.catalogue)
        score = partial(number, low=MIN_SCORE, high=MAX_SCORE)
        traits = [
            score(f"traits.{t.name}", t.name, help=TRAIT + t.summary)
            for t in self.catalogue.traits.values()
        ]
        skills = [
            field
            for s in self.catalogue.skills.values()
            for field in (
                score(f"skills.{s.name}.score", f"{s.name} ({s.trait})", help=SKILL + s.summary),
                number(f"skills.{s.name}.bonus", f"{s.name} bonus", 0, help=BONUS),
            )
        ]
        fields = (
            Field("name", "Name", "text"),
            *grouped("Traits", traits),
            *grouped("Skills", skills),
        )
        values: dict[str, Any] = {"name": held.name}
        values |= {f"traits.{t}": held.traits.get(t) for t in self.catalogue.traits}
        for name in self.catalogue.skills:
            skill = held.skills.get(name)
            values[f"skills.{name}.score"] = skill.score if skill else None
            values[f"skills.{name}.bonus"] = skill.bonus if skill else 0
        tracks = tuple((name, self._pool(held, name)) for name in held.skills)
        return SheetView(fields, values, tracks)

    def _pool(self, held: Character, skill: str) -> str:
        entry = held.skills[skill]
        dice = held.traits[self.catalogue.skills[skill].trait]
        return f"{dice}d10 vs {entry.score}" + (f", +{entry.bonus}" if entry.bonus else "")

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """Apply the form: a blank trait or skill score removes it, a blank bonus is 0."""
        updated: dict[str, Any] = {**sheet, "traits": dict(sheet.get("traits") or {})}
        updated["skills"] = dict(sheet.get("skills") or {})
        if "name" in form:
            updated["name"] = str(form["name"] or "").strip()
        problems: list[InvalidInput] = []
        for key, raw in form.items():
            group, _, rest = key.partition(".")
            if group not in ("traits", "skills") or not rest:
                continue
            try:
                value = coerce(replace(WHOLE, name=key), raw)
            except InvalidInput as exc:
                problems.append(exc)
                continue
            skill, _, part = rest.rpartition(".")
            if group == "traits":
                put(updated, (group, rest), None if value is MISSING else value)
            elif part not in ("score", "bonus") or not skill:
                problems.append(InvalidInput(key, raw, "skills.<skill>.score or .bonus"))
            else:
                blank = 0 if part == "bonus" else None
                put(updated, (group, skill, part), blank if value is MISSING else value)
        raise_all(problems)
        # a bonus typed for a skill the character lacks is dropped with it
        updated["skills"] = {k: v for k, v in updated["skills"].items() if "score" in v}
        return self.validate(updated)

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        held = load_character(sheet, self.catalogue)
        pools = {n: f"{n}: {self._pool(held, n)}".replace(", +", ", bonus +") for n in held.skills}
        skill, dr, without = CHOICE_FIELDS
        none = "" if pools else "The character has no skills yet; add one on the sheet."
        own = replace(skill, choices=choices(pools), default=next(iter(pools), None), help=none)
        return own, dr, without

    def request(
        self, sheet: Sheet, values: Mapping[str, Any], variants: Variants
    ) -> RainwallRequest:
        held = load_character(sheet, self.catalogue)
        request = request_for(
            held, values["skill"], values["dr"], Options.from_mapping(variants), self.catalogue
        )
        if values.get("without_bonus"):
            request = replace(request, bonus=0)
        return request.checked()
