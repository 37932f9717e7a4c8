"""What a check asks for, and how its modifiers turn into a pool of dice.

``CheckRequest`` is the JSON-shaped input (CLI flags, a web form, a bot). The
``prepare`` step validates it against the content, names a source for every
modifier, sums them, and steps the dice, producing a ``PreparedCheck`` that the
roller and the odds engine both read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.keys import key_of
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.core.random_source import trusted_builder
from rulebound.core.trace import Modifier, StepChange
from rulebound.rulesets.empty_reach.content import EmptyReachContent, default_content
from rulebound.rulesets.empty_reach.rules import (
    BASE_PUSHES,
    HELP_PER_HELPER,
    MAX_BASE_DICE,
    MAX_HELPERS,
    CostKind,
    GearBanes,
    StepDie,
)
from rulebound.rulesets.empty_reach.steps import Pool, apply_steps
from rulebound.rulesets.empty_reach.values import (
    Fallback,
    Frozen,
    die,
    literal,
    many,
    nested,
    optional,
    text,
    whole,
)

TieBreak = Literal["fail", "reroll"]
F = TypeVar("F", bound=Frozen)


def without_unset(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """``data`` less the ``keys`` that are None: fields added later leave old JSON unchanged."""
    return {k: v for k, v in data.items() if not (k in keys and v is None)}


class GearInUse(
    Frozen,
    checks={"name": text(1, 60), "bonus": whole(0, 10), "dice": many(die, 6)},
    defaults={"dice": ()},
):
    """An item used for the check: its current bonus, and any extra dice it grants."""

    name: str
    bonus: int
    dice: tuple[StepDie, ...]


GEAR_NOTATION = re.compile(r"([^:]*):\s*(\d+)\s*(?::([^:]*))?", re.ASCII)


def parse_gear(text: str) -> dict[str, object]:
    """Gear in use as ``NAME:BONUS`` or ``NAME:BONUS:D8,D6`` (the extra dice the item grants)."""
    found = GEAR_NOTATION.fullmatch(text.strip())
    if found is None:
        raise InvalidInput("gear", text, "NAME:BONUS or NAME:BONUS:D8,D6")
    name, bonus, dice = found.groups()
    return {"name": name, "bonus": int(bonus), "dice": [d for d in (dice or "").split(",") if d]}


class ExtraModifier(Frozen, checks={"source": text(1, 80), "value": whole(-10, 10)}):
    """A modifier the rules impose that has no toggle of its own (aiming, range...)."""

    source: str
    value: int


class Options(
    Frozen,
    checks={
        "gear_banes": literal("base-dice", "gear-dice"),
        "tie_break": literal("fail", "reroll"),
    },
    defaults={"gear_banes": "base-dice", "tie_break": "fail"},
):
    """The table's rule variants; each is a ruling's alternative reading."""

    gear_banes: GearBanes
    tie_break: TieBreak

    @staticmethod
    def of(variants: Mapping[str, str]) -> Options:
        """The options a table's validated variants (``rules.VARIANTS``) choose."""
        return checked(Options, dict(variants), prefix="variants")

    @staticmethod
    def known(variants: Mapping[str, Any]) -> Options | dict[str, Any]:
        """The options ``variants`` choose, remembered (a table's few variant sets), or the
        variants as they are when they are not plainly valid (the request's check then
        names the problem, as it always has)."""
        try:
            key = tuple(variants.items())
            found = _OPTIONS.get(key)
        except TypeError:  # an unhashable value
            return dict(variants)
        if found is None:
            try:
                found = Options.plain(dict(variants))
            except Fallback:
                return dict(variants)
            if len(_OPTIONS) < 64:
                _OPTIONS[key] = found
        return found


_OPTIONS: dict[tuple[tuple[str, Any], ...], Options] = {}


class Defender(
    Frozen,
    checks={"attribute_die": die, "skill_die": optional(die), "helpers": whole(0)},
    defaults={"skill_die": None, "helpers": 0},
):
    """The other side of an opposed roll: their dice, and the people helping them."""

    attribute_die: StepDie
    skill_die: StepDie | None
    helpers: int

    @staticmethod
    def of(values: Mapping[str, Any]) -> Defender | None:
        """The defender a form's ``opposed_*`` values name, if they name their attribute die."""
        if not values.get("opposed_attribute"):
            if values.get("opposed_skill") or values.get("opposed_helpers"):
                raise InvalidInput("opposed_attribute", None, "the defender's attribute die too")
            return None
        side = {
            "attribute_die": values["opposed_attribute"],
            "skill_die": values.get("opposed_skill"),
        }
        return Defender.model_validate(side | {"helpers": values.get("opposed_helpers") or 0})


class Tracks(
    Frozen,
    checks={
        "damage": whole(0),
        "max_health": whole(1),
        "stress": whole(0),
        "max_resolve": whole(1),
    },
):
    """Health and Resolve as they stood when Second Wind was rolled (what a split may use)."""

    damage: int
    max_health: int
    stress: int
    max_resolve: int

    @property
    def missing(self) -> tuple[int, int]:
        """The points of Health and of Resolve that can come back (neither goes below 0)."""
        return min(self.damage, self.max_health), min(self.stress, self.max_resolve)


