"""Combat bookkeeping: initiative, surprise, damage, fatigue, death saves and rests.

Every function takes a character (or combatants) and returns a new state plus
what happened; dice come only from the injected source.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.character import LOCATIONS, Change, Character, Event
from rulebound.rulesets.legacy.checks import CheckRequest, LegacyResult, roll_check
from rulebound.rulesets.legacy.content import Catalogue, catalogue
from rulebound.rulesets.legacy.fate import burn
from rulebound.rulesets.legacy.rules import (
    DEATH_SAVE_DIE,
    DEATH_SAVE_LIMIT,
    DEFAULT_SCALE,
    death_save_points,
)

MAX_DAMAGE = 1000


@dataclass(frozen=True, slots=True)
class Combatant:
    name: str
    ini_score: int
    ini_bonus: int
    is_pc: bool = False

    @staticmethod
    def of(char: Character) -> Combatant:
        return Combatant(char.name, char.score("INI"), char.bonus("INI"), char.is_pc)


@dataclass(frozen=True, slots=True)
class InitiativeEntry:
    combatant: Combatant
    step: int
    result: LegacyResult


def _ini_request(c: Combatant, difficulty: str, scale: str) -> CheckRequest:
    return CheckRequest(
        score=c.ini_score,
        bonus=c.ini_bonus,
        characteristic="INI",
        difficulty=difficulty,
        scale=scale,
        label=f"{c.name} initiative",
    )


def order(entries: list[InitiativeEntry]) -> tuple[InitiativeEntry, ...]:
    """Highest step first; ties: INI bonus, INI score, then PCs (PC ties keep input order)."""
    return tuple(
        sorted(
            entries,
            key=lambda e: (
                -e.step,
                -e.combatant.ini_bonus,
                -e.combatant.ini_score,
                not e.combatant.is_pc,
            ),
        )
    )


def roll_initiative(
    combatants: list[Combatant], source: RandomSource, scale: str = DEFAULT_SCALE
) -> tuple[InitiativeEntry, ...]:
    """Each rolls an INI check; the step is its signed degrees of success or failure."""
    entries = []
    for c in combatants:
        result = roll_check(_ini_request(c, "challenging", scale), source)
        entries.append(InitiativeEntry(c, result.degrees, result))
    return order(entries)


def surprise_round(
    aware: list[Combatant],
    surprised: list[Combatant],
    source: RandomSource,
    scale: str = DEFAULT_SCALE,
) -> tuple[tuple[InitiativeEntry, ...], tuple[InitiativeEntry, ...]]:
    """The aware act in initiative order; surprised who pass a Difficult (-2) INI save act after.

    Returns (acting order for the round, the surprised who failed and stay surprised).
    """
    first = roll_initiative(aware, source, scale)
    passed: list[InitiativeEntry] = []
    failed: list[InitiativeEntry] = []
    for c in surprised:
        result = roll_check(_ini_request(c, "difficult", scale), source)
        (passed if result.succeeded else failed).append(InitiativeEntry(c, result.degrees, result))
    return first + order(passed), tuple(failed)


@dataclass(frozen=True, slots=True)
class DamageReport:
    """How one hit was worked out, step by step."""

    damage: int
    blocked: int
    through: int
    after_resistance: int
    wounds_lost: int
    excess: int
    critical: dict[str, int]
    con_save_required: bool


def _scale_by(value: int, resistant: bool, vulnerable: bool) -> int:
    if resistant and not vulnerable:
        return value // 2
    if vulnerable and not resistant:
        return value * 2
    return value


def apply_damage(
    char: Character,
    damage: int,
    location: str = "torso",
    damage_type: str = "",
    *,
    critical_hit: bool = False,
    max_damage: bool = False,
    whole_body: bool = False,
    cat: Catalogue | None = None,
) -> tuple[Change, DamageReport]:
    """Armour and soak first, then resistance or vulnerability, then wounds and critical damage."""
    c = cat or catalogue()
    if not 0 <= damage <= MAX_DAMAGE:
        raise InvalidInput("damage", damage, f"0 to {MAX_DAMAGE}")
    if location not in LOCATIONS:
        raise InvalidInput("location", location, "one of " + ", ".join(LOCATIONS))
    traits = char.traits(c)
    locations = LOCATIONS if whole_body else (location,)
    armour = min(char.armour_at(loc, c) for loc in locations)
    reduction = sum(t.damage_reduction.get(damage_type, 0) for t in traits) if damage_type else 0
    blocked = armour + char.soak + reduction
    through = max(damage - blocked, 0)
    resistances = {*char.resistances, *(r for t in traits for r in t.resistances)}
    resistant = damage_type in resistances
    vulnerable = damage_type in char.vulnerabilities
    after = _scale_by(through, resistant, vulnerable)
    wounds_lost = min(after, char.current_wounds)
    excess = after - wounds_lost
    flat = (1 if after > 0 else 0) + (1 if critical_hit or max_damage else 0)
    per_location = excess + _scale_by(flat, resistant, vulnerable)
    critical = dict(char.critical)
    added = dict.fromkeys(locations, per_location) if per_location else {}
    for loc, amount in added.items():
        critical[loc] = critical.get(loc, 0) + amount
    updated = char.model_copy(
        update={"wounds": char.current_wounds - wounds_lost, "critical": critical}
    )
    report = DamageReport(damage, blocked, through, after, wounds_lost, excess, added, excess > 0)
    events = [Event("damage", f"{wounds_lost} wounds, critical {added or 'none'}", wounds_lost)]
    if excess > 0:
        events.append(Event("CON save", "damage exceeded wounds: a +0 CON save or bleed out"))
    return Change(updated, tuple(events)), report


def bleeding_save(char: Character, source: RandomSource, scale: str = DEFAULT_SCALE) -> Change:
    """The +0 CON save after excess damage; failing starts bleeding out (and unconsciousness)."""
    result = roll_check(char.check("CON", scale=scale), source)
    if result.succeeded:
        return Change(char, (Event("CON save passed", "not bleeding out"),), (result,))
    after = char.model_copy(
        update={"bleeding": True, "unconscious": True, "death_successes": 0, "death_failures": 0}
    )
    return Change(after, (Event("bleeding out", "CON save failed: unconscious"),), (result,))


def take_fatigue(
    char: Character, amount: int, source: RandomSource, scale: str = DEFAULT_SCALE
) -> Change:
    """Fatigue fills up to the STM bonus; going past it calls a +0 STM check or unconsciousness."""
    if amount < 0:
        raise InvalidInput("amount", amount, "fatigue damage of 0 or more")
    cap = char.fatigue_capacity
    wanted = char.fatigue_taken + amount
    after = char.model_copy(update={"fatigue_taken": min(wanted, cap)})
    events = [Event("fatigue", f"{min(wanted, cap)}/{cap} taken: -1 to all checks", amount)]
    if wanted <= cap:
        return Change(after, tuple(events))
    result = roll_check(after.check("STM", scale=scale), source)
    if not result.succeeded:
        after = after.model_copy(update={"unconscious": True})
        events.append(Event("unconscious", "fatigue past 0 and the STM check failed"))
    return Change(after, tuple(events), (result,))


@dataclass(frozen=True, slots=True)
class DeathSave:
    face: int | None
    successes: int
    failures: int
    provenance: Provenance


def death_save(
    char: Character,
    source: RandomSource,
    *,
    spend_fate: bool = False,
    burn_fate: bool = False,
    cat: Catalogue | None = None,
) -> tuple[Change, DeathSave]:
    """One round's death save; fate must be used before the roll (spend: pass; burn: 3 passes)."""
    if not char.bleeding:
        raise RuleViolation("death save", "only a character bleeding out makes death saves")
    if spend_fate and burn_fate:
        raise InvalidInput("fate", "spend and burn", "one fate option per round")
    rec = RecordingSource(source)
    events: list[Event] = []
    current = char
    face: int | None = None
    if burn_fate:
        change = burn(char, rec, "a death save", cat)
        current, events = change.character, list(change.events)
        ds, df = DEATH_SAVE_LIMIT, 0
    elif spend_fate:
        if char.fate < 1:
            raise RuleViolation("fate", "no fate points left to spend")
        current = char.model_copy(update={"fate": char.fate - 1})
        ds, df = 1, 0
        events.append(Event("fate spent", "passes this death save"))
    else:
        face = rec.draw(DEATH_SAVE_DIE)
        ds, df = death_save_points(face)
    s, f = current.death_successes + ds, current.death_failures + df
    update: dict[str, object] = {"death_successes": s, "death_failures": f}
    if s >= DEATH_SAVE_LIMIT:
        update |= {"bleeding": False}
        events.append(Event("stable", "three successes: unconscious but stable"))
    elif f >= DEATH_SAVE_LIMIT:
        update |= {"bleeding": False, "dead": True}
        events.append(Event("dead", "three failures"))
    save = DeathSave(face, ds, df, Provenance.of(rec.describe(), rec.draws))
    return Change(current.model_copy(update=update), tuple(events)), save


