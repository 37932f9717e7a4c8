"""The Empty Reach character sheet and the state changes that go with its rolls.

Every function that changes state returns the new result and the new sheet
together, computed before anything is stored, so a caller commits both or
neither. Sheets are immutable; a change is a new sheet.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Self, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidationInfo,
    model_serializer,
    model_validator,
)

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.keys import key_of
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.content import input_error
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    Defender,
    ExtraModifier,
    GearInUse,
    Options,
    RepairTarget,
    Tracks,
    without_unset,
)
from rulebound.rulesets.empty_reach.content import EmptyReachContent, default_content
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push
from rulebound.rulesets.empty_reach.schema import Die

T = TypeVar("T")


class GearItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    bonus: int = Field(ge=0, le=10, description="current gear bonus; 0 means broken")
    max_bonus: int = Field(ge=0, le=10, description="the most repairs can restore")
    skills: tuple[str, ...] = Field(default=(), description="skills it helps; empty for any")
    dice: tuple[Die, ...] = Field(default=(), max_length=6)
    destroyed: bool = False
    tech: str | None = Field(default=None, max_length=40, description="steamtech, biotech...")

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return without_unset(handler(self), ("tech",))

    @model_validator(mode="after")
    def _bonus_within_max(self) -> Self:
        if self.bonus > self.max_bonus:
            raise InvalidInput("bonus", self.bonus, f"a bonus at most max_bonus {self.max_bonus}")
        return self

    @property
    def broken(self) -> bool:
        return self.bonus == 0

    @property
    def damaged(self) -> bool:
        """Below its bonus ceiling, or broken: something a repair can work on."""
        return not self.destroyed and (self.bonus < self.max_bonus or self.bonus == 0)


class Character(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: Literal["empty-reach"] = "empty-reach"
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

    @model_validator(mode="before")
    @classmethod
    def _canonical_names(cls, data: Any, info: ValidationInfo) -> Any:
        """Attribute, skill and specialty names as the content spells them ("true grit" is
        True Grit); a name the content lacks is left for the check after."""
        if not isinstance(data, Mapping):
            return data
        content = _content_from(info.context)
        out = dict(data)
        for field, lookup in (("attributes", content.attribute), ("skills", content.skill)):
            given = out.get(field)
            if isinstance(given, Mapping):
                named: dict[Any, Any] = {}
                for name, die in given.items():
                    key = _spelled(lookup, name)
                    if key in named:
                        raise InvalidInput(field, name, f"each name once; {key} is listed twice")
                    named[key] = die
                out[field] = named
        given = out.get("specialties")
        if isinstance(given, list | tuple):
            out["specialties"] = [_spelled(content.specialty, name) for name in given]
        gear = out.get("gear")
        if isinstance(gear, list | tuple):
            out["gear"] = [_gear_skills_spelled(item, content) for item in gear]
        return out

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
            _renamed("skills", content.skill, name)
        for index, item in enumerate(self.gear):
            for name in item.skills:
                _renamed(f"gear.{index}.skills", content.skill, name)
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

    @property
    def tracks(self) -> Tracks:
        return Tracks(
            damage=self.damage,
            max_health=self.max_health,
            stress=self.stress,
            max_resolve=self.max_resolve,
        )

    def gear_item(self, name: str) -> GearItem:
        for item in self.gear:
            if key_of(item.name) == key_of(name):
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


def _spelled(lookup: Callable[[str], Any], name: Any) -> Any:
    """The content's own spelling of ``name``, or ``name`` itself when it names nothing."""
    if not isinstance(name, str):
        return name
    try:
        return lookup(name).name
    except InvalidInput:
        return name


def _gear_skills_spelled(item: Any, content: EmptyReachContent) -> Any:
    """An item whose ``skills`` are spelled as the content spells them ("crafting")."""
    if not isinstance(item, Mapping) or not isinstance(item.get("skills"), list | tuple):
        return item
    return {**item, "skills": [_spelled(content.skill, name) for name in item["skills"]]}


def _content_from(context: Any) -> EmptyReachContent:
    found = context.get("content") if isinstance(context, Mapping) else None
    return found if isinstance(found, EmptyReachContent) else default_content()


def load_character(
    data: Mapping[str, object], content: EmptyReachContent | None = None
) -> Character:
    """The sheet validated against ``content``; the same sheet again (a roll reads it for its
    dialog, its request and what it leaves) is looked up, not validated again."""
    content = content or default_content()
    key = _sheet_key(data)
    if key is not None:
        found = _LOADED.get(key)
        if found is not None and found[0] is content:
            return found[1]
    try:
        character = Character.model_validate(data, context={"content": content})
    except ValidationError as exc:
        raise input_error(exc, "character") from None
    if key is not None:
        if len(_LOADED) >= _MAX_LOADED:
            _LOADED.clear()
        _LOADED[key] = (content, character)
    return character


_LOADED: dict[str, tuple[EmptyReachContent, Character]] = {}
"""Sheets validated lately, by their exact text (``_sheet_key``): a Character is immutable."""
_MAX_LOADED = 256
_JSON_SCALARS = (str, int, float, bool, type(None))


def _sheet_key(data: object) -> str | None:
    """The sheet's ``repr`` when it holds only JSON's own types (dicts with text keys, lists,
    text, numbers, true/false, null), so that equal keys mean the very same input; else None
    (the sheet is validated every time)."""

    def plain(value: object) -> bool:
        kind = type(value)
        if kind in _JSON_SCALARS:
            return True
        if kind is dict:
            return all(type(k) is str and plain(v) for k, v in value.items())  # type: ignore[attr-defined]
        if kind is list:
            return all(plain(v) for v in value)  # type: ignore[attr-defined]
        return False

    return repr(data) if type(data) is dict and plain(data) else None


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
    opposed: Defender | None = None,
    second_wind: Tracks | None = None,
    repair: RepairTarget | None = None,
) -> CheckRequest:
    """Build a check from the sheet: the skill's attribute (or a swap's), gear and toggles;
    ``opposed``, ``second_wind`` and ``repair`` say what the roll is for."""
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
        opposed=opposed,
        second_wind=second_wind,
        repair=repair,
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


GEAR_NUMBERS = re.compile(r"(\d+)(?:/(\d+))?")


def gear_from_lines(text: str, old: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The sheet's gear written one item a line, ``Name bonus/max [tech]`` (``Crowbar 2/2``,
    ``Steam drill 1/3 steamtech``); an item that was on the sheet keeps its other fields
    (skills, dice, destroyed)."""
    previous = {str(g.get("name")): g for g in old}
    items = []
    for number, line in enumerate(filter(None, (raw.strip() for raw in text.splitlines())), 1):
        words = line.split()
        at = next(
            (
                i
                for i in (len(words) - 1, len(words) - 2)
                if i > 0 and GEAR_NUMBERS.fullmatch(words[i])
            ),
            None,
        )
        if at is None:
            expected = "Name bonus/max [tech], e.g. Crowbar 2/2 or Steam drill 1/3 steamtech"
            raise InvalidInput(f"gear line {number}", line, expected)
        name = " ".join(words[:at])
        found = GEAR_NUMBERS.fullmatch(words[at])
        assert found is not None
        bonus, maximum = found.groups()
        item = dict(previous.get(name, {}))
        item |= {"name": name, "bonus": int(bonus), "max_bonus": int(maximum or bonus)}
        item["tech"] = words[at + 1] if at + 1 < len(words) else None
        items.append(item)
    return items
