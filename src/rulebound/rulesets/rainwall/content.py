"""Rainwall's traits and skills as data a game master can edit or extend.

The text names only one trait and one skill; the rest of the built-in catalogue is a few
examples of ours, marked ``example``. A sheet may hold its own traits and skills besides
(``character``), and a homebrew file uses the same models and the same checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rulebound.core.errors import ContentError
from rulebound.core.keys import find_key
from rulebound.rulesets.content import load_file, load_packaged
from rulebound.rulesets.contract import ContentTable
from rulebound.rulesets.rainwall.rules import DEGREE_RULES, RULE_NUMBERS

PACKAGE = "rulebound.rulesets.rainwall"
Name = Annotated[str, Field(min_length=1, max_length=60)]
Summary = Annotated[str, Field(max_length=200)]


class TraitEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    summary: Summary = ""
    example: bool = False
    """Ours, not the text's: on a ready-made sheet, labelled as an example."""


class SkillEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    trait: Name
    summary: Summary = ""
    example: bool = False
    """Ours, not the text's: on a ready-made sheet, labelled as an example."""


class ContentFile(BaseModel):
    """One TOML file: a list of traits, a list of skills, or both (a homebrew file)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    traits: tuple[TraitEntry, ...] = ()
    skills: tuple[SkillEntry, ...] = ()

    @model_validator(mode="after")
    def _unique_names(self) -> ContentFile:
        for kind, names in (
            ("traits", [t.name for t in self.traits]),
            ("skills", [s.name for s in self.skills]),
        ):
            duplicates = sorted({n for n in names if names.count(n) > 1})
            if duplicates:
                raise ValueError(f"{kind} named more than once: {', '.join(duplicates)}")
        return self


class Catalogue(BaseModel):
    """Traits and skills together, checked so every skill's trait exists."""

    model_config = ConfigDict(frozen=True)

    traits: dict[str, TraitEntry]
    skills: dict[str, SkillEntry]

    def trait_name(self, given: str) -> str | None:
        """The trait ``given`` names, matched case- and separator-insensitively."""
        return find_key(self.traits, given)

    def skill_name(self, given: str) -> str | None:
        return find_key(self.skills, given)

    def spelled(self, sheet: Mapping[str, Any]) -> dict[str, Any]:
        """A sheet with its trait and skill names as the catalogue spells them."""
        named = dict(sheet)
        for group, spell in (("traits", self.trait_name), ("skills", self.skill_name)):
            if isinstance(named.get(group), Mapping):
                named[group] = {spell(str(k)) or k: v for k, v in named[group].items()}
        return named

    def merged(self, extra: ContentFile, source: str) -> Catalogue:
        """A homebrew file adds entries or replaces same-named ones."""
        traits = {**self.traits, **{t.name: t for t in extra.traits}}
        skills = {**self.skills, **{s.name: s for s in extra.skills}}
        return _checked(Catalogue(traits=traits, skills=skills), source)

    def tables(self) -> tuple[ContentTable, ...]:
        """Everything ``rulebound content rainwall`` lists: the rules' numbers and degrees,
        the traits and the skills."""
        degrees = [(d.label, when) for d, when in DEGREE_RULES.items()]
        return (
            ContentTable.of("Rules", "rule, number", RULE_NUMBERS),
            ContentTable.of("Degrees (the default readings)", "degree, when", degrees),
            ContentTable.of(
                "Traits",
                "name, summary, example",
                [(t.name, t.summary, _source(t.example)) for t in self.traits.values()],
            ),
            ContentTable.of(
                "Skills",
                "name, trait, summary, example",
                [(s.name, s.trait, s.summary, _source(s.example)) for s in self.skills.values()],
            ),
        )


def _source(example: bool) -> str:
    return "example (ours, not the text's)" if example else ""


def _checked(catalogue: Catalogue, source: str) -> Catalogue:
    for skill in catalogue.skills.values():
        if skill.trait not in catalogue.traits:
            raise ContentError.unknown(
                source, f"skills.{skill.name}.trait", skill.trait, catalogue.traits
            )
    return catalogue


@cache
def builtin_catalogue() -> Catalogue:
    traits = load_packaged(PACKAGE, "traits.toml", ContentFile).traits
    skills = load_packaged(PACKAGE, "skills.toml", ContentFile).skills
    catalogue = Catalogue(traits={t.name: t for t in traits}, skills={s.name: s for s in skills})
    return _checked(catalogue, f"{PACKAGE}/data")


def load_catalogue(path: Path | None = None) -> Catalogue:
    """The built-in catalogue, extended by a homebrew TOML file when one is given."""
    base = builtin_catalogue()
    if path is None:
        return base
    return base.merged(load_file(path, ContentFile), str(path))
