"""The Empty Reach character sheet and the state changes that go with its rolls.

Every function that changes state returns the new result and the new sheet
together, computed before anything is stored, so a caller commits both or
neither. Sheets are immutable; a change is a new sheet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.content import input_error
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    Die,
    ExtraModifier,
    GearInUse,
    Options,
)
from rulebound.rulesets.empty_reach.content import EmptyReachContent, default_content
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push

T = TypeVar("T")


class GearItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    bonus: int = Field(ge=0, le=10, description="current gear bonus; 0 means broken")
    max_bonus: int = Field(ge=0, le=10, description="the most repairs can restore")
    skills: tuple[str, ...] = Field(default=(), description="skills it helps; empty for any")
    dice: tuple[Die, ...] = Field(default=(), max_length=6)
    destroyed: bool = False

    @model_validator(mode="after")
    def _bonus_within_max(self) -> Self:
        if self.bonus > self.max_bonus:
            raise InvalidInput("bonus", self.bonus, f"a bonus at most max_bonus {self.max_bonus}")
        return self

    @property
    def broken(self) -> bool:
        return self.bonus == 0


class Character(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: str = Field(default="empty-reach", pattern="^empty-reach$")
    name: str = Field(min_length=1, max_length=80)
    attributes: dict[str, Die]
    skills: dict[str, Die] = {}
    specialties: tuple[str, ...] = ()
    base_health: int = Field(ge=1, le=20, description="maximum Health before specialties")
    base_resolve: int = Field(ge=1, le=20, description="maximum Resolve before specialties")
    damage: int = Field(default=0, ge=0)
    stress: int = Field(default=0, ge=0)
    gear: tuple[GearItem, ...] = ()
    second_wind_used: bool = False
    _content: EmptyReachContent | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _names_are_known(self, info: ValidationInfo) -> Self:
        content = _content_from(info.context)
        self._content = content
        for name in self.attributes:
            _renamed("attributes", content.attribute, name)
        missing = [a.name for a in content.attributes.values() if a.name not in self.attributes]
        if missing:
            raise InvalidInput(
                "attributes", sorted(self.attributes), "all four; missing " + ", ".join(missing)
            )
        for name in self.skills:
            exact = _renamed("skills", content.skill, name).name
            if exact != name:
                raise InvalidInput("skills", name, f"the skill's exact name {exact!r}")
        for name, times in Counter(self.specialties).items():
            spec = _renamed("specialties", content.specialty, name)
            if times > spec.repeatable:
                raise InvalidInput(
                    "specialties",
                    spec.name,
                    f"{spec.name} at most {spec.repeatable} time(s); taken {times} times",
                )
        return self

    @property
    def content(self) -> EmptyReachContent:
        """The content the sheet was validated against (homebrew specialties included)."""
        return self._content or default_content()

    def _ranks(self, effect: str) -> int:
        return sum(1 for s in self.specialties if self.content.specialty(s).effect == effect)

    @property
    def max_health(self) -> int:
        return self.base_health + self._ranks("max-health")

    @property
    def max_resolve(self) -> int:
        return self.base_resolve + self._ranks("max-resolve")

    @property
    def broken(self) -> bool:
        return self.damage >= self.max_health or self.stress >= self.max_resolve

    def gear_item(self, name: str) -> GearItem:
        for item in self.gear:
            if item.name.casefold() == name.casefold():
                return item
        raise InvalidInput(
            "gear", name, "one of " + (", ".join(g.name for g in self.gear) or "(no gear)")
        )

    def replace_gear(self, item: GearItem) -> Character:
        gear = tuple(item if g.name == item.name else g for g in self.gear)
        return self.model_copy(update={"gear": gear})


def _renamed(field: str, lookup: Callable[[str], T], name: str) -> T:
    """Look a name up in the content, reporting a miss under the sheet's own field."""
    try:
        return lookup(name)
    except InvalidInput as exc:
        raise InvalidInput(field, name, exc.expected) from None


def _content_from(context: Any) -> EmptyReachContent:
    found = context.get("content") if isinstance(context, Mapping) else None
    return found if isinstance(found, EmptyReachContent) else default_content()


