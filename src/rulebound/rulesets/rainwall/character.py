"""A Rainwall character sheet: trait scores, skill scores and skill bonuses, checked against
a catalogue (``load_character``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.rulesets.content import input_error
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.content import Catalogue, builtin_catalogue
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Options

Score = Annotated[int, Field(ge=rules.MIN_SCORE, le=rules.MAX_SCORE, strict=True)]


class CharacterSkill(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    score: Score
    bonus: Annotated[int, Field(ge=0, strict=True)] = 0


class Character(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=80)]
    traits: dict[str, Score]
    skills: dict[str, CharacterSkill]


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
    for trait in found.traits:
        if trait not in catalogue.traits:
            known = ", ".join(sorted(catalogue.traits))
            problems.append(InvalidInput(f"traits.{trait}", trait, f"a known trait: {known}"))
    for skill in found.skills:
        entry = catalogue.skills.get(skill)
        if entry is None:
            known = ", ".join(sorted(catalogue.skills))
            problems.append(InvalidInput(f"skills.{skill}", skill, f"a known skill: {known}"))
        elif entry.trait not in found.traits:
            expected = f"a skill whose trait ({entry.trait}) has a score"
            problems.append(InvalidInput(f"skills.{skill}", skill, expected))
    raise_all(problems)
    return found


def request_for(
    character: Character,
    skill: str,
    dr: int,
    options: Options | None = None,
    catalogue: Catalogue | None = None,
) -> RainwallRequest:
    """The check a character makes with one of its skills: trait dice, skill target, skill bonus."""
    catalogue = catalogue or builtin_catalogue()
    skill = catalogue.skill_name(skill) or skill
    held = character.skills.get(skill)
    if held is None:
        raise InvalidInput(
            "skill", skill, "one of the character's skills: " + ", ".join(character.skills)
        )
    entry = catalogue.skills.get(skill)
    if entry is None:
        raise InvalidInput(
            "skill", skill, "a skill the catalogue defines: " + ", ".join(catalogue.skills)
        )
    trait = entry.trait
    return RainwallRequest(
        dice=character.traits[trait],
        skill=held.score,
        dr=dr,
        bonus=held.bonus,
        options=options or Options(),
        trait_name=trait,
        skill_name=skill,
    )
