"""The Empty Reach's content (attributes, skills, situations, specialties) as validated data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

from rulebound.core.errors import ContentError, InvalidInput
from rulebound.core.keys import find_key, key_of
from rulebound.rulesets.content import load_file, load_packaged
from rulebound.rulesets.empty_reach import values as v
from rulebound.rulesets.empty_reach.rules import BASE_PUSHES, MAX_SPECIALTY_RANKS, RULE_NUMBERS
from rulebound.rulesets.empty_reach.values import Frozen

if TYPE_CHECKING:
    from rulebound.rulesets.contract import ContentTable

PACKAGE = "rulebound.rulesets.empty_reach"
T = TypeVar("T")


class AttributeSpec(Frozen, checks={"name": v.text(1, 40), "cost": v.literal("damage", "stress")}):
    name: str
    cost: Literal["damage", "stress"]


class SkillSpec(
    Frozen, checks={"name": v.text(1, 40), "attribute": v.text(), "summary": v.text(0, 200)}
):
    name: str
    attribute: str
    summary: str


def skills_name_known_attributes(book: Any) -> None:
    """Each skill's attribute is one of the book's attributes (when it lists any)."""
    known = {a.name for a in book.attributes}
    for index, skill in enumerate(book.skills):
        if known and skill.attribute not in known:
            raise ValueError(
                f"skills.{index}.attribute {skill.attribute!r} is not one of {sorted(known)}"
            )


class SkillBook(
    Frozen,
    checks={"attributes": v.many(v.nested(AttributeSpec)), "skills": v.many(v.nested(SkillSpec))},
    defaults={"attributes": (), "skills": ()},
):
    attributes: tuple[AttributeSpec, ...]
    skills: tuple[SkillSpec, ...]

    def validate(self) -> None:
        skills_name_known_attributes(self)


_KEY = v.text(pattern=r"^[a-z0-9-]+$")


class DifficultySpec(Frozen, checks={"key": _KEY, "name": v.text(), "value": v.whole(-10, 10)}):
    key: str
    name: str
    value: int


class SituationSpec(
    Frozen,
    checks={
        "key": _KEY,
        "group": v.text(),
        "name": v.text(0, 120),
        "value": v.whole(-3, 3),
        "skills": v.many(v.text()),
    },
    defaults={"skills": ()},
):
    key: str
    group: str
    name: str
    value: int
    skills: tuple[str, ...]


class SituationBook(
    Frozen,
    checks={
        "difficulty": v.many(v.nested(DifficultySpec)),
        "situations": v.many(v.nested(SituationSpec)),
    },
    defaults={"difficulty": (), "situations": ()},
):
    difficulty: tuple[DifficultySpec, ...]
    situations: tuple[SituationSpec, ...]


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


def effect_has_its_fields(spec: Any) -> None:
    """A specialty's effect names what it needs (a swap its skill, attribute and situation),
    and a rank of Tough or Hardened is taken at most ``MAX_SPECIALTY_RANKS`` times."""
    for name in _REQUIRED.get(spec.effect, ()):
        if not getattr(spec, name):
            raise ValueError(f"effect {spec.effect!r} needs the field {name!r}")
    if spec.effect in ("max-health", "max-resolve") and spec.repeatable > MAX_SPECIALTY_RANKS:
        raise ValueError(f"repeatable must be at most {MAX_SPECIALTY_RANKS} for {spec.effect}")


_TEXT = v.optional(v.text())


class SpecialtySpec(
    Frozen,
    checks={
        "name": v.text(1, 40),
        "effect": v.literal(*get_args(Effect)),
        "summary": v.text(0, 200),
        "skills": v.many(v.text()),
        "skill": _TEXT,
        "attribute": _TEXT,
        "situation": _TEXT,
        "table": _TEXT,
        "tech": v.many(v.text()),
        "repeatable": v.whole(1, 99),
    },
    defaults={
        "skills": (),
        "skill": None,
        "attribute": None,
        "situation": None,
        "table": None,
        "tech": (),
        "repeatable": 1,
    },
):
    name: str
    effect: Effect
    summary: str
    skills: tuple[str, ...]
    skill: str | None
    attribute: str | None
    situation: str | None
    table: str | None
    tech: tuple[str, ...]
    """For a situational Crafting specialty: the technologies whose repair it helps."""
    repeatable: int

    def validate(self) -> None:
        effect_has_its_fields(self)

    @property
    def toggle_key(self) -> str:
        return "specialty-" + self.name.lower().replace(" ", "-")

    def describe(self) -> str:
        """What it does, with its numbers."""
        skills = "/".join(self.skills)
        tech = f" (by itself when repairing {' or '.join(self.tech)})" if self.tech else ""
        return {
            "situational": f"+1 {skills} when {self.situation}{tech}",
            "extra-push": f"{self.attribute} rolls may be pushed {BASE_PUSHES + 1} times",
            "swap": f"{self.skill} rolled with {self.attribute} when {self.situation}",
            "max-health": "+1 maximum Health each time taken",
            "max-resolve": "+1 maximum Resolve each time taken",
            "second-wind": "while broken: Stamina, no push; +1 Health or Resolve a success",
            "roll-twice": f"roll the {self.table} table twice, keep one",
            "narrative": f"no mechanic in these rules: {self.summary}",
        }[self.effect]


class SpecialtyBook(
    Frozen, checks={"specialties": v.many(v.nested(SpecialtySpec))}, defaults={"specialties": ()}
):
    specialties: tuple[SpecialtySpec, ...]


def _by_name(items: Iterable[AttributeSpec | SkillSpec | SpecialtySpec], source: str) -> dict:  # type: ignore[type-arg]
    found: dict[str, AttributeSpec | SkillSpec | SpecialtySpec] = {}
    for item in items:
        key = key_of(item.name)
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
                if key_of(skill) not in self.skills:
                    raise ContentError(f"specialty {spec.name}", f"unknown skill {skill!r}")
            if spec.attribute and key_of(spec.attribute) not in self.attributes:
                raise ContentError(
                    f"specialty {spec.name}", f"unknown attribute {spec.attribute!r}"
                )
        for situation in self.situations.values():
            for skill in situation.skills:
                if key_of(skill) not in self.skills:
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
        found = find_key(self.situations, key)
        if found is None:
            raise InvalidInput("situations", key, "one of " + ", ".join(self.situations))
        return self.situations[found]

    def situation_key(self, key: str) -> str:
        """The situation or specialty toggle ``key`` names, matched by ``key_of``; else ``key``."""
        return find_key([*self.situations, *self.toggles], key) or key

    def tables(self) -> tuple[ContentTable, ...]:
        """Everything ``rulebound content empty-reach`` lists, with its numbers."""
        from rulebound.rulesets.views import ContentTable

        plus = "situational"
        specialties = [
            (s.name, s.effect, s.describe(), str(s.repeatable), s.toggle_key * (s.effect == plus))
            for s in self.specialties.values()
        ]
        situations = [
            (s.key, s.name, f"{s.value:+d}", ", ".join(s.skills) or "any")
            for s in self.situations.values()
        ]
        return (
            ContentTable.of("Rules", "rule, number", RULE_NUMBERS),
            ContentTable.of(
                "Attributes",
                "name, a pushed bane costs",
                [(a.name, a.cost) for a in self.attributes.values()],
            ),
            ContentTable.of(
                "Skills",
                "name, attribute, summary",
                [(s.name, s.attribute, s.summary) for s in self.skills.values()],
            ),
            ContentTable.of(
                "Specialties", "name, effect, what it does, times, toggle key", specialties
            ),
            ContentTable.of("Situations", "key, name, modifier, skills", situations),
            ContentTable.of(
                "Difficulty levels",
                "key, name, modifier",
                [(d.key, d.name, f"{d.value:+d}") for d in self.difficulty.values()],
            ),
        )

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
    """A content entry by name, matched case- and separator-blind; a miss names the field and
    what exists."""
    try:
        return found[key_of(name)]
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
