"""Rainwall characters: the one validation of a sheet, its edit form, and rolling from it.

The web table, the CLI's ``--character`` file and the library all validate a sheet
here (``character.load_character``), against the catalogue the game was loaded with
(homebrew included), and report every bad field at once. The edit form adds traits and
skills of the group's own (``add_trait``, ``add_skill``: one per line), so a table makes
its characters without writing a content file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.rulesets.contract import Field, Sheet, Sheets, SheetView, Variants
from rulebound.rulesets.fields import choices, grouped, number, put, switch
from rulebound.rulesets.forms import MISSING, coerce
from rulebound.rulesets.rainwall.character import Character, load_character, request_for
from rulebound.rulesets.rainwall.content import Catalogue, SkillEntry, TraitEntry
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
ADDING = "Add to the sheet"
ADD_TRAIT = Field(
    "add_trait",
    "Add traits",
    "text",
    default="",
    group=ADDING,
    multiline=True,
    help="One per line: a name and its score (dice), e.g. Strength 6.",
)
ADD_SKILL = Field(
    "add_skill",
    "Add skills",
    "text",
    default="",
    group=ADDING,
    multiline=True,
    help="One per line: a name, its trait in brackets, its score and any + bonus, e.g. "
    "Climbing (Strength) 5 +1. A listed skill needs no trait: Lockpicking 5.",
)
TRAIT_LINE = re.compile(r"(?P<name>[^()]*?)\s+(?P<score>\d+)")
SKILL_LINE = re.compile(
    r"(?P<name>[^()]*?)\s*(?:\((?P<trait>[^()]*)\))?\s+(?P<score>\d+)(?:\s*\+\s*(?P<bonus>\d+))?"
)
SCORES = f"a score from {MIN_SCORE} to {MAX_SCORE}"


class RainwallSheets(Sheets[RainwallRequest, RainwallResult]):
    choice_fields = CHOICE_FIELDS

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue

    def validate(self, sheet: Mapping[str, Any]) -> Sheet:
        return load_character(sheet, self.catalogue).dump()

    def new(self, name: str) -> Sheet:
        """The text's traits (not the examples) at their lowest, no skills yet."""
        own = [t.name for t in self.catalogue.traits.values() if not t.example]
        return self.validate({"name": name, "traits": dict.fromkeys(own, MIN_SCORE), "skills": {}})

    def starter(self, name: str) -> Sheet:
        """Every trait and every skill, the examples included, at the scale's middle, so
        each skill rolls at once."""
        traits = dict.fromkeys(self.catalogue.traits, STARTER)
        skills = {skill: {"score": STARTER, "bonus": 0} for skill in self.catalogue.skills}
        return self.validate({"name": name, "traits": traits, "skills": skills})

    def view(self, sheet: Sheet) -> SheetView:
        held = load_character(sheet, self.catalogue)
        score = partial(number, low=MIN_SCORE, high=MAX_SCORE)
        traits = [
            score(f"traits.{name}", _named(name, entry), help=TRAIT + _about(entry))
            for name, entry in self._traits(held).items()
        ]
        skills = [
            field
            for name, trait, entry in self._skills(held)
            for field in (
                score(
                    f"skills.{name}.score",
                    f"{_named(name, entry)} ({trait})",
                    help=SKILL + _about(entry),
                ),
                number(f"skills.{name}.bonus", f"{name} bonus", 0, help=BONUS),
            )
        ]
        fields = (
            Field("name", "Name", "text"),
            *grouped("Traits", traits),
            *grouped("Skills", skills),
            ADD_TRAIT,
            ADD_SKILL,
        )
        values: dict[str, Any] = {"name": held.name, ADD_TRAIT.name: "", ADD_SKILL.name: ""}
        values |= {f"traits.{t}": held.traits.get(t) for t in self._traits(held)}
        for name, _, _ in self._skills(held):
            skill = held.skills.get(name)
            values[f"skills.{name}.score"] = skill.score if skill else None
            values[f"skills.{name}.bonus"] = skill.bonus if skill else None
        tracks = tuple((name, self._pool(held, name)) for name in held.skills)
        return SheetView(fields, values, tracks)

    def _traits(self, held: Character) -> dict[str, TraitEntry | None]:
        """The catalogue's traits, then the sheet's own (no entry)."""
        own: dict[str, TraitEntry | None] = dict.fromkeys(held.traits)
        return {
            **self.catalogue.traits,
            **{t: e for t, e in own.items() if t not in self.catalogue.traits},
        }

    def _skills(self, held: Character) -> list[tuple[str, str, SkillEntry | None]]:
        """(name, trait, catalogue entry): the catalogue's skills, then the sheet's own."""
        listed: list[tuple[str, str, SkillEntry | None]] = [
            (s.name, s.trait, s) for s in self.catalogue.skills.values()
        ]
        own = [(n, s.trait, None) for n, s in held.skills.items() if s.trait is not None]
        return listed + [(n, t or "", e) for n, t, e in own]

    def _pool(self, held: Character, skill: str) -> str:
        entry = held.skills[skill]
        dice = held.traits[held.trait_of(skill, self.catalogue)]
        return f"{dice}d10 vs {entry.score}" + (f", +{entry.bonus}" if entry.bonus else "")

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """Apply the form: a blank trait or skill score removes it, a blank bonus is 0; the
        add fields add traits and skills, the group's own or listed ones."""
        updated: dict[str, Any] = {**sheet, "traits": dict(sheet.get("traits") or {})}
        updated["skills"] = {k: dict(v) for k, v in (sheet.get("skills") or {}).items()}
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
                if value is not MISSING and not self._known(updated, group, rest):
                    problems.append(_unknown(group, rest, raw))
                    continue
                put(updated, (group, rest), None if value is MISSING else value)
            elif part not in ("score", "bonus") or not skill:
                problems.append(InvalidInput(key, raw, "skills.<skill>.score or .bonus"))
            elif value is not MISSING and not self._known(updated, group, skill):
                problems.append(_unknown(group, skill, raw))
            else:
                blank = 0 if part == "bonus" else None
                put(updated, (group, skill, part), blank if value is MISSING else value)
        problems += self._added(updated, form)
        raise_all(problems)
        # a bonus typed for a skill the character lacks is dropped with it
        updated["skills"] = {k: v for k, v in updated["skills"].items() if "score" in v}
        return self.validate(updated)

    def _known(self, sheet: Mapping[str, Any], group: str, name: str) -> bool:
        """On the sheet already, or listed (the edit form's own score fields)."""
        listed = self.catalogue.traits if group == "traits" else self.catalogue.skills
        return name in sheet[group] or name in listed

    def _added(self, sheet: dict[str, Any], form: Mapping[str, Any]) -> list[InvalidInput]:
        """The ``add_trait`` and ``add_skill`` lines, put on ``sheet``; each bad line named."""
        problems: list[InvalidInput] = []
        for line in _lines(form.get(ADD_TRAIT.name)):
            found = TRAIT_LINE.fullmatch(line)
            if not found or not MIN_SCORE <= int(found["score"]) <= MAX_SCORE:
                problems.append(InvalidInput(ADD_TRAIT.name, line, f"a name and {SCORES}"))
                continue
            name = self.catalogue.trait_name(found["name"]) or found["name"]
            if name in sheet["traits"]:
                problems.append(InvalidInput(ADD_TRAIT.name, line, "a trait not on the sheet"))
            else:
                sheet["traits"][name] = int(found["score"])
        for line in _lines(form.get(ADD_SKILL.name)):
            problem = self._add_skill(sheet, line)
            if problem is not None:
                problems.append(problem)
        return problems

    def _add_skill(self, sheet: dict[str, Any], line: str) -> InvalidInput | None:
        found = SKILL_LINE.fullmatch(line)
        shape = f"NAME (TRAIT) SCORE [+BONUS] with {SCORES}"
        if not found or not found["name"] or not MIN_SCORE <= int(found["score"]) <= MAX_SCORE:
            return InvalidInput(ADD_SKILL.name, line, f"{shape}: Climbing (Strength) 5 +1")
        name = self.catalogue.skill_name(found["name"]) or found["name"]
        entry, trait = self.catalogue.skills.get(name), (found["trait"] or "").strip()
        if name in sheet["skills"]:
            return InvalidInput(ADD_SKILL.name, line, "a skill not on the sheet")
        if entry is None and not trait:
            return InvalidInput(ADD_SKILL.name, line, f"{shape}: a new skill names its trait")
        named = (self.catalogue.trait_name(trait) or trait) if trait else ""
        if entry is not None and named and named != entry.trait:
            return InvalidInput(ADD_SKILL.name, line, f"{name} with its own trait, {entry.trait}")
        added: dict[str, Any] = {"score": int(found["score"]), "bonus": int(found["bonus"] or 0)}
        sheet["skills"][name] = added | ({"trait": named} if entry is None else {})
        return None

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        held = load_character(sheet, self.catalogue)
        pools = {n: self._choice(held, n) for n in held.skills}
        skill, dr, without = CHOICE_FIELDS
        none = "" if pools else "The character has no skills yet; add one on the sheet."
        own = replace(skill, choices=choices(pools), default=next(iter(pools), None), help=none)
        return own, dr, without

    def _choice(self, held: Character, skill: str) -> str:
        entry = self.catalogue.skills.get(skill)
        shown = f"{skill}: {self._pool(held, skill)}".replace(", +", ", bonus +")
        return shown + (" (example)" if entry is not None and entry.example else "")

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


def _lines(raw: Any) -> list[str]:
    """A text field's lines (the CLI gives a repeated option as a list), blank ones left out."""
    given = raw if isinstance(raw, list | tuple) else [raw]
    return [line.strip() for item in given for line in str(item or "").splitlines() if line.strip()]


def _named(name: str, entry: TraitEntry | SkillEntry | None) -> str:
    return f"{name}, example" if entry is not None and entry.example else name


def _about(entry: TraitEntry | SkillEntry | None) -> str:
    return entry.summary if entry is not None else "The sheet's own."


def _unknown(group: str, name: str, raw: Any) -> InvalidInput:
    expected = f"a {group[:-1]} on the sheet or listed; add a new one with 'Add {group}'"
    return InvalidInput(f"{group}.{name}", raw, expected)
