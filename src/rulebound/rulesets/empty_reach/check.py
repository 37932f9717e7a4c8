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
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
)

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.core.trace import Modifier, StepChange
from rulebound.rulesets.content import input_error
from rulebound.rulesets.empty_reach.content import EmptyReachContent, default_content
from rulebound.rulesets.empty_reach.rules import (
    BASE_PUSHES,
    HELP_PER_HELPER,
    MAX_BASE_DICE,
    MAX_HELPERS,
    CostKind,
    StepDie,
)
from rulebound.rulesets.empty_reach.steps import Pool, apply_steps

Die = Annotated[
    StepDie,
    BeforeValidator(lambda value: StepDie.parse("die", value)),
    PlainSerializer(lambda die: die.label, return_type=str),
]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GearInUse(_Frozen):
    """An item used for the check: its current bonus, and any extra dice it grants."""

    name: str = Field(min_length=1, max_length=60)
    bonus: int = Field(ge=0, le=10)
    dice: tuple[Die, ...] = Field(default=(), max_length=6)


GEAR_NOTATION = re.compile(r"([^:]*):\s*(\d+)\s*(?::([^:]*))?", re.ASCII)


def parse_gear(text: str) -> dict[str, object]:
    """Gear in use as ``NAME:BONUS`` or ``NAME:BONUS:D8,D6`` (the extra dice the item grants)."""
    found = GEAR_NOTATION.fullmatch(text.strip())
    if found is None:
        raise InvalidInput("gear", text, "NAME:BONUS or NAME:BONUS:D8,D6")
    name, bonus, dice = found.groups()
    return {"name": name, "bonus": int(bonus), "dice": [d for d in (dice or "").split(",") if d]}


class ExtraModifier(_Frozen):
    """A modifier the rules impose that has no toggle of its own (aiming, range...)."""

    source: str = Field(min_length=1, max_length=80)
    value: int = Field(ge=-10, le=10)


class Options(_Frozen):
    """The table's rule variants; each is a ruling's alternative reading."""

    gear_banes: Literal["base-dice", "gear-dice"] = "base-dice"
    tie_break: Literal["fail", "reroll"] = "fail"

    @staticmethod
    def of(variants: Mapping[str, str]) -> Options:
        """The options a table's validated variants (``rules.VARIANTS``) choose."""
        try:
            return Options.model_validate(dict(variants))
        except ValidationError as exc:
            raise input_error(exc, prefix="variants") from None


class CheckRequest(_Frozen):
    attribute_die: Die
    skill_die: Die | None = None
    attribute: str | None = Field(default=None, max_length=40)
    skill: str | None = Field(default=None, max_length=40)
    helpers: int = Field(default=0, ge=0)
    difficulty: int = Field(default=0, ge=-10, le=10)
    difficulty_level: str | None = None
    situations: tuple[str, ...] = Field(default=(), max_length=20)
    specialties: tuple[str, ...] = Field(default=(), max_length=40)
    modifiers: tuple[ExtraModifier, ...] = Field(default=(), max_length=10)
    gear: GearInUse | None = None
    unpushable: str | None = Field(default=None, max_length=60)
    options: Options = Options()


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


def _situation_modifiers(request: CheckRequest, content: EmptyReachContent) -> list[Modifier]:
    if not request.situations:
        return []
    owned = {content.specialty(name).name for name in request.specialties}
    toggles = content.toggles
    found: list[Modifier] = []
    seen: set[str] = set()
    for key in request.situations:
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
            found.append(Modifier(f"specialty {spec.name}", 1, "specialty"))
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
    start = Pool(request.attribute_die, request.skill_die)
    pool, steps = apply_steps(start, net)
    cost: CostKind | None = content.attribute(attribute).cost if attribute else None
    notes = tuple(
        n
        for n in (swap_note, request.unpushable and f"cannot be pushed: {request.unpushable}")
        if n
    )
    return PreparedCheck(
        request=request,
        attribute=attribute,
        modifiers=modifiers,
        net=net,
        start=start,
        pool=pool,
        steps=steps,
        gear_dice=gear_dice,
        cost=cost,
        max_pushes=max_pushes_for(request, attribute, content),
        notes=notes,
    )
