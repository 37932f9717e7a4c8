"""Specialties with their own procedures: Second Wind, and rolling twice (Killer, Lucky)."""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.empty_reach.character import Character, request_for
from rulebound.rulesets.empty_reach.check import prepare
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, roll_check


def _require(character: Character, effect: str) -> str:
    content = character.content
    for name in character.specialties:
        if content.specialty(name).effect == effect:
            return content.specialty(name).name
    raise RuleViolation("specialties", f"{character.name} has no specialty with effect {effect!r}")


def heal(character: Character, health: int = 0, resolve: int = 0) -> Character:
    """Remove damage and stress; leaving the broken state makes Second Wind usable again."""
    if health < 0 or resolve < 0:
        raise InvalidInput("heal", (health, resolve), "non-negative points")
    healed = character.model_copy(
        update={
            "damage": max(0, character.damage - health),
            "stress": max(0, character.stress - resolve),
        }
    )
    if not healed.broken:
        healed = healed.model_copy(update={"second_wind_used": False})
    return healed


@dataclass(frozen=True, slots=True)
class SecondWind:
    roll: EmptyReachResult
    health: int
    resolve: int


def second_wind(
    character: Character, source: RandomSource, to_health: int | None = None
) -> tuple[SecondWind, Character]:
    """An unpushable Stamina roll while broken; each success gives back Health or Resolve.

    ``to_health`` says how many of the successes go to Health; by default they go to
    whichever track is broken, Health first (see the rulings).
    """
    name = _require(character, "second-wind")
    if not character.broken:
        raise RuleViolation("Second Wind", f"{character.name} is not broken")
    if character.second_wind_used:
        raise RuleViolation("Second Wind", "already used while broken this time")
    request = request_for(character, "Stamina", unpushable=name)
    result = roll_check(prepare(request, character.content), source)
    points = result.successes
    if to_health is None:
        to_health = points if character.damage >= character.max_health else 0
    if not 0 <= to_health <= points:
        raise InvalidInput("to_health", to_health, f"0 to {points} (the successes rolled)")
    to_resolve = points - to_health
    healed = heal(character, to_health, to_resolve)
    if healed.broken:
        healed = healed.model_copy(update={"second_wind_used": True})
    return SecondWind(result, to_health, to_resolve), healed


@dataclass(frozen=True, slots=True)
class TwiceRolled:
    """Two rolls on a table; the player picks one."""

    specialty: str
    table: str
    faces: tuple[int, int]
    provenance: Provenance


def roll_twice(
    character: Character, specialty: str, sides: int, source: RandomSource
) -> TwiceRolled:
    """Killer and Lucky: roll the table's die twice and let the player choose.

    The critical injury tables are not in the text, so the caller names the die.
    """
    spec = character.content.specialty(specialty)
    if spec.effect != "roll-twice":
        raise InvalidInput("specialty", specialty, "a roll-twice specialty (Killer, Lucky)")
    if spec.name not in character.specialties:
        raise RuleViolation("specialties", f"{character.name} does not have {spec.name}")
    if not 2 <= sides <= 1000:
        raise InvalidInput("sides", sides, "a table die from 2 to 1000 sides")
    recorder = RecordingSource(source)
    faces = (recorder.draw(sides), recorder.draw(sides))
    return TwiceRolled(
        spec.name, spec.table or "", faces, Provenance.of(recorder.describe(), recorder.draws)
    )