class RepairTarget(
    Frozen,
    checks={
        "name": text(1, 60),
        "bonus": whole(0, 10),
        "max_bonus": whole(0, 10),
        "tech": optional(text(0, 40)),
    },
    defaults={"tech": None},
):
    """The item a Crafting roll repairs, as it stood before the roll."""

    name: str
    bonus: int
    max_bonus: int
    tech: str | None


def one_purpose(request: Any) -> None:
    """A request is for one thing at most: opposed, Second Wind (an unpushable Stamina roll)
    or a repair (a Crafting roll)."""
    if request.opposed is None and request.second_wind is None and request.repair is None:
        return
    purposes = [k for k in ("opposed", "second_wind", "repair") if getattr(request, k)]
    if len(purposes) > 1:
        raise InvalidInput(purposes[1], "given", f"nothing beside {purposes[0]}")
    skill = key_of(request.skill or "")
    if request.second_wind is not None and not (skill == "stamina" and request.unpushable):
        raise InvalidInput("second_wind", "given", "an unpushable Stamina roll")
    if request.repair is not None and skill != "crafting":
        raise InvalidInput("repair", request.skill, "a Crafting roll")


_NAMES = optional(text(0, 40))


class CheckRequest(
    Frozen,
    checks={
        "attribute_die": die,
        "skill_die": optional(die),
        "attribute": _NAMES,
        "skill": _NAMES,
        "helpers": whole(0),
        "difficulty": whole(-10, 10),
        "difficulty_level": optional(text()),
        "situations": many(text(), 20),
        "specialties": many(text(), 40),
        "modifiers": many(nested(ExtraModifier), 10),
        "gear": optional(nested(GearInUse)),
        "unpushable": optional(text(0, 60)),
        "options": nested(Options),
        "opposed": optional(nested(Defender)),
        "second_wind": optional(nested(Tracks)),
        "repair": optional(nested(RepairTarget)),
    },
    defaults={
        "skill_die": None,
        "attribute": None,
        "skill": None,
        "helpers": 0,
        "difficulty": 0,
        "difficulty_level": None,
        "situations": (),
        "specialties": (),
        "modifiers": (),
        "gear": None,
        "unpushable": None,
        "options": Options(),
        "opposed": None,
        "second_wind": None,
        "repair": None,
    },
    dropped=("opposed", "second_wind", "repair"),
):
    attribute_die: StepDie
    skill_die: StepDie | None
    attribute: str | None
    skill: str | None
    helpers: int
    difficulty: int
    difficulty_level: str | None
    situations: tuple[str, ...]
    specialties: tuple[str, ...]
    modifiers: tuple[ExtraModifier, ...]
    gear: GearInUse | None
    unpushable: str | None
    options: Options
    opposed: Defender | None
    """An opposed roll: the defender rolls too, and their successes cancel the active side's."""
    second_wind: Tracks | None
    """A Second Wind roll (Stamina, unpushable), with the tracks its successes may restore."""
    repair: RepairTarget | None
    """A Crafting roll that repairs this item."""

    def validate(self) -> None:
        one_purpose(self)


def checked(cls: type[F], data: Mapping[str, Any], root: str = "request", prefix: str = "") -> F:
    """``cls`` from ``data``, or our own error naming each bad field (``input_error``)."""
    if type(data) is dict:
        try:
            return cls.plain(data)
        except Fallback:
            pass
    from pydantic import ValidationError

    from rulebound.rulesets.content import input_error

    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise input_error(exc, root, prefix) from None


@dataclass(frozen=True, slots=True)
class PreparedCheck:
    request: CheckRequest
    attribute: str | None
    modifiers: tuple[Modifier, ...]
    net: int
    start: Pool
    pool: Pool
    steps: tuple[StepChange, ...]
    gear_dice: tuple[StepDie, ...]
    cost: CostKind | None
    max_pushes: int
    notes: tuple[str, ...]
    defender: PreparedCheck | None = None
    """The other side of an opposed roll, prepared with the same content and options."""

    @property
    def gear_in_use(self) -> bool:
        return self.request.gear is not None


def _attribute_for(request: CheckRequest, content: EmptyReachContent) -> tuple[str | None, str]:
    skill = content.skill(request.skill) if request.skill else None
    if request.attribute:
        attribute = content.attribute(request.attribute).name
        if skill and skill.attribute != attribute:
            return attribute, f"{skill.name} rolled with {attribute} instead of {skill.attribute}"
        return attribute, ""
    return (skill.attribute if skill else None), ""


def _repairing(request: CheckRequest, content: EmptyReachContent) -> dict[str, str]:
    """Toggle keys of the owned specialties that give +1 to repairing the item's own tech."""
    tech = request.repair.tech if request.repair else None
    if not tech:
        return {}
    found = {}
    for name in request.specialties:
        spec = content.specialty(name)
        if spec.effect == "situational" and key_of(tech) in {key_of(t) for t in spec.tech}:
            found[spec.toggle_key] = f"specialty {spec.name} (repairing {tech})"
    return found


