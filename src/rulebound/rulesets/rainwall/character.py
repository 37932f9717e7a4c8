"""A Rainwall character sheet: trait scores, skill scores and skill bonuses.

A sheet is checked against a catalogue, so a skill the table has not defined,
or one whose trait the character lacks, fails when the file is loaded rather
than at the first roll.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebound.core.errors import ContentError, InvalidInput
from rulebound.rulesets.content import describe_validation_error
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


def character_from_data(
    data: Mapping[str, Any], source: str = "character", catalogue: Catalogue | None = None
) -> Character:
    """Validate a sheet's shape, then its skills against the catalogue."""
    catalogue = catalogue or builtin_catalogue()
    try:
        character = Character.model_validate(data)
    except ValidationError as exc:
        raise ContentError(source, describe_validation_error(exc)) from None
    for trait in character.traits:
        if trait not in catalogue.traits:
            known = ", ".join(sorted(catalogue.traits))
            raise ContentError(
                source, f"traits.{trait}: not a known trait; expected one of {known}"
            )
    for skill in character.skills:
        entry = catalogue.skills.get(skill)
        if entry is None:
            known = ", ".join(sorted(catalogue.skills))
            raise ContentError(
                source, f"skills.{skill}: not a known skill; expected one of {known}"
            )
        if entry.trait not in character.traits:
            raise ContentError(source, f"skills.{skill}: needs a {entry.trait} score in traits")
    return character


def load_character(path: Path, catalogue: Catalogue | None = None) -> Character:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ContentError(str(path), f"cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ContentError(str(path), f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ContentError(str(path), "expected a JSON object")
    return character_from_data(data, str(path), catalogue)


def request_for(
    character: Character,
    skill: str,
    dr: int,
    options: Options | None = None,
    catalogue: Catalogue | None = None,
) -> RainwallRequest:
    """The check a character makes with one of its skills: trait dice, skill target, skill bonus."""
    catalogue = catalogue or builtin_catalogue()
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
