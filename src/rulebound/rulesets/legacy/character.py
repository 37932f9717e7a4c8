"""The character sheet: a frozen pydantic model (it is also the saved JSON file).

Every state change elsewhere returns a ``Change``: the new character together with
the events it caused, so a caller can never apply half of one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rulebound.core.errors import InvalidInput
from rulebound.core.keys import find_key, key_of
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.checks import MAX_SCORE, CheckRequest, LegacyResult
from rulebound.rulesets.legacy.content import (
    CHARACTERISTICS,
    PRIMARIES,
    Catalogue,
    EdgeRule,
    Trait,
    catalogue,
)
from rulebound.rulesets.legacy.rules import (
    DEFAULT_AFFINITY_BONUS,
    DEFAULT_SCALE,
    characteristic_bonus,
)

LOCATIONS: tuple[str, ...] = ("head", "left-arm", "right-arm", "torso", "left-leg", "right-leg")


class Armour(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    physical: int = Field(default=0, ge=0)
    magical: int = Field(default=0, ge=0)
    metal: bool = False

    @property
    def worn(self) -> bool:
        """Worn armour of any type (natural armour is part of the body, not worn)."""
        return self.physical > 0 or self.magical > 0 or self.metal


class Character(BaseModel):
    """A Legacy character. ``max_bonus`` remembers each primary's highest bonus for advances."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    race: str
    origin: str
    soul: str
    char_class: str = ""
    is_pc: bool = True
    scores: dict[str, int]
    unnatural: dict[str, int] = Field(default_factory=dict)
    max_bonus: dict[str, int] = Field(default_factory=dict)
    rank: int = Field(default=1, ge=1, le=6)
    affinities: tuple[str, ...] = ()
    proficiencies: tuple[str, ...] = ()
    talents: tuple[str, ...] = ()
    lck: int = Field(ge=0)
    fate: int = Field(ge=0)
    ren: int
    san: int = Field(default=0, ge=0)
    cor: int = Field(default=0, ge=0)
    favour: bool = False
    wounds: int | None = None
    fatigue_taken: int = Field(default=0, ge=0)
    rest_points: int | None = None
    critical: dict[str, int] = Field(default_factory=dict)
    armour: dict[str, Armour] = Field(default_factory=dict)
    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()
    unconscious: bool = False
    bleeding: bool = False
    dead: bool = False
    death_successes: int = Field(default=0, ge=0)
    death_failures: int = Field(default=0, ge=0)
    unplayable: bool = False
    cursed: bool = False
    absorbed_soul: str | None = None
    absorbed_days: int = Field(default=0, ge=0)
    reactions_used: int = Field(default=0, ge=0)
    xp: int = Field(default=0, ge=0)
    daily_heal_used: bool = False

    @model_validator(mode="after")
    def _complete(self) -> Character:
        missing = [c for c in CHARACTERISTICS if c not in self.scores]
        extra = [c for c in self.scores if c not in CHARACTERISTICS]
        if missing or extra:
            raise ValueError(
                f"scores need exactly {', '.join(CHARACTERISTICS)}; "
                f"missing {missing}, unknown {extra}"
            )
        for code, value in self.scores.items():
            if not 0 <= value <= MAX_SCORE:  # a check refuses a higher score
                raise ValueError(f"scores.{code} must be from 0 to {MAX_SCORE}, got {value}")
        for loc in (*self.critical, *self.armour):
            if loc not in LOCATIONS:
                raise ValueError(f"location {loc!r} is not one of {', '.join(LOCATIONS)}")
        return self

    # derived numbers ------------------------------------------------------------
    def score(self, code: str) -> int:
        code = characteristic_code(code)
        if code == "LCK":
            return self.lck
        return max(self.ren, 0) if code == "REN" else self.scores[code]

    def bonus(self, code: str) -> int:
        code = characteristic_code(code)
        if code in ("LCK", "REN"):
            return characteristic_bonus(self.score(code))
        return characteristic_bonus(self.score(code), self.unnatural.get(code, 0))

    @property
    def max_wounds(self) -> int:
        return self.scores["STM"]

    @property
    def current_wounds(self) -> int:
        return self.max_wounds if self.wounds is None else self.wounds

    @property
    def max_rest_points(self) -> int:
        return self.bonus("CON")

    @property
    def current_rest_points(self) -> int:
        return self.max_rest_points if self.rest_points is None else self.rest_points

    @property
    def soak(self) -> int:
        return self.bonus("CON")

    @property
    def fatigue_capacity(self) -> int:
        return self.bonus("STM")

    @property
    def fatigued(self) -> bool:
        return self.fatigue_taken > 0

    @property
    def reactions(self) -> int:
        return self.bonus("INI")

    def speed_feet(self, cat: Catalogue | None = None) -> int:
        from rulebound.rulesets.legacy.rules import SPEED_FEET_PER_BONUS

        change = sum(t.speed_bonus_change for t in self.traits(cat))
        return SPEED_FEET_PER_BONUS * max(self.bonus("DEX") + change, 0)

    @property
    def wearing_armour(self) -> bool:
        return any(piece.worn for piece in self.armour.values())

    @property
    def carrying_capacity(self) -> int:
        """STR bonus + CON bonus (the text gives no unit or encumbrance levels)."""
        return self.bonus("STR") + self.bonus("CON")

    def within_maxima(self) -> Character:
        """Wounds, rest points and fatigue held to the maxima a lower STM or CON now sets."""
        tracks = (
            ("wounds", self.wounds, self.max_wounds),
            ("rest_points", self.rest_points, self.max_rest_points),
            ("fatigue_taken", self.fatigue_taken, self.fatigue_capacity),
        )
        over = {name: cap for name, value, cap in tracks if value is not None and value > cap}
        return self.model_copy(update=over) if over else self

    @property
    def can_act(self) -> bool:
        return not (self.unconscious or self.dead)

    def natural_armour(self, cat: Catalogue | None = None) -> int:
        return (cat or catalogue()).race(self.race).natural_armour

    def armour_at(self, location: str, cat: Catalogue | None = None) -> int:
        piece = self.armour.get(location, Armour())
        return self.natural_armour(cat) + piece.physical + piece.magical

    def traits(self, cat: Catalogue | None = None) -> list[Trait]:
        c = cat or catalogue()
        keys = [*c.race(self.race).traits, c.origin(self.origin).trait]
        return [c.traits[k] for k in keys]

    def has_affinity(self, key: str, cat: Catalogue | None = None) -> bool:
        granted = [t.grants_affinity for t in self.traits(cat) if t.grants_affinity]
        return find_key((*self.affinities, *granted), key) is not None

    def holds_proficiency(self, name: str) -> bool:
        return find_key(self.proficiencies, name) is not None

    def fate_cap(self, cat: Catalogue | None = None) -> int:
        """Fate never exceeds the LCK bonus, plus an origin's bonus point (ruling)."""
        return characteristic_bonus(self.lck) + (cat or catalogue()).origin(self.origin).bonus_fate

    def edge_rules(self, cat: Catalogue | None = None) -> list[tuple[str, EdgeRule]]:
        """Every trait and soul edge the character has, with its owner's name."""
        c = cat or catalogue()
        soul = c.soul(self.soul)
        rules = [(t.name, e) for t in self.traits(c) for e in t.edges]
        return rules + [(soul.name, e) for e in soul.edges]

    def edges(
        self,
        code: str,
        affinity: str | None = None,
        situations: Iterable[str] = (),
        cat: Catalogue | None = None,
    ) -> list[tuple[str, EdgeRule]]:
        """(owner, rule) for each edge a check against ``code`` meets (worn armour counts)."""
        sits = {key_of(s) for s in situations} | ({"armoured"} if self.wearing_armour else set())
        return [
            (owner, rule)
            for owner, rule in self.edge_rules(cat)
            if (not rule.characteristics or code in rule.characteristics)
            and (rule.affinity is None or rule.affinity == affinity)
            and (rule.situation is None or rule.situation in sits)
        ]

    def situations(self, cat: Catalogue | None = None) -> dict[str, str]:
        """The situation keys the traits and soul react to, labelled (worn armour is automatic)."""
        found: dict[str, str] = {}
        for owner, rule in self.edge_rules(cat):
            if rule.situation and rule.situation != "armoured":
                where = f" on {'/'.join(rule.characteristics)}" if rule.characteristics else ""
                label = f"{rule.situation.replace('-', ' ')}: {owner} ({rule.edge}{where})"
                found[rule.situation] = label
        return found

    # building checks ------------------------------------------------------------
    def check(
        self,
        code: str,
        *,
        affinity: str | None = None,
        proficient: bool = False,
        proficiency: str | None = None,
        untrained_penalty: int = 0,
        difficulty: str = "challenging",
        situations: Iterable[str] = (),
        advantage: bool = False,
        disadvantage: bool = False,
        modifier: int = 0,
        scale: str = DEFAULT_SCALE,
        affinity_bonus: str = DEFAULT_AFFINITY_BONUS,
        cat: Catalogue | None = None,
    ) -> CheckRequest:
        """A check against ``code``.

        ``affinity`` names the affinity the check uses: a skill affinity makes it a skill
        check (one class harder without it); a characteristic affinity must be ``code``'s own.
        ``proficiency`` names a proficiency check: the rank bonus if held, otherwise the
        item's ``untrained_penalty``. Worn armour and the soul's and traits' edges are
        applied here; a curse is not: it touches the next roll and is spent by it, so the
        roll adds it (``roll_as``, ``LegacyRoll.as_rolled``), not every check built.
        """
        c, code = cat or catalogue(), characteristic_code(code)
        affinity = None if affinity is None else c.affinity(affinity).key
        score = self.score(code)
        if affinity is not None and c.affinity(affinity).kind == "characteristic":
            own = c.affinity(affinity).uses
            if own != (code,):
                raise InvalidInput(
                    "affinity",
                    affinity,
                    f"the {code} affinity ({code.lower()}): a characteristic check is always "
                    "tested against its own characteristic",
                )
        if untrained_penalty and proficiency is None:
            raise InvalidInput(
                "untrained_penalty", untrained_penalty, "0 unless a proficiency is named"
            )
        skill = affinity is not None and c.affinity(affinity).kind == "skill"
        has = self.has_affinity(affinity, c) if affinity else self.has_affinity(code.lower(), c)
        held = proficient or (proficiency is not None and self.holds_proficiency(proficiency))
        for _, rule in self.edges(code, affinity, situations, c):
            advantage |= rule.edge == "advantage"
            disadvantage |= rule.edge == "disadvantage"
        label = f"{c.affinity(affinity).name} ({code})" if affinity else code
        if proficiency is not None:
            label = f"{proficiency} proficiency ({code})"
        return CheckRequest(
            score=score,
            bonus=self.bonus(code),
            characteristic=code,
            rank=self.rank if (has or held) else None,
            difficulty=difficulty,
            skill=skill,
            has_skill_affinity=has or held,
            fatigued=self.fatigued,
            advantage=advantage,
            disadvantage=disadvantage,
            modifier=modifier,
            scale=scale,
            label=label,
            untrained_penalty=0 if held or proficiency is None else untrained_penalty,
            affinity_bonus=affinity_bonus,
        )