def load_character(
    data: Mapping[str, object], content: EmptyReachContent | None = None
) -> Character:
    try:
        return Character.model_validate(data, context={"content": content or default_content()})
    except ValidationError as exc:
        raise input_error(exc, "character") from None


def request_for(
    character: Character,
    skill: str,
    *,
    situations: Sequence[str] = (),
    helpers: int = 0,
    difficulty: int = 0,
    difficulty_level: str | None = None,
    gear: str | None = None,
    swap: str | None = None,
    modifiers: Sequence[ExtraModifier] = (),
    unpushable: str | None = None,
    options: Options | None = None,
    content: EmptyReachContent | None = None,
) -> CheckRequest:
    """Build a check from the sheet: the skill's attribute (or a swap's), gear and toggles."""
    content = content or character.content
    spec = content.skill(skill)
    attribute = spec.attribute
    if swap:
        swapping = content.specialty(swap)
        if swapping.effect != "swap" or swapping.skill != spec.name:
            raise InvalidInput(
                "swap", swap, f"a specialty that changes the attribute of {spec.name}"
            )
        if swapping.name not in character.specialties:
            raise RuleViolation("specialties", f"{character.name} does not have {swapping.name}")
        attribute = swapping.attribute or attribute
    gear_use = None
    if gear:
        item = character.gear_item(gear)
        if item.destroyed:
            raise RuleViolation("destroyed gear", f"{item.name} is destroyed")
        if item.skills and spec.name not in item.skills:
            raise InvalidInput(
                "gear", gear, f"gear for {spec.name}; {item.name} helps " + ", ".join(item.skills)
            )
        gear_use = GearInUse(name=item.name, bonus=item.bonus, dice=item.dice)
    return CheckRequest(
        attribute_die=character.attributes[attribute],
        skill_die=character.skills.get(spec.name),
        attribute=attribute,
        skill=spec.name,
        helpers=helpers,
        difficulty=difficulty,
        difficulty_level=difficulty_level,
        situations=tuple(situations),
        specialties=tuple(dict.fromkeys(character.specialties)),
        modifiers=tuple(modifiers),
        gear=gear_use,
        unpushable=unpushable,
        options=options or Options(),
    )


def apply_push_costs(character: Character, result: EmptyReachResult) -> Character:
    """The sheet after a push's costs: damage or stress taken, gear points lost."""
    costs = result.costs
    if costs is None:
        return character
    update: dict[str, object] = {}
    if costs.points:
        if costs.kind is None:
            raise InvalidInput("attribute", None, "an attribute, so banes become damage or stress")
        field = costs.kind
        update[field] = getattr(character, field) + costs.points
    updated = character.model_copy(update=update)
    gear = result.check.request.gear
    if costs.gear_loss and gear is not None:
        item = updated.gear_item(gear.name)
        updated = updated.replace_gear(
            item.model_copy(update={"bonus": max(0, item.bonus - costs.gear_loss)})
        )
    return updated


def push_and_pay(
    character: Character,
    result: EmptyReachResult,
    source: RandomSource,
    reroll: Sequence[int] | None = None,
) -> tuple[EmptyReachResult, Character]:
    """Push and compute the sheet after its costs, together: store both or neither."""
    pushed = push(result, source, reroll)
    return pushed, apply_push_costs(character, pushed)


def gear_from_lines(text: str, old: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The sheet's gear written one item a line, ``Name bonus/max`` (``Crowbar 2/2``); an
    item that was on the sheet keeps its other fields (skills, dice, destroyed)."""
    previous = {str(g.get("name")): g for g in old}
    items = []
    for number, line in enumerate(filter(None, (raw.strip() for raw in text.splitlines())), 1):
        name, _, numbers = line.rpartition(" ")
        bonus, _, maximum = numbers.partition("/")
        if not name or not bonus.isdecimal() or not (maximum or bonus).isdecimal():
            raise InvalidInput(f"gear line {number}", line, "Name bonus/max, e.g. Crowbar 2/2")
        item = dict(previous.get(name.strip(), {}))
        item |= {"name": name.strip(), "bonus": int(bonus), "max_bonus": int(maximum or bonus)}
        items.append(item)
    return items
