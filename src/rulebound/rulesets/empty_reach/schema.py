"""The pydantic models that mirror the Empty Reach's hand-checked values (``values``).

Imported only when an input is not plainly valid: the model converts what it accepts
(a number given as text, a list for a tuple) and words every refusal, exactly as it did
when these were the game's own classes. Each model keeps its class's name, so the
messages that name a model read as before. ``Die`` is the sheet's die type too.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from rulebound.rulesets.empty_reach.check import one_purpose, without_unset
from rulebound.rulesets.empty_reach.content import (
    Effect,
    effect_has_its_fields,
    skills_name_known_attributes,
)
from rulebound.rulesets.empty_reach.rules import StepDie

Die = Annotated[
    StepDie,
    BeforeValidator(lambda value: StepDie.parse("die", value)),
    PlainSerializer(lambda die: die.label, return_type=str),
]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- a check's request (``check``) ---------------------------------------------------------


class GearInUse(_Frozen):
    name: str = Field(min_length=1, max_length=60)
    bonus: int = Field(ge=0, le=10)
    dice: tuple[Die, ...] = Field(default=(), max_length=6)


class ExtraModifier(_Frozen):
    source: str = Field(min_length=1, max_length=80)
    value: int = Field(ge=-10, le=10)


class Options(_Frozen):
    gear_banes: Literal["base-dice", "gear-dice"] = "base-dice"
    tie_break: Literal["fail", "reroll"] = "fail"


class Defender(_Frozen):
    attribute_die: Die
    skill_die: Die | None = None
    helpers: int = Field(default=0, ge=0)


class Tracks(_Frozen):
    damage: int = Field(ge=0)
    max_health: int = Field(ge=1)
    stress: int = Field(ge=0)
    max_resolve: int = Field(ge=1)


class RepairTarget(_Frozen):
    name: str = Field(min_length=1, max_length=60)
    bonus: int = Field(ge=0, le=10)
    max_bonus: int = Field(ge=0, le=10)
    tech: str | None = Field(default=None, max_length=40)


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
    opposed: Defender | None = None
    second_wind: Tracks | None = None
    repair: RepairTarget | None = None

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return without_unset(handler(self), ("opposed", "second_wind", "repair"))

    @model_validator(mode="after")
    def _one_purpose(self) -> Self:
        one_purpose(self)
        return self


# --- the content files (``content``) -------------------------------------------------------

_Strict = _Frozen


class AttributeSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    cost: Literal["damage", "stress"]


class SkillSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    attribute: str
    summary: str = Field(max_length=200)


class SkillBook(_Strict):
    attributes: tuple[AttributeSpec, ...] = ()
    skills: tuple[SkillSpec, ...] = ()

    @model_validator(mode="after")
    def _skills_name_known_attributes(self) -> Self:
        skills_name_known_attributes(self)
        return self


class DifficultySpec(_Strict):
    key: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    value: int = Field(ge=-10, le=10)


class SituationSpec(_Strict):
    key: str = Field(pattern=r"^[a-z0-9-]+$")
    group: str
    name: str = Field(max_length=120)
    value: int = Field(ge=-3, le=3)
    skills: tuple[str, ...] = ()


class SituationBook(_Strict):
    difficulty: tuple[DifficultySpec, ...] = ()
    situations: tuple[SituationSpec, ...] = ()


class SpecialtySpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    effect: Effect
    summary: str = Field(max_length=200)
    skills: tuple[str, ...] = ()
    skill: str | None = None
    attribute: str | None = None
    situation: str | None = None
    table: str | None = None
    tech: tuple[str, ...] = ()
    """For a situational Crafting specialty: the technologies whose repair it helps."""
    repeatable: int = Field(default=1, ge=1, le=99)

    @model_validator(mode="after")
    def _effect_has_its_fields(self) -> Self:
        effect_has_its_fields(self)
        return self


class SpecialtyBook(_Strict):
    specialties: tuple[SpecialtySpec, ...] = ()
