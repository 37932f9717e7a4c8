"""A Rainwall character sheet: trait scores, skill scores and skill bonuses.

A sheet is checked against a catalogue (``sheets.character``), so a skill the
table has not defined, or one whose trait the character lacks, fails when the
file is loaded rather than at the first roll.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from rulebound.core.errors import InvalidInput
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
