"""Combat bookkeeping: initiative, surprise, the bleeding-out save, fatigue and death saves.

Every function takes a character (or combatants) and returns a new state plus
what happened; dice come only from the injected source.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Change, Character, Event
from rulebound.rulesets.legacy.checks import CheckRequest, LegacyResult, luck_request, roll_check
from rulebound.rulesets.legacy.content import Catalogue, catalogue
from rulebound.rulesets.legacy.fate import burn
from rulebound.rulesets.legacy.fate import spend_fate as pay_fate
from rulebound.rulesets.legacy.rules import (
    DEATH_SAVE_DIE,
    DEATH_SAVE_LIMIT,
    DEFAULT_AFFINITY_BONUS,
    DEFAULT_SCALE,
    death_save_points,
)

MAX_DAMAGE = 1000


@dataclass(frozen=True, slots=True)
class Combatant:
    """A PC, a PC's ally (an NPC on their side) or another NPC, with the INI it rolls on."""

    name: str
    ini_score: int
    ini_bonus: int
    is_pc: bool = False
    ally: bool = False

    @property
    def side(self) -> str:
        return "PC" if self.is_pc else "PC's ally" if self.ally else "NPC"

    @property
    def friendly(self) -> bool:
        return self.is_pc or self.ally

    @staticmethod
    def of(char: Character, ally: bool = False) -> Combatant:
        return Combatant(char.name, char.score("INI"), char.bonus("INI"), char.is_pc, ally)


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
    """Highest step first; ties: INI bonus, INI score, then a PC or a PC's ally before an
    other NPC. Friendly ties are the PCs' choice: they keep the order given (ruling 46)."""
    return tuple(sorted(entries, key=lambda e: (-e.step, *_tie(e.combatant))))


def _tie(c: Combatant) -> tuple[int, int, bool]:
    return (-c.ini_bonus, -c.ini_score, not c.friendly)


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


def join_initiative(
    current: tuple[InitiativeEntry, ...],
    newcomers: list[Combatant],
    source: RandomSource,
    scale: str = DEFAULT_SCALE,
) -> tuple[InitiativeEntry, ...]:
    """Newcomers roll and join; the order of those already fighting does not change."""
    names = {e.combatant.name for e in current}
    clash = [c.name for c in newcomers if c.name in names]
    if clash:
        raise InvalidInput("newcomers", clash, "combatants not already in the initiative order")
    return order([*current, *roll_initiative(newcomers, source, scale)])


def bleeding_save(char: Character, source: RandomSource, scale: str = DEFAULT_SCALE) -> Change:
    """The +0 CON save after excess damage; failing starts bleeding out (and unconsciousness).

    A character already bleeding out makes none: the death saves go on (ruling 70).
    """
    if char.bleeding:
        raise RuleViolation("CON save", f"{char.name} is already bleeding out")
    check = roll_as(char, char.check("CON", scale=scale), source)
    char, result = check.character, check.results[0]
    if result.succeeded:
        return Change(
            char, (*check.events, Event("CON save passed", "not bleeding out")), (result,)
        )
    after = char.model_copy(
        update={"bleeding": True, "unconscious": True, "death_successes": 0, "death_failures": 0}
    )
    return Change(
        after, (*check.events, Event("bleeding out", "CON save failed: unconscious")), (result,)
    )


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
    check = roll_as(after, after.check("STM", scale=scale), source)
    after, result = check.character, check.results[0]
    events.extend(check.events)
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
    important: bool = False,
    use_stamina: bool = False,
    scale: str = DEFAULT_SCALE,
    cat: Catalogue | None = None,
) -> tuple[Change, DeathSave]:
    """One round's death save; fate must be used before the roll (spend: pass; burn: 3 passes).

    Fate is for a player character or a sufficiently important NPC (``important``).
    A spend is paid like any other (a God-Fragment may keep the point, a Warlock may
    pay 1d10 STM with ``use_stamina``). A soul that cancels critical failures
    (Halfling) makes a LCK save after a natural 20: if it passes, the save is judged
    as a plain failure (1, not 2). The save itself is a d20 in every scale (ruling 13);
    the souls' LCK checks use the table's ``scale``.
    """
    c = cat or catalogue()
    if not char.bleeding:
        raise RuleViolation("death save", "only a character bleeding out makes death saves")
    if spend_fate and burn_fate:
        raise InvalidInput("fate", "spend and burn", "one fate option per round")
    if (spend_fate or burn_fate) and not (char.is_pc or important):
        raise RuleViolation(
            "death save", "only a player character or an important NPC may use fate here"
        )
    rec = RecordingSource(source)
    events: list[Event] = []
    results: list[LegacyResult] = []
    current = char
    face: int | None = None
    if burn_fate:
        change = burn(char, rec, "a death save", c, scale=scale)
        current, events, results = change.character, list(change.events), list(change.results)
        ds, df = DEATH_SAVE_LIMIT, 0
    elif spend_fate:
        paid = pay_fate(
            char, rec, use_stamina=use_stamina, purpose="passes this death save", scale=scale, cat=c
        )
        current, events, results = paid.character, list(paid.events), list(paid.results)
        ds, df = 1, 0
    else:
        face = rec.draw(DEATH_SAVE_DIE)
        ds, df = death_save_points(face)
        if face == DEATH_SAVE_DIE and "cancel-critical-failure" in c.soul(char.soul).powers:
            save = roll_check(luck_request(char.lck, scale, "LCK save: cancel the critical"), rec)
            results.append(save)
            if save.succeeded:
                df = 1
                events.append(Event("critical failure ignored", "the death save fails once"))
    s, f = current.death_successes + ds, current.death_failures + df
    update: dict[str, object] = {"death_successes": s, "death_failures": f}
    if s >= DEATH_SAVE_LIMIT:
        update |= {"bleeding": False}
        events.append(Event("stable", "three successes: unconscious but stable"))
    elif f >= DEATH_SAVE_LIMIT:
        update |= {"bleeding": False, "dead": True}
        events.append(Event("dead", "three failures"))
    save_record = DeathSave(face, ds, df, Provenance.of(rec.describe(), rec.draws))
    after = current.model_copy(update=update)
    return Change(after, tuple(events), tuple(results)), save_record


@dataclass(frozen=True, slots=True)
class Rolled:
    """One combatant's initiative, rolled as the character, and the character after it."""

    key: str
    entry: InitiativeEntry
    surprised: bool
    after: Character


def initiative_as(
    combatants: list[tuple[str, Character, bool]],
    source: RandomSource,
    scale: str = DEFAULT_SCALE,
    affinity_bonus: str = DEFAULT_AFFINITY_BONUS,
    allies: Collection[str] = (),
) -> list[Rolled]:
    """Each (key, character, surprised) rolls INI as the character: fatigue, affinity rank and
    traits apply, a curse is spent, an unconscious one fails; the surprised save at Difficult.
    ``allies`` are the keys of NPCs on the PCs' side."""
    rolled = []
    for key, char, surprised in combatants:
        level = "difficult" if surprised else "challenging"
        check = char.check("INI", difficulty=level, scale=scale, affinity_bonus=affinity_bonus)
        change = roll_as(char, check, source)
        side = Combatant.of(char, key in allies)
        entry = InitiativeEntry(side, change.results[0].degrees, change.results[0])
        rolled.append(Rolled(key, entry, surprised, change.character))
    return rolled


def ordered(rolled: list[Rolled]) -> list[Rolled]:
    """``order`` over rolled combatants."""
    by_entry = {id(r.entry): r for r in rolled}
    return [by_entry[id(e)] for e in order([r.entry for r in rolled])]
