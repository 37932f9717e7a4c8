"""Ghostburn content as data: the DL ladder, outcome charts, abilities, skills and tricks.

Built-in files and a game master's homebrew files go through the same pydantic
models and the same cross-checks, then merge by key (a homebrew ladder replaces
the built-in one whole, since a ladder only makes sense as a unit).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from rulebound.core.errors import ContentError, InvalidInput
from rulebound.core.keys import lookup
from rulebound.rulesets.content import load_file, load_packaged
from rulebound.rulesets.contract import ContentTable
from rulebound.rulesets.ghostburn.chart import Band, Chart
from rulebound.rulesets.ghostburn.ladder import MAX_DL, MIN_DL, Ladder, Level
from rulebound.rulesets.ghostburn.rules import RULE_NUMBERS

Key = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*$", max_length=40)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
Summary = Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]

PACKAGE = "rulebound.rulesets.ghostburn"
BUILT_IN_FILES = ("ladder.toml", "charts.toml", "skills.toml", "tricks.toml")


class Strict(BaseModel):
    """Frozen, and an unknown key is an error: content files, sheets and stored requests."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class LevelSpec(Strict):
    name: Name
    value: int = Field(ge=MIN_DL, le=MAX_DL)
    known: bool = False
    note: Summary = ""


class BandSpec(Strict):
    key: Key
    label: Name
    from_level: int | None = Field(default=None, ge=-10, le=10)
    outcome: Summary


class ChartSpec(Strict):
    key: Key
    name: Name
    summary: Summary = ""
    bands: tuple[BandSpec, ...] = Field(min_length=2)

    @model_validator(mode="after")
    def _valid_chart(self) -> Self:
        try:
            self.to_chart()
        except InvalidInput as exc:
            raise ValueError(f"bands: expected {exc.expected}") from None
        return self

    def to_chart(self) -> Chart:
        bands = tuple(Band(b.key, b.label, b.from_level, b.outcome) for b in self.bands)
        return Chart(self.key, bands)


class AbilitySpec(Strict):
    key: Key
    name: Name
    known: bool = False


class SkillSpec(Strict):
    key: Key
    name: Name
    ability: Key
    known: bool = False
    summary: Summary = ""


class TrickKind(StrEnum):
    CORE = "core"
    SIGNATURE = "signature"


class TrickSpec(Strict):
    key: Key
    name: Name
    skill: Key
    kind: TrickKind = TrickKind.CORE
    dl: Name | int | None = None
    dl_trait: Key | None = None
    chart: Key = "default"
    outcomes: dict[Key, Summary] = Field(default_factory=dict)
    summary: Summary = ""

    @model_validator(mode="after")
    def _one_dl_source(self) -> Self:
        if (self.dl is None) == (self.dl_trait is None):
            raise ValueError("give exactly one of dl (a level name or number) and dl_trait")
        return self


