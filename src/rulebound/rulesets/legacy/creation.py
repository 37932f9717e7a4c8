"""Character creation, step by step, with every die from an injected source.

Each step returns a new ``CreationDraft``; every draw is kept in order so the
whole creation replays exactly from a ``ReplaySource``. Restrictions are checked
when the draft starts, before any die is rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.character import Change, Character, Event
from rulebound.rulesets.legacy.content import PRIMARIES, SECONDARIES, Catalogue, DiceExpr, catalogue
from rulebound.rulesets.legacy.progression import gain_cor, gain_san
from rulebound.rulesets.legacy.restrictions import check_soul
from rulebound.rulesets.legacy.rules import LCK_DICE, PRIMARY_DICE, REN_BASE, characteristic_bonus

ASSIGN_FORMS = "'STR=0,DEX=3,...' (all seven primaries) or seven indices like '0,3,1,2,4,6,5'"


def parse_assignment(text: str) -> tuple[int, ...]:
    """Read ``--assign``: which rolled result (0 = first rolled) each primary takes.

    Returns one index per primary in STR, DEX, CON, CHA, INT, WIL, PER order.
    """
    parts = [p.strip() for p in text.split(",") if p.strip()]
    named = [p for p in parts if "=" in p]
    if not parts or (named and len(named) != len(parts)):
        raise InvalidInput("assign", text, ASSIGN_FORMS)
    if not named:
        if len(parts) != len(PRIMARIES):
            raise InvalidInput("assign", text, f"{len(PRIMARIES)} indices: {ASSIGN_FORMS}")
        return tuple(_index(p, text) for p in parts)
    chosen: dict[str, int] = {}
    for part in named:
        code, _, value = (x.strip() for x in part.partition("="))
        code = code.upper()
        if code not in PRIMARIES:
            raise InvalidInput("assign", code, "a primary: " + ", ".join(PRIMARIES))
        if code in chosen:
            raise InvalidInput("assign", code, "each primary named once")
        chosen[code] = _index(value, text)
    missing = [c for c in PRIMARIES if c not in chosen]
    if missing:
        raise InvalidInput("assign", text, f"every primary; missing {', '.join(missing)}")
    return tuple(chosen[c] for c in PRIMARIES)


def _index(value: str, text: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise InvalidInput("assign", value, f"a roll index (whole number) in {text!r}") from None


class ResumeSource:
    """Replays a creation's draws so far, then draws new faces from ``live`` (if any)."""

    def __init__(self, draws: Sequence[Draw], live: RandomSource | None) -> None:
        self._draws = tuple(draws)
        self._live = live
        self.made: list[Draw] = []

    def draw(self, sides: int) -> int:
        index = len(self.made)
        if index < len(self._draws):
            held = self._draws[index]
            if held.sides != sides:
                raise InvalidInput("state.draws", index, f"a d{sides} at draw {index}")
            face = held.face
        elif self._live is None:
            raise InvalidInput("state", "(too few draws)", "the state of the last step")
        else:
            face = self._live.draw(sides)
        self.made.append(Draw(sides, face))
        return face

    def describe(self) -> dict[str, object]:
        return self._live.describe() if self._live is not None else {"kind": "replay"}


def roll_dice(rec: RandomSource, count: int, sides: int) -> tuple[int, ...]:
    return tuple(rec.draw(sides) for _ in range(count))


