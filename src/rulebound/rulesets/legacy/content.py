"""Pydantic models for Legacy content, and the catalogue that loads and cross-checks it.

Every built-in file and every homebrew file goes through these models, so a
malformed race fails with a ``ContentError`` naming the field, whoever wrote it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from rulebound.core.errors import ContentError
from rulebound.core.keys import find_key, key_of, lookup
from rulebound.rulesets.content import load_file, load_packaged

PRIMARIES: tuple[str, ...] = ("STR", "DEX", "CON", "CHA", "INT", "WIL", "PER")
SECONDARIES: tuple[str, ...] = ("WPN", "BLS", "STM", "POW", "EDU", "LDR", "INI")
CHARACTERISTICS: tuple[str, ...] = PRIMARIES + SECONDARIES

Code = Literal[
    "STR",
    "DEX",
    "CON",
    "CHA",
    "INT",
    "WIL",
    "PER",
    "WPN",
    "BLS",
    "STM",
    "POW",
    "EDU",
    "LDR",
    "INI",
]
EdgeKind = Literal["advantage", "disadvantage"]
SoulPower = Literal[
    "reroll-failed-san-tests",
    "machine-luck",
    "dark-curse",
    "alter-reality",
    "cancel-critical-failure",
    "twice-on-charts",
    "twice-on-mutations",
    "befriend-animal",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Named(_Model):
    code: Code
    name: str = Field(min_length=1)


class PairDef(_Model):
    primary: Named
    secondary: Named


class CharacteristicsFile(_Model):
    pair: tuple[PairDef, ...]

    @model_validator(mode="after")
    def _seven_pairs(self) -> CharacteristicsFile:
        got = tuple(p.primary.code for p in self.pair), tuple(p.secondary.code for p in self.pair)
        if got != (PRIMARIES, SECONDARIES):
            raise ValueError(f"pairs must be {list(zip(PRIMARIES, SECONDARIES, strict=True))}")
        return self


def _scores(name: str, codes: tuple[str, ...]) -> type[_Model]:
    """A block of required scores 0-100, one per code; an unknown code such as AGL is
    rejected by name. Built from the code lists so the two blocks cannot drift from them."""
    fields: dict[str, Any] = {code: (int, Field(ge=0, le=100)) for code in codes}
    return create_model(name, __base__=_Model, **fields)


if TYPE_CHECKING:  # each block is a model of its own at run time
    PrimaryValues = _Model
    SecondaryValues = _Model
else:
    PrimaryValues = _scores("PrimaryValues", PRIMARIES)
    SecondaryValues = _scores("SecondaryValues", SECONDARIES)


class EdgeRule(_Model):
    """Advantage or disadvantage on checks matching every filter given (none given: all checks)."""

    edge: EdgeKind
    characteristics: tuple[Code, ...] = ()
    affinity: str | None = None
    situation: str | None = None

    @property
    def text(self) -> str:
        """In words: "disadvantage on PER checks when bright-light"."""
        on = " ".join([self.edge, "on", *self.characteristics, *filter(None, [self.affinity])])
        return f"{on} checks" + (f" when {self.situation}" if self.situation else "")


class DiceExpr(_Model):
    dice: int = Field(ge=1, le=10)
    sides: int = Field(ge=1, le=100)
    plus: int = 0

    @property
    def text(self) -> str:
        return f"{self.dice}d{self.sides}" + (f"{self.plus:+d}" if self.plus else "")


class Trait(_Model):
    key: str = Field(min_length=1)
    name: str = Field(min_length=1)
    summary: str
    edges: tuple[EdgeRule, ...] = ()
    grants_affinity: str | None = None
    speed_bonus_change: int = 0
    resistances: tuple[str, ...] = ()
    damage_reduction: dict[str, int] = Field(default_factory=dict)
    heal_rate: int = Field(default=1, ge=1, le=10)
    daily_heal: DiceExpr | None = None
    heals_from: tuple[str, ...] = ()
    metal_armour_ren_loss: DiceExpr | None = None

    def effects(self) -> list[str]:
        """Every number the trait carries, in words (for ``rulebound content``)."""
        ren, daily, speed = self.metal_armour_ren_loss, self.daily_heal, self.speed_bonus_change
        return [
            *(e.text for e in self.edges),
            *(
                f"counts as holding the {grant} affinity"
                for grant in [self.grants_affinity]
                if grant
            ),
            *([f"speed as if the DEX bonus were {speed:+d}"] if speed else []),
            *(f"{kind} wounds halved" for kind in self.resistances),
            *(f"{kind} damage -{value}" for kind, value in self.damage_reduction.items()),
            *([f"{self.heal_rate} wounds per rest point"] if self.heal_rate != 1 else []),
            *([f"heals {daily.text} once a day on a WIL check"] if daily else []),
            *(f"{kind} damage heals half instead" for kind in self.heals_from),
            *([f"loses {ren.text} REN each time metal armour is donned"] if ren else []),
        ]


class Race(_Model):
    key: str = Field(min_length=1, pattern=r"^[a-z][a-z0-9-]*$")
    name: str = Field(min_length=1)
    primaries: PrimaryValues
    secondaries: SecondaryValues
    base_lck: int = Field(ge=0, le=100)
    unnatural: dict[Code, int] = Field(default_factory=dict)
    traits: tuple[str, ...] = ()
    natural_armour: int = Field(default=0, ge=0)
    ren: int = 0
    arms: int = Field(default=2, ge=0)

    @property
    def unnatural_bonuses(self) -> dict[str, int]:
        return {str(k): v for k, v in self.unnatural.items()}

    def base(self, code: str) -> int:
        block = self.primaries if code in PRIMARIES else self.secondaries
        value: int = getattr(block, code)
        return value


class Origin(_Model):
    key: str = Field(min_length=1, pattern=r"^[a-z][a-z0-9-]*$")
    name: str = Field(min_length=1)
    modifiers: dict[Code, int]
    affinity: str
    common_skills: tuple[str, ...] = ()
    trait: str
    bonus_fate: int = Field(default=0, ge=0)
    starting_mutation: bool = False


class Soul(_Model):
    key: str = Field(min_length=1, pattern=r"^[a-z][a-z0-9-]*$")
    name: str = Field(min_length=1)
    kind: Literal["racial", "anomaly"]
    summary: str
    races: tuple[str, ...] = ()
    forbidden_races: tuple[str, ...] = ()
    forbidden_classes: tuple[str, ...] = ()
    edges: tuple[EdgeRule, ...] = ()
    extra_affinities: int = Field(default=0, ge=0)
    start_san: DiceExpr | None = None
    start_cor: DiceExpr | None = None
    start_ren: DiceExpr | None = None
    halve_cor_gain: bool = False
    burn_luck_check: bool = False
    spend_luck_check: bool = False
    stamina_for_fate: bool = False
    free_luck_swap_affinity: str | None = None
    powers: tuple[SoulPower, ...] = ()
    absorb_days: DiceExpr | None = None

    def effects(self) -> list[str]:
        """Every number and power the soul carries, in words (for ``rulebound content``)."""
        starts = (("SAN", self.start_san), ("COR", self.start_cor), ("REN", self.start_ren))
        flags = (
            (self.halve_cor_gain, "COR gains halved"),
            (self.burn_luck_check, "burning fate: a passed LCK check makes it a spend"),
            (self.spend_luck_check, "spending fate: a passed LCK check keeps the point"),
            (self.stamina_for_fate, "1d10 STM instead of a spent fate point"),
        )
        return [
            *([f"{self.extra_affinities} extra affinities"] if self.extra_affinities else []),
            *(f"starts with {expr.text} {stat}" for stat, expr in starts if expr),
            *(words for held, words in flags if held),
            *(f"free luck swap on {key} checks" for key in [self.free_luck_swap_affinity] if key),
            *(e.text for e in self.edges),
            *(f"absorbs a slain racial soul for {d.text} days" for d in [self.absorb_days] if d),
            *(power.replace("-", " ") for power in self.powers),
        ]

    def limits(self, races: Mapping[str, Race]) -> list[str]:
        """Who may take it, in words ("only Human, Feral", "no engineer")."""
        names = [
            ", ".join(races[r].name for r in group) for group in (self.races, self.forbidden_races)
        ]
        words = [
            f"{lead} {text}" for lead, text in zip(("only", "not"), names, strict=True) if text
        ]
        return words + (
            ["no " + ", ".join(self.forbidden_classes)] if self.forbidden_classes else []
        )


class Affinity(_Model):
    key: str = Field(min_length=1)
    name: str = Field(min_length=1)
    uses: tuple[Code, ...] = ()
    summary: str = ""
    kind: Literal["skill", "characteristic"] = "skill"


class Difficulty(_Model):
    key: str
    name: str
    modifier: int = Field(ge=-20, le=20)
    edge: EdgeKind | None = None


class RankBand(_Model):
    min_rank: int = Field(ge=1)
    max_rank: int = Field(ge=1)
    bonus: int


class Thresholds(_Model):
    san: tuple[int, ...]
    cor: tuple[int, ...]
    unplayable: int = Field(ge=1)


class TablesFile(_Model):
    difficulty: tuple[Difficulty, ...] = Field(min_length=1)
    rank_bonus: tuple[RankBand, ...] = Field(min_length=1)
    thresholds: Thresholds


class RacesFile(_Model):
    race: tuple[Race, ...]


class OriginsFile(_Model):
    origin: tuple[Origin, ...]


class SoulsFile(_Model):
    soul: tuple[Soul, ...]


class AffinitiesFile(_Model):
    affinity: tuple[Affinity, ...]


class TraitsFile(_Model):
    trait: tuple[Trait, ...]


class Catalogue(_Model):
    """Every piece of Legacy content, keyed, with cross-references checked."""

    pairs: dict[str, str]
    names: dict[str, str]
    races: dict[str, Race]
    origins: dict[str, Origin]
    souls: dict[str, Soul]
    affinities: dict[str, Affinity]
    traits: dict[str, Trait]
    tables: TablesFile

    def check_references(self, source: str) -> None:
        """Raise ContentError naming the first reference to something that does not exist."""
        for race in self.races.values():
            for trait in race.traits:
                if trait not in self.traits:
                    raise ContentError.unknown(
                        source, f"race {race.key}.traits", trait, self.traits
                    )
        for origin in self.origins.values():
            if origin.affinity not in self.affinities:
                raise ContentError.unknown(
                    source, f"origin {origin.key}.affinity", origin.affinity, self.affinities
                )
            if origin.trait not in self.traits:
                raise ContentError.unknown(
                    source, f"origin {origin.key}.trait", origin.trait, self.traits
                )
        for soul in self.souls.values():
            for race_key in (*soul.races, *soul.forbidden_races):
                if race_key not in self.races:
                    raise ContentError.unknown(
                        source, f"soul {soul.key}.races", race_key, self.races
                    )

    def with_race(self, race: Race, source: str = "homebrew race") -> Catalogue:
        """A new catalogue that also holds ``race`` (a homebrew race replaces a same-key one)."""
        updated = self.model_copy(update={"races": {**self.races, race.key: race}})
        updated.check_references(source)
        return updated

    def race(self, key: str) -> Race:
        return lookup(self.races, key, "race", find)

    def origin(self, key: str) -> Origin:
        return lookup(self.origins, key, "origin", find)

    def soul(self, key: str) -> Soul:
        return lookup(self.souls, key, "soul", find)

    def affinity(self, key: str) -> Affinity:
        return lookup(self.affinities, key, "affinity", find)

    def difficulty(self, key: str) -> Difficulty:
        return lookup({d.key: d for d in self.tables.difficulty}, key, "difficulty", find)


def find(table: Mapping[str, Any], given: str) -> str | None:
    """The key ``given`` names in ``table``: a key or an item's name, any case or separator
    ("Feral", "deep dark", "dragon-soul" for the Dragon Soul); None if it names none."""
    hit = find_key(table, given)
    if hit is None:
        wanted = key_of(given)
        names = ((k, getattr(item, "name", "")) for k, item in table.items())
        hit = next((k for k, name in names if name and key_of(name) == wanted), None)
    return hit


_PACKAGE = "rulebound.rulesets.legacy"


K = TypeVar("K", Race, Origin, Soul, Affinity, Trait)


def _keyed(source: str, items: tuple[K, ...]) -> dict[str, K]:
    out: dict[str, K] = {}
    for item in items:
        if item.key in out:
            raise ContentError(source, f"key: {item.key!r} appears twice")
        out[item.key] = item
    return out


_ACTIVE: ContextVar[Catalogue | None] = ContextVar("legacy_catalogue", default=None)


def catalogue() -> Catalogue:
    """The content in use: a game's homebrew catalogue while it runs (``using``), else built-in."""
    return _ACTIVE.get() or builtin_catalogue()