class ContentFile(Strict):
    """One TOML file; every section is optional so homebrew can add just a trick."""

    levels: tuple[LevelSpec, ...] = ()
    abilities: tuple[AbilitySpec, ...] = ()
    skills: tuple[SkillSpec, ...] = ()
    charts: tuple[ChartSpec, ...] = ()
    tricks: tuple[TrickSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class GhostburnContent:
    """Everything merged and cross-checked; the roller reads only this."""

    ladder: Ladder
    levels: tuple[LevelSpec, ...]
    abilities: Mapping[str, AbilitySpec]
    skills: Mapping[str, SkillSpec]
    charts: Mapping[str, Chart]
    tricks: Mapping[str, TrickSpec]

    def skill(self, key: str) -> SkillSpec:
        return lookup(self.skills, key, "skill")

    def ability(self, key: str) -> AbilitySpec:
        return lookup(self.abilities, key, "ability")

    def trick(self, key: str) -> TrickSpec:
        return lookup(self.tricks, key, "trick")

    def chart(self, key: str) -> Chart:
        return lookup(self.charts, key, "chart")

    def tricks_for(self, skill: str) -> tuple[TrickSpec, ...]:
        return tuple(t for t in self.tricks.values() if t.skill == skill)

    def dl_text(self, trick: TrickSpec) -> str:
        """Where a trick's DL comes from: "Moderate (14)", or "from the target's gap"."""
        if trick.dl is None:
            return f"from the target's {trick.dl_trait}"
        value = self.ladder.parse("dl", trick.dl)
        level = self.ladder.at(value)
        return f"{level.name} ({value})" if level else str(value)

    def tables(self) -> tuple[ContentTable, ...]:
        """The DL ladder with its numbers, abilities, skills with their primary ability, tricks
        and charts: what a homebrew file can add to or replace."""
        known = {True: "yes", False: "assumed"}
        levels = [(v.name, str(v.value), known[v.known], v.note) for v in self.levels]
        abilities = [(a.key, a.name, known[a.known]) for a in self.abilities.values()]
        skills = [(s.key, s.name, s.ability, s.summary) for s in self.skills.values()]
        tricks = [
            (t.key, t.name, t.skill, t.kind.value, self.dl_text(t), t.chart, t.summary)
            for t in self.tricks.values()
        ]
        bands = [
            (key, b.key, b.label, _starts(b.from_level), b.outcome)
            for key, chart in self.charts.items()
            for b in chart.bands
        ]
        return (
            ContentTable.of("Rules", "rule, number", RULE_NUMBERS),
            ContentTable.of("DL ladder", "level, DL, from the rules, note", levels),
            ContentTable.of("Abilities", "key, name, from the rules", abilities),
            ContentTable.of("Skills", "key, name, primary ability, summary", skills),
            ContentTable.of("Tricks", "key, name, skill, kind, DL, chart, summary", tricks),
            ContentTable.of("Outcome charts", "chart, band, label, starts, outcome", bands),
        )


def _starts(level: int | None) -> str:
    if level is None:
        return "below every other band"
    return "at the DL" if level == 0 else f"{level:+d} level(s) from the DL"


def assemble(files: Iterable[tuple[str, ContentFile]]) -> GhostburnContent:
    """Merge files in order (later keys win), then check every cross-reference."""
    levels: tuple[LevelSpec, ...] = ()
    abilities: dict[str, AbilitySpec] = {}
    skills: dict[str, tuple[str, SkillSpec]] = {}
    charts: dict[str, ChartSpec] = {}
    tricks: dict[str, tuple[str, TrickSpec]] = {}
    ladder_from = "content"
    for source, file in files:
        if file.levels:
            levels, ladder_from = file.levels, source
        abilities.update((a.key, a) for a in file.abilities)
        skills.update((s.key, (source, s)) for s in file.skills)
        charts.update((c.key, c) for c in file.charts)
        tricks.update((t.key, (source, t)) for t in file.tricks)
    try:
        ladder = Ladder(tuple(Level(level.name, level.value) for level in levels))
    except InvalidInput as exc:
        raise ContentError.of(
            ladder_from, InvalidInput("levels", exc.value, exc.expected)
        ) from None
    for source, skill in skills.values():
        _refer(source, f"skills.{skill.key}.ability", skill.ability, abilities)
    for source, trick in tricks.values():
        _refer(source, f"tricks.{trick.key}.skill", trick.skill, skills)
        chart = charts.get(trick.chart)
        _refer(source, f"tricks.{trick.key}.chart", trick.chart, charts)
        assert chart is not None
        for band in trick.outcomes:
            _refer(source, f"tricks.{trick.key}.outcomes", band, {b.key: b for b in chart.bands})
        if trick.dl is not None:
            try:
                ladder.parse(f"tricks.{trick.key}.dl", trick.dl)
            except InvalidInput as exc:
                problem = InvalidInput(
                    exc.field, exc.value, f"{exc.expected} (ladder from {ladder_from})"
                )
                raise ContentError.of(source, problem) from None
    return GhostburnContent(
        ladder=ladder,
        levels=levels,
        abilities=abilities,
        skills={key: skill for key, (_, skill) in skills.items()},
        charts={key: spec.to_chart() for key, spec in charts.items()},
        tricks={key: trick for key, (_, trick) in tricks.items()},
    )


def _refer(source: str, field: str, key: str, table: Mapping[str, object]) -> None:
    if key not in table:
        raise ContentError.unknown(source, field, key, table)


def _packaged() -> list[tuple[str, ContentFile]]:
    return [
        (f"{PACKAGE}/data/{name}", load_packaged(PACKAGE, name, ContentFile))
        for name in BUILT_IN_FILES
    ]


@cache
def builtin_content() -> GhostburnContent:
    return assemble(_packaged())


def load_content(homebrew: Iterable[Path] = ()) -> GhostburnContent:
    """The built-in content with a game master's files merged on top, in order."""
    extra = [(str(path), load_file(path, ContentFile)) for path in homebrew]
    return assemble(_packaged() + extra) if extra else builtin_content()