def secondary_dice_count(primary_bonus: int) -> int:
    """Half the paired primary's bonus, rounded up."""
    return -(-primary_bonus // 2)


@dataclass(frozen=True, slots=True)
class CreationDraft:
    name: str
    race: str
    origin: str
    soul: str
    char_class: str = ""
    primary_rolls: tuple[int, ...] = ()
    primaries: dict[str, int] = field(default_factory=dict)
    secondaries: dict[str, int] = field(default_factory=dict)
    secondary_dice: dict[str, tuple[int, ...]] = field(default_factory=dict)
    rerolled: str | None = None
    draws: tuple[Draw, ...] = ()
    events: tuple[Event, ...] = ()

    @staticmethod
    def start(
        name: str,
        race: str,
        origin: str,
        soul: str,
        char_class: str = "",
        cat: Catalogue | None = None,
    ) -> CreationDraft:
        c = cat or catalogue()
        race, origin, soul = c.race(race).key, c.origin(origin).key, c.soul(soul).key
        check_soul(soul, race, char_class, c)
        if not name.strip():
            raise InvalidInput("name", name, "a non-empty name")
        return CreationDraft(name.strip(), race, origin, soul, char_class)

    def roll_primaries(self, source: RandomSource) -> CreationDraft:
        """Roll 2d10 seven times; the player assigns them next."""
        if self.primary_rolls:
            raise RuleViolation("creation order", "the primaries are already rolled")
        rec = RecordingSource(source)
        rolls = tuple(sum(roll_dice(rec, *PRIMARY_DICE)) for _ in PRIMARIES)
        return replace(self, primary_rolls=rolls, draws=self.draws + rec.draws)

    def assign(self, values: tuple[int, ...], cat: Catalogue | None = None) -> CreationDraft:
        """Give the rolled values to STR, DEX, CON, CHA, INT, WIL, PER in that order."""
        if not self.primary_rolls:
            raise RuleViolation("creation order", "roll the primaries before assigning them")
        if sorted(values) != sorted(self.primary_rolls):
            raise InvalidInput(
                "assignment",
                list(values),
                f"the rolled values {sorted(self.primary_rolls)} in any order, one per primary",
            )
        race = (cat or catalogue()).race(self.race)
        primaries = {c: v + race.base(c) for c, v in zip(PRIMARIES, values, strict=True)}
        return replace(self, primaries=primaries)

    def assign_order(self, indices: tuple[int, ...], cat: Catalogue | None = None) -> CreationDraft:
        """Give rolled result ``indices[i]`` (0 = first rolled) to the i-th primary."""
        if not self.primary_rolls:
            raise RuleViolation("creation order", "roll the primaries before assigning them")
        count = len(self.primary_rolls)
        if len(indices) != count:
            raise InvalidInput(
                "assign",
                list(indices),
                f"{count} indices, one per primary ({', '.join(PRIMARIES)})",
            )
        for i in indices:
            if not 0 <= i < count:
                raise InvalidInput("assign", i, f"a roll index from 0 to {count - 1}")
        twice = sorted({i for i in indices if indices.count(i) > 1})
        if twice:
            raise InvalidInput(
                "assign", list(indices), f"each rolled result used once; {twice} used twice"
            )
        return self.assign(tuple(self.primary_rolls[i] for i in indices), cat)

    def roll_secondaries(self, source: RandomSource, cat: Catalogue | None = None) -> CreationDraft:
        if not self.primaries:
            raise RuleViolation("creation order", "assign the primaries before the secondaries")
        c = cat or catalogue()
        race = c.race(self.race)
        rec = RecordingSource(source)
        dice: dict[str, tuple[int, ...]] = {}
        for primary, secondary in c.pairs.items():
            bonus = characteristic_bonus(
                self.primaries[primary], race.unnatural_bonuses.get(primary, 0)
            )
            dice[secondary] = roll_dice(rec, secondary_dice_count(bonus), 10)
        values = {s: sum(d) + race.base(s) for s, d in dice.items()}
        return replace(self, secondaries=values, secondary_dice=dice, draws=self.draws + rec.draws)

    def reroll_secondary(
        self, code: str, source: RandomSource, cat: Catalogue | None = None
    ) -> CreationDraft:
        """Reroll one secondary once and keep the better of the two."""
        if code not in SECONDARIES:
            raise InvalidInput("reroll", code, "one of " + ", ".join(SECONDARIES))
        if not self.secondaries:
            raise RuleViolation("creation order", "roll the secondaries before rerolling one")
        if self.rerolled is not None:
            raise RuleViolation(
                "secondary reroll", f"only one reroll; {self.rerolled} was rerolled"
            )
        rec = RecordingSource(source)
        new = roll_dice(rec, len(self.secondary_dice[code]), 10)
        base = (cat or catalogue()).race(self.race).base(code)
        value = max(self.secondaries[code], sum(new) + base)
        event = Event(
            "secondary reroll", f"{code}: {sum(new) + base} vs {self.secondaries[code]}", value
        )
        return replace(
            self,
            secondaries={**self.secondaries, code: value},
            rerolled=code,
            draws=self.draws + rec.draws,
            events=(*self.events, event),
        )

    def finish(
        self,
        source: RandomSource,
        affinities: tuple[str, ...] = (),
        rank: int = 1,
        cat: Catalogue | None = None,
        *,
        preview: bool = False,
    ) -> tuple[Change, Provenance]:
        """LCK, fate, REN, origin and soul; returns the character, its events and all draws.

        ``preview``: the soul's extra affinities may still be missing (a step showing LCK,
        fate and REN before they are chosen); the character is not finished then."""
        if not self.secondaries:
            raise RuleViolation("creation order", "roll the secondaries before finishing")
        c = cat or catalogue()
        race, origin, soul = c.race(self.race), c.origin(self.origin), c.soul(self.soul)
        rec = RecordingSource(source)
        scores = {**self.primaries, **self.secondaries}
        for code, delta in origin.modifiers.items():
            scores[code] = max(scores[code] + delta, 0)
        lck = sum(roll_dice(rec, *LCK_DICE)) + race.base_lck
        ren = REN_BASE + rec.draw(10) + race.ren + (_roll(rec, soul.start_ren) or 0)
        chosen = _affinities(origin.affinity, affinities, soul.extra_affinities, c, preview=preview)
        events = list(self.events)
        if origin.starting_mutation:
            events.append(Event("mutation", "origin grants a minor mutation (GM's table)"))
        char = Character(
            name=self.name,
            race=race.key,
            origin=origin.key,
            soul=soul.key,
            char_class=self.char_class,
            scores=scores,
            unnatural=race.unnatural_bonuses,
            rank=rank,
            affinities=chosen,
            lck=lck,
            fate=characteristic_bonus(lck) + origin.bonus_fate,
            ren=ren,
        )
        # the previous maximum counts the bonus the secondaries were rolled from (ruling 19)
        rolled_from = char.model_copy(update={"scores": {**char.scores, **self.primaries}})
        highest = {p: max(char.bonus(p), rolled_from.bonus(p)) for p in PRIMARIES}
        char = char.model_copy(update={"max_bonus": highest})
        for stat, expr in (("san", soul.start_san), ("cor", soul.start_cor)):
            amount = _roll(rec, expr)
            if amount:
                gain = gain_san if stat == "san" else gain_cor
                change = gain(char, amount, rec, starting=True)
                char, events = change.character, [*events, *change.events]
        provenance = Provenance.of(rec.describe(), self.draws + rec.draws)
        return Change(char, tuple(events)), provenance


def _roll(rec: RandomSource, expr: DiceExpr | None) -> int | None:
    if expr is None:
        return None
    return sum(roll_dice(rec, expr.dice, expr.sides)) + expr.plus


def _affinities(
    origin_affinity: str, extra: tuple[str, ...], allowed: int, c: Catalogue, *, preview: bool
) -> tuple[str, ...]:
    """The origin's affinity and the soul's extra ones: exactly as many as the soul grants
    (a Human soul "take[s]" two, ruling 88); ``preview`` allows fewer, for a step that shows
    the character before they are chosen."""
    if len(extra) > allowed:
        raise RuleViolation(
            "extra affinities", f"this soul grants {allowed} extra affinities; {len(extra)} chosen"
        )
    if len(extra) < allowed and not preview:
        others = "affinities other than the origin's, each once"
        raise InvalidInput("affinities", list(extra), f"exactly {allowed} {others}")
    chosen = (origin_affinity, *(c.affinity(key).key for key in extra))
    if len(set(chosen)) != len(chosen):
        raise InvalidInput("affinities", list(extra), "affinities not already held, each once")
    return chosen


def create_character(
    source: RandomSource,
    *,
    name: str,
    race: str,
    origin: str,
    soul: str,
    char_class: str = "",
    assignment: tuple[int, ...] | None = None,
    order: tuple[int, ...] | None = None,
    reroll: str | None = None,
    affinities: tuple[str, ...] = (),
    rank: int = 1,
    cat: Catalogue | None = None,
) -> tuple[Change, Provenance]:
    """Run every step in order.

    ``assignment`` gives the values per primary, ``order`` the roll index per primary
    (see ``parse_assignment``); with neither, the rolls go to the primaries in the order rolled.
    """
    if assignment is not None and order is not None:
        raise InvalidInput("assign", "values and indices", "one way of assigning the rolls")
    draft = CreationDraft.start(name, race, origin, soul, char_class, cat).roll_primaries(source)
    if order is not None:
        draft = draft.assign_order(order, cat)
    else:
        draft = draft.assign(assignment or draft.primary_rolls, cat)
    draft = draft.roll_secondaries(source, cat)
    if reroll:
        draft = draft.reroll_secondary(reroll, source, cat)
    return draft.finish(source, affinities, rank, cat)