def _situation_modifiers(request: CheckRequest, content: EmptyReachContent) -> list[Modifier]:
    auto = _repairing(request, content)
    if not request.situations and not auto:
        return []
    owned = {content.specialty(name).name for name in request.specialties}
    toggles = content.toggles
    found: list[Modifier] = []
    seen: set[str] = set()
    given = [content.situation_key(key) for key in request.situations]
    for key in [*given, *(k for k in auto if k not in given)]:
        if key in seen:
            raise InvalidInput("situations", key, "each situation at most once")
        seen.add(key)
        if key in toggles:
            spec = toggles[key]
            if spec.effect != "situational":
                raise InvalidInput("situations", key, "a specialty that gives +1 in a situation")
            if spec.name not in owned:
                raise RuleViolation(
                    "specialties", f"{spec.name} is not among the character's specialties"
                )
            _check_skill("situations", key, spec.skills, request, content)
            found.append(Modifier(auto.get(key, f"specialty {spec.name}"), 1, "specialty"))
            continue
        situation = content.situation(key)
        _check_skill("situations", key, situation.skills, request, content)
        found.append(Modifier(situation.name, situation.value, situation.group))
    return found


def _check_skill(
    field: str,
    key: str,
    allowed: tuple[str, ...],
    request: CheckRequest,
    content: EmptyReachContent,
) -> None:
    if not allowed or not request.skill:
        return
    if content.skill(request.skill).name not in allowed:
        raise InvalidInput(
            field, key, f"a situation for {request.skill}: it applies to " + ", ".join(allowed)
        )


def collect_modifiers(request: CheckRequest, content: EmptyReachContent) -> list[Modifier]:
    modifiers: list[Modifier] = []
    if request.helpers > MAX_HELPERS:
        raise InvalidInput("helpers", request.helpers, f"0 to {MAX_HELPERS} people helping")
    if request.helpers:
        noun = "ally" if request.helpers == 1 else "allies"
        modifiers.append(
            Modifier(
                f"help from {request.helpers} {noun}", request.helpers * HELP_PER_HELPER, "help"
            )
        )
    if request.difficulty_level:
        level = content.difficulty_level(request.difficulty_level)
        if level.value:
            modifiers.append(Modifier(f"difficulty {level.name}", level.value, "difficulty"))
    if request.difficulty:
        modifiers.append(Modifier("difficulty", request.difficulty, "difficulty"))
    modifiers.extend(_situation_modifiers(request, content))
    modifiers.extend(Modifier(m.source, m.value, "rules") for m in request.modifiers if m.value)
    if request.gear is not None:
        if request.gear.bonus == 0:
            raise RuleViolation(
                "broken gear", f"{request.gear.name} has gear bonus 0 and cannot be used"
            )
        modifiers.append(Modifier(f"gear {request.gear.name}", request.gear.bonus, "gear"))
    return modifiers


def max_pushes_for(request: CheckRequest, attribute: str | None, content: EmptyReachContent) -> int:
    if request.unpushable:
        return 0
    if not request.specialties:
        return BASE_PUSHES
    extra = any(
        spec.effect == "extra-push" and spec.attribute == attribute
        for spec in (content.specialty(name) for name in request.specialties)
    )
    return BASE_PUSHES + (1 if extra else 0)


_NAMELESS = EmptyReachContent({}, {}, {}, {}, {})
"""A request that names no skill, attribute, situation or specialty needs no content files."""


def _names_content(request: CheckRequest) -> bool:
    return bool(
        request.skill
        or request.attribute
        or request.difficulty_level
        or request.situations
        or request.specialties
    )


def prepare(
    request: CheckRequest,
    content: EmptyReachContent | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> PreparedCheck:
    content = content or (default_content() if _names_content(request) else _NAMELESS)
    attribute, swap_note = _attribute_for(request, content)
    modifiers = tuple(collect_modifiers(request, content))
    net = sum(m.value for m in modifiers)
    limits.check_modifier("modifier total", net)
    gear_dice = request.gear.dice if request.gear else ()
    limits.check_dice("dice", MAX_BASE_DICE + len(gear_dice))
    start = _pool(request.attribute_die, request.skill_die)
    pool, steps = apply_steps(start, net)
    cost: CostKind | None = content.attribute(attribute).cost if attribute else None
    notes: tuple[str, ...] = ()
    if swap_note or request.unpushable:
        notes = tuple(
            n
            for n in (swap_note, request.unpushable and f"cannot be pushed: {request.unpushable}")
            if n
        )
    defender = None
    if request.opposed is not None:
        side = request.opposed.model_dump() | {"options": request.options}
        defender = prepare(CheckRequest.model_validate(side), content, limits)
    return _prepared(
        request,
        attribute,
        modifiers,
        net,
        start,
        pool,
        steps,
        gear_dice,
        cost,
        max_pushes_for(request, attribute, content),
        notes,
        defender,
    )


_prepared = trusted_builder(PreparedCheck)
_pool = trusted_builder(Pool)
"""A pool of a request's dice (each a ``StepDie`` the request checked, or no skill die)."""
"""``PreparedCheck`` from the values ``prepare`` worked out and checked, in field order."""
