"""The Empty Reach's content (attributes, skills, situations, specialties) as validated data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rulebound.core.errors import ContentError, InvalidInput
from rulebound.rulesets.content import load_file, load_packaged
from rulebound.rulesets.empty_reach.rules import MAX_SPECIALTY_RANKS

PACKAGE = "rulebound.rulesets.empty_reach"
T = TypeVar("T")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
        known = {a.name for a in self.attributes}
        for index, skill in enumerate(self.skills):
            if known and skill.attribute not in known:
                raise ValueError(
                    f"skills.{index}.attribute {skill.attribute!r} is not one of {sorted(known)}"
                )
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


Effect = Literal[
    "situational",
    "extra-push",
    "swap",
    "max-health",
    "max-resolve",
    "second-wind",
    "roll-twice",
    "narrative",
]

_REQUIRED: dict[str, tuple[str, ...]] = {
    "situational": ("skills", "situation"),
    "extra-push": ("attribute",),
    "swap": ("skill", "attribute", "situation"),
    "roll-twice": ("table",),
}


class SpecialtySpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    effect: Effect
    summary: str = Field(max_length=200)
    skills: tuple[str, ...] = ()
    skill: str | None = None
    attribute: str | None = None
    situation: str | None = None
    table: str | None = None
    repeatable: int = Field(default=1, ge=1, le=99)

    @model_validator(mode="after")
    def _effect_has_its_fields(self) -> Self:
        for name in _REQUIRED.get(self.effect, ()):
            if not getattr(self, name):
                raise ValueError(f"effect {self.effect!r} needs the field {name!r}")
        if self.effect in ("max-health", "max-resolve") and self.repeatable > MAX_SPECIALTY_RANKS:
            raise ValueError(f"repeatable must be at most {MAX_SPECIALTY_RANKS} for {self.effect}")
        return self

    @property
    def toggle_key(self) -> str:
        return "specialty-" + self.name.lower().replace(" ", "-")


class SpecialtyBook(_Strict):
    specialties: tuple[SpecialtySpec, ...] = ()


def _by_name(items: Iterable[AttributeSpec | SkillSpec | SpecialtySpec], source: str) -> dict:  # type: ignore[type-arg]
    found: dict[str, AttributeSpec | SkillSpec | SpecialtySpec] = {}
    for item in items:
        key = item.name.casefold()
        if key in found:
            raise ContentError(source, f"duplicate name {item.name!r}")
        found[key] = item
    return found


@dataclass(frozen=True)
class EmptyReachContent:
    """Everything the rules look up by name, cross-checked once when loaded."""

    attributes: dict[str, AttributeSpec]
    skills: dict[str, SkillSpec]
    difficulty: dict[str, DifficultySpec]
    situations: dict[str, SituationSpec]
    specialties: dict[str, SpecialtySpec]

    @cached_property
    def toggles(self) -> dict[str, SpecialtySpec]:
        """Specialties by the situation key that toggles them in a roll dialog."""
        return {spec.toggle_key: spec for spec in self.specialties.values()}

    @staticmethod
    def build(
        skills: SkillBook, situations: SituationBook, specialties: SpecialtyBook
    ) -> EmptyReachContent:
        content = EmptyReachContent(
            attributes=_by_name(skills.attributes, "attributes"),
            skills=_by_name(skills.skills, "skills"),
            difficulty={d.key: d for d in situations.difficulty},
            situations={s.key: s for s in situations.situations},
            specialties=_by_name(specialties.specialties, "specialties"),
        )
        content._cross_check()
        return content

    def _cross_check(self) -> None:
        for spec in self.specialties.values():
            for skill in (*spec.skills, *([spec.skill] if spec.skill else [])):
                if skill.casefold() not in self.skills:
                    raise ContentError(f"specialty {spec.name}", f"unknown skill {skill!r}")
            if spec.attribute and spec.attribute.casefold() not in self.attributes:
                raise ContentError(
                    f"specialty {spec.name}", f"unknown attribute {spec.attribute!r}"
                )
        for situation in self.situations.values():
            for skill in situation.skills:
                if skill.casefold() not in self.skills:
                    raise ContentError(f"situation {situation.key}", f"unknown skill {skill!r}")

    def attribute(self, name: str) -> AttributeSpec:
        return _find(self.attributes, name, "attribute", _names(self.attributes))

    def skill(self, name: str) -> SkillSpec:
        return _find(self.skills, name, "skill", _names(self.skills))

    def specialty(self, name: str) -> SpecialtySpec:
        return _find(self.specialties, name, "specialty", _names(self.specialties))

    def difficulty_level(self, key: str) -> DifficultySpec:
        expected = "one of " + ", ".join(self.difficulty)
        return _find(self.difficulty, key, "difficulty", expected)

    def situation(self, key: str) -> SituationSpec:
        try:
            return self.situations[key]
        except KeyError:
            raise InvalidInput("situations", key, "one of " + ", ".join(self.situations)) from None

    def with_homebrew(self, specialties: Sequence[Path] = ()) -> EmptyReachContent:
        """Add a game master's specialty files; a clash with an existing name is an error."""
        extra: list[SpecialtySpec] = []
        for path in specialties:
            extra.extend(load_file(path, SpecialtyBook).specialties)
        merged = SpecialtyBook(specialties=(*self.specialties.values(), *extra))
        return EmptyReachContent.build(
            SkillBook(
                attributes=tuple(self.attributes.values()), skills=tuple(self.skills.values())
            ),
            SituationBook(
                difficulty=tuple(self.difficulty.values()),
                situations=tuple(self.situations.values()),
            ),
            merged,
        )


def _find(found: Mapping[str, T], name: str, field: str, expected: str) -> T:
    """A content entry by name, matched case-blind; a miss names the field and what exists."""
    try:
        return found[name.casefold()]
    except KeyError:
        raise InvalidInput(field, name, expected) from None


def _names(
    mapping: dict[str, AttributeSpec] | dict[str, SkillSpec] | dict[str, SpecialtySpec],
) -> str:
    return "one of " + ", ".join(spec.name for spec in mapping.values())


@cache
def default_content() -> EmptyReachContent:
    return EmptyReachContent.build(
        load_packaged(PACKAGE, "skills.toml", SkillBook),
        load_packaged(PACKAGE, "situations.toml", SituationBook),
        load_packaged(PACKAGE, "specialties.toml", SpecialtyBook),
    )