def heal(char: Character, amount: int) -> Change:
    """Restore wounds up to the maximum; healing above 0 ends bleeding out."""
    if amount < 0:
        raise InvalidInput("amount", amount, "healing of 0 or more")
    if char.dead:
        raise RuleViolation("healing", "the character is dead")
    wounds = min(char.current_wounds + amount, char.max_wounds)
    update: dict[str, object] = {"wounds": wounds}
    events = [Event("healed", f"wounds {char.current_wounds} -> {wounds}", wounds)]
    if char.bleeding and wounds > 0:
        update |= {"bleeding": False, "death_successes": 0, "death_failures": 0}
        events.append(Event("saved", "healed above 0: no more death saves"))
    return Change(char.model_copy(update=update), tuple(events))


def short_rest(char: Character, points: int) -> Change:
    """Spend rest points one for one on wounds; fatigue is fully restored."""
    if not 0 <= points <= char.current_rest_points:
        raise InvalidInput("points", points, f"0 to {char.current_rest_points} rest points")
    healed = heal(char, points).character if points else char
    after = healed.model_copy(
        update={"rest_points": char.current_rest_points - points, "fatigue_taken": 0}
    )
    return Change(after, (Event("short rest", f"{points} rest points spent", points),))


def long_rest(char: Character) -> Change:
    """Spend every remaining rest point at the start; all are restored at the end."""
    spent = char.current_rest_points
    healed = heal(char, spent).character if spent else char
    after = healed.model_copy(update={"rest_points": char.max_rest_points, "fatigue_taken": 0})
    return Change(after, (Event("long rest", f"{spent} rest points spent, then restored", spent),))
