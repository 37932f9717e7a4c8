"""A Rainwall character sheet: trait scores, skill scores and skill bonuses, checked against
a catalogue (``load_character``).

A sheet may hold traits and skills of its own beside the catalogue's (a group's, made at the
table): a trait the catalogue lacks is the sheet's, and a skill the catalogue lacks names
its ``trait``, one of the sheet's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.core.keys import find_key
from rulebound.rulesets.content import input_error
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.content import Catalogue, builtin_catalogue
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Options

Score = Annotated[int, Field(ge=rules.MIN_SCORE, le=rules.MAX_SCORE, strict=True)]


Name = Annotated[str, Field(min_length=1, max_length=60)]


class CharacterSkill(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    score: Score
    bonus: Annotated[int, Field(ge=0, strict=True)] = 0
    trait: Name | None = None
    """The trait a skill of the sheet's own rolls (None: the catalogue's skill and trait)."""


class Character(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=80)]
    traits: dict[Name, Score]
    skills: dict[Name, CharacterSkill]

    def trait_of(self, skill: str, catalogue: Catalogue) -> str:
        """The trait a held skill rolls: its own, else the catalogue's."""
        entry = catalogue.skills.get(skill)
        own = self.skills[skill].trait
        return own if own is not None else entry.trait if entry is not None else ""

    def dump(self) -> dict[str, Any]:
        """The sheet as JSON: a catalogue skill's ``trait`` is left out (it is the catalogue's)."""
        return self.model_dump(mode="json", exclude_none=True)


def load_character(sheet: Mapping[str, Any], catalogue: Catalogue) -> Character:
    """A sheet checked against a catalogue: its shape, then its traits and skills, naming every
    bad field at once (a skill the table has not defined, or one whose trait the character
    lacks, fails when the file is loaded rather than at the first roll)."""
    if not isinstance(sheet, Mapping):
        raise InvalidInput("sheet", sheet, "a JSON object with name, traits and skills")
    try:
        found = Character.model_validate(catalogue.spelled(sheet))
    except ValidationError as exc:
        raise input_error(exc, root="sheet") from None
    problems: list[InvalidInput] = []
    skills = dict(found.skills)
    for skill, held in found.skills.items():
        entry = catalogue.skills.get(skill)
        own = None if held.trait is None else find_key(found.traits, held.trait) or held.trait
        if entry is None and own is None:
            known = ", ".join(sorted(catalogue.skills))
            expected = f"a known skill ({known}), or one of the sheet's own with its trait"
            problems.append(InvalidInput(f"skills.{skill}", skill, expected))
            continue
        if entry is not None and own is not None and own != entry.trait:
            expected = f"{entry.trait} (the trait {skill} rolls), or no trait"
            problems.append(InvalidInput(f"skills.{skill}.trait", held.trait, expected))
            continue
        trait = own if entry is None else entry.trait
        if trait not in found.traits:
            expected = f"a skill whose trait ({trait}) has a score"
            problems.append(InvalidInput(f"skills.{skill}", skill, expected))
        skills[skill] = held.model_copy(update={"trait": own if entry is None else None})
    raise_all(problems)
    return found.model_copy(update={"skills": skills})


def request_for(
    character: Character,
    skill: str,
    dr: int,
    options: Options | None = None,
    catalogue: Catalogue | None = None,
) -> RainwallRequest:
    """The check a character makes with one of its skills: trait dice, skill target, skill bonus."""
    catalogue = catalogue or builtin_catalogue()
    skill = catalogue.skill_name(skill) or find_key(character.skills, skill) or skill
    held = character.skills.get(skill)
    if held is None:
        held_now = ", ".join(character.skills) or "none yet (add one on the sheet)"
        raise InvalidInput("skill", skill, "one of the character's skills: " + held_now)
    if skill not in catalogue.skills and held.trait is None:
        raise InvalidInput(
            "skill", skill, "a skill the catalogue defines: " + ", ".join(catalogue.skills)
        )
    trait = character.trait_of(skill, catalogue)
    return RainwallRequest(
        dice=character.traits[trait],
        skill=held.score,
        dr=dr,
        bonus=held.bonus,
        options=options or Options(),
        trait_name=trait,
        skill_name=skill,
    )
