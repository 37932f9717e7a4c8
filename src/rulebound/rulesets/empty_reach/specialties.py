"""Specialties with their own procedures: Second Wind, and rolling twice (Killer, Lucky)."""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.empty_reach.character import Character, request_for
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    Options,
    PreparedCheck,
    Tracks,
    prepare,
)
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, roll_check


def _require(character: Character, effect: str) -> str:
    content = character.content
    for name in character.specialties:
        if content.specialty(name).effect == effect:
            return content.specialty(name).name
    raise RuleViolation("specialties", f"{character.name} has no specialty with effect {effect!r}")


def heal(character: Character, health: int = 0, resolve: int = 0) -> Character:
    """Give back points of Health and Resolve (neither rises above its maximum, and damage
    past the maximum counts as Health 0); leaving the broken state makes Second Wind usable
    again."""
    if health < 0 or resolve < 0:
        raise InvalidInput("heal", (health, resolve), "non-negative points")
    healed = character.model_copy(
        update={
            "damage": max(0, min(character.damage, character.max_health) - health),
            "stress": max(0, min(character.stress, character.max_resolve) - resolve),
        }
    )
    if not healed.broken:
        healed = healed.model_copy(update={"second_wind_used": False})
    return healed


# --- Second Wind ------------------------------------------------------------------------


def second_wind_request(character: Character, options: Options | None = None) -> CheckRequest:
    """The unpushable Stamina roll, allowed once while broken; it carries the tracks as they
    stand, so the split of its successes is judged against them."""
    name = _require(character, "second-wind")
    if not character.broken:
        raise RuleViolation("Second Wind", f"{character.name} is not broken")
    if character.second_wind_used:
        raise RuleViolation("Second Wind", "already used while broken this time")
    return request_for(
        character, "Stamina", unpushable=name, second_wind=character.tracks, options=options
    )


def second_wind(character: Character, source: RandomSource) -> EmptyReachResult:
    """Roll Second Wind; ``share`` (or the card's split) then gives its successes back."""
    return roll_check(prepare(second_wind_request(character), character.content), source)


def _tracks(roll: EmptyReachResult) -> Tracks:
    tracks = roll.check.request.second_wind
    if tracks is None:
        raise InvalidInput("roll", roll.check.request.skill, "a Second Wind roll")
    return tracks


def split_range(roll: EmptyReachResult) -> tuple[int, int]:
    """The fewest and the most successes that may go to Health.

    Each success gives back a point of Health or Resolve, and none goes where it restores
    nothing while the other track could use it: Health takes at most what it lacks, and at
    least what Resolve cannot take.
    """
    health, resolve = _tracks(roll).missing
    points = roll.successes
    return max(0, min(points, health + resolve) - resolve), min(points, health)


def default_split(roll: EmptyReachResult) -> int:
    """Health first, unless only Resolve is broken (the player may choose otherwise)."""
    tracks, (fewest, most) = _tracks(roll), split_range(roll)
    only_resolve = tracks.damage < tracks.max_health and tracks.stress >= tracks.max_resolve
    return fewest if only_resolve else most


@dataclass(frozen=True, slots=True)
class SecondWindSplit:
    """How a Second Wind roll's successes were shared; ``parent`` is the roll."""

    parent: EmptyReachResult
    to_health: int

    @property
    def check(self) -> PreparedCheck:
        return self.parent.check

    @property
    def provenance(self) -> Provenance:
        return self.parent.provenance

    @property
    def restored(self) -> tuple[int, int]:
        """(Health, Resolve) given back; successes past both tracks restore nothing."""
        _, resolve = _tracks(self.parent).missing
        return self.to_health, min(self.parent.successes - self.to_health, resolve)

    def describe(self) -> str:
        health, resolve = self.restored
        text = f"+{health} Health, +{resolve} Resolve"
        idle = self.parent.successes - health - resolve
        return text + (f" ({idle} more success(es) had nothing to restore)" if idle else "")


def split(roll: EmptyReachResult, to_health: int | None = None) -> SecondWindSplit:
    """Share the successes: ``to_health`` of them to Health, the rest to Resolve."""
    fewest, most = split_range(roll)
    chosen = default_split(roll) if to_health is None else to_health
    if not fewest <= chosen <= most:
        expected = f"{fewest} to {most}: no success may go where it restores nothing"
        raise InvalidInput("to_health", chosen, expected)
    return SecondWindSplit(roll, chosen)


def needs_choice(roll: EmptyReachResult) -> bool:
    fewest, most = split_range(roll)
    return fewest < most


def restore(character: Character, shared: SecondWindSplit) -> Character:
    """The sheet after the split; Second Wind stays used while the character is broken."""
    healed = heal(character, *shared.restored)
    return healed.model_copy(update={"second_wind_used": healed.broken})


def share(
    character: Character, roll: EmptyReachResult, to_health: int | None = None
) -> tuple[SecondWindSplit, Character]:
    """The split and the sheet after it, together."""
    shared = split(roll, to_health)
    return shared, restore(character, shared)


@dataclass(frozen=True, slots=True)
class TwiceRolled:
    """Two results on a table; the player keeps one. ``rolled_before``: the first was rolled
    already (an attacker's Killer pick) and only the second is drawn here."""

    specialty: str
    table: str
    faces: tuple[int, int]
    provenance: Provenance
    sides: int = 0
    rolled_before: bool = False


MAX_TABLE_SIDES = 1000


def draw_twice(
    sides: int, source: RandomSource, first: int | None = None
) -> tuple[tuple[int, int], Provenance]:
    """Two results of a d``sides``: both drawn, or ``first`` (rolled already) and one more."""
    if not 2 <= sides <= MAX_TABLE_SIDES:
        raise InvalidInput("sides", sides, f"a table die from 2 to {MAX_TABLE_SIDES} sides")
    if first is not None and not 1 <= first <= sides:
        raise InvalidInput("first", first, f"a result a d{sides} can show: 1 to {sides}")
    recorder = RecordingSource(source)
    one = first if first is not None else recorder.draw(sides)
    faces = (one, recorder.draw(sides))
    return faces, Provenance.of(recorder.describe(), recorder.draws)


def roll_twice(
    character: Character,
    specialty: str,
    sides: int,
    source: RandomSource,
    first: int | None = None,
) -> TwiceRolled:
    """Killer and Lucky: the table's die twice, and the player keeps one.

    The critical injury tables are not in the text, so the caller names the die. Killer is
    for an injury the character inflicts, Lucky for one they suffer; ``first`` is a result
    rolled already (on one injury, the attacker's Killer pick), re-rolled once (ruling E34).
    """
    spec = character.content.specialty(specialty)
    if spec.effect != "roll-twice":
        raise InvalidInput("specialty", specialty, "a roll-twice specialty (Killer, Lucky)")
    if spec.name not in character.specialties:
        raise RuleViolation("specialties", f"{character.name} does not have {spec.name}")
    faces, provenance = draw_twice(sides, source, first)
    return TwiceRolled(spec.name, spec.table or "", faces, provenance, sides, first is not None)