@contextmanager
def using(cat: Catalogue) -> Iterator[None]:
    """Run with ``cat`` as the catalogue every rule reads (a homebrew race among them)."""
    token = _ACTIVE.set(cat)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


C = TypeVar("C", bound=type)


def scoped(cls: C) -> C:
    """Run each public method of ``cls`` with its instance's ``catalogue`` in use."""
    for name, method in list(vars(cls).items()):
        if callable(method) and not name.startswith("_"):
            setattr(cls, name, _scoped(method))
    return cls


def _scoped(method: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        token = _ACTIVE.set(self.catalogue)  # ``using``, without a generator per call
        try:
            return method(self, *args, **kwargs)
        finally:
            _ACTIVE.reset(token)

    return run


@cache
def builtin_catalogue() -> Catalogue:
    """The built-in content, loaded and checked once."""
    chars = load_packaged(_PACKAGE, "characteristics.toml", CharacteristicsFile)
    pairs = {p.primary.code: p.secondary.code for p in chars.pair}
    names = {n.code: n.name for p in chars.pair for n in (p.primary, p.secondary)}
    affinities = _keyed(
        "affinities.toml", load_packaged(_PACKAGE, "affinities.toml", AffinitiesFile).affinity
    )
    for code, name in names.items():
        affinities[code.lower()] = Affinity(
            key=code.lower(),
            name=name,
            uses=(code,),
            kind="characteristic",
            summary=f"Checks made directly against {code}.",
        )
    built = Catalogue(
        pairs=pairs,
        names=names,
        races=_keyed("races.toml", load_packaged(_PACKAGE, "races.toml", RacesFile).race),
        origins=_keyed("origins.toml", load_packaged(_PACKAGE, "origins.toml", OriginsFile).origin),
        souls=_keyed("souls.toml", load_packaged(_PACKAGE, "souls.toml", SoulsFile).soul),
        affinities=affinities,
        traits=_keyed("traits.toml", load_packaged(_PACKAGE, "traits.toml", TraitsFile).trait),
        tables=load_packaged(_PACKAGE, "tables.toml", TablesFile),
    )
    built.check_references(f"{_PACKAGE}/data")
    return built


def load_homebrew_race(path: Path, base: Catalogue | None = None) -> Catalogue:
    """Validate a GM's race file (one race at the top level) and add it to the catalogue."""
    race = load_file(path, Race)
    return (base or builtin_catalogue()).with_race(race, str(path))