@dataclass(frozen=True, slots=True)
class Event:
    """Something a change caused (a disorder roll, a secondary gain, a fate burn)."""

    kind: str
    detail: str
    value: int | None = None
    provenance: Provenance | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """A state change, whole: the new character, its events, and any checks it rolled."""

    character: Character
    events: tuple[Event, ...] = ()
    results: tuple[LegacyResult, ...] = ()


CORE_STATS = {"LCK": "Luck", "REN": "Renown"}


def find_characteristic(given: str, extra: bool = True) -> str | None:
    """The code ``given`` names: a code or a name in any spelling ("str", "Weapon Skill",
    "will_power"), LCK and REN included when ``extra``; None if it names none."""
    if given in CHARACTERISTICS or (extra and given in CORE_STATS):
        return given
    names = {**catalogue().names, **(CORE_STATS if extra else {})}
    hit = find_key(names, given)
    if hit is None:
        wanted = key_of(given)
        hit = next((code for code, name in names.items() if key_of(name) == wanted), None)
    return hit


def characteristic_code(code: str) -> str:
    """A characteristic's code from any spelling ("str" or "Strength" is STR), LCK and REN
    included."""
    hit = find_characteristic(code) if isinstance(code, str) else None
    if hit is None:
        known = (*CHARACTERISTICS, *CORE_STATS)
        raise InvalidInput("characteristic", code, "one of " + ", ".join(known))
    return hit


def primary_of(code: str) -> str | None:
    """The primary paired with a secondary, or None for a primary."""
    pairs = catalogue().pairs
    return next((p for p, s in pairs.items() if s == code), None)


def is_primary(code: str) -> bool:
    return code in PRIMARIES


def parse_unnatural(raw: Any) -> dict[str, int]:
    """Unnatural bonuses written ``STM +1, LDR +1`` (commas or lines between them)."""
    found: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in str(raw or "").replace("\n", ",").split(","))):
        code, _, value = part.partition(" ")
        value = value.replace(" ", "")
        if code.upper() not in CHARACTERISTICS or not value.lstrip("+-").isdecimal():
            raise InvalidInput("unnatural", part, "CODE +N, e.g. STM +1")
        found[code.upper()] = int(value)
    return found
