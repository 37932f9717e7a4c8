"""A Ghostburn character sheet: what a check needs to know about the roller.

The sheet is validated in two steps: its shape on load (pydantic), then its
references (skills, abilities, signature tricks) against the loaded content, so
a typo names the field and the accepted keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.rulesets.content import input_error
from rulebound.rulesets.ghostburn.content import GhostburnContent, Key, TrickKind

_CAP = DEFAULT_LIMITS.max_modifier
Score = Annotated[int, Field(ge=-_CAP, le=_CAP)]
BonusValue = Annotated[int, Field(ge=0, le=_CAP)]
ItemName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
MAX_LUCK_POINTS = 99


class _Sheet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Item(_Sheet):
    """A piece of gear or an aug: one bonus to one skill."""

    name: ItemName
    skill: Key
    bonus: BonusValue


class SkillEntry(_Sheet):
    bonus: BonusValue = 0
    ability: Key | None = None
    """The primary ability, when the sheet differs from the content's default."""


class Character(_Sheet):
    name: ItemName
    abilities: dict[Key, Score]
    skills: dict[Key, SkillEntry] = Field(default_factory=dict)
    gear: tuple[Item, ...] = ()
    augs: tuple[Item, ...] = ()
    luck_points: int = Field(ge=0, le=MAX_LUCK_POINTS)
    luck_bonus: int = Field(ge=1, le=_CAP)
    """How much one Luck Point adds; the rule text gives no size, so the sheet does."""
    signature_tricks: tuple[Key, ...] = ()

    def skill_bonus(self, skill: str) -> int:
        entry = self.skills.get(skill)
        return entry.bonus if entry else 0

    def primary_ability(self, skill: str, content: GhostburnContent) -> str:
        entry = self.skills.get(skill)
        if entry and entry.ability:
            return entry.ability
        return content.skill(skill).ability

    def score(self, ability: str) -> int:
        if ability not in self.abilities:
            raise InvalidInput(
                "ability",
                ability,
                "an ability on the sheet: " + ", ".join(sorted(self.abilities)),
            )
        return self.abilities[ability]

    def with_luck_points(self, points: int) -> Character:
        return self.model_copy(update={"luck_points": points})


def parse_character(data: Any, where: str = "character") -> Character:
    """Validate a sheet, reporting the first bad field as ``InvalidInput``."""
    if not isinstance(data, Mapping):
        raise InvalidInput(where, data, "a JSON object with name, abilities, luck_points...")
    try:
        return Character.model_validate(data)
    except ValidationError as exc:
        raise input_error(exc, prefix=where) from None


def check_character(character: Character, content: GhostburnContent) -> Character:
    """Check every key on the sheet against the content; return the sheet unchanged."""
    for ability in character.abilities:
        _known("character.abilities", ability, content.abilities)
    for skill, entry in character.skills.items():
        _known("character.skills", skill, content.skills)
        if entry.ability:
            _known(f"character.skills.{skill}.ability", entry.ability, content.abilities)
    for kind, items in (("gear", character.gear), ("augs", character.augs)):
        for item in items:
            _known(f"character.{kind}.{item.name}.skill", item.skill, content.skills)
    for trick in character.signature_tricks:
        _known("character.signature_tricks", trick, content.tricks)
        if content.trick(trick).kind is not TrickKind.SIGNATURE:
            raise InvalidInput("character.signature_tricks", trick, "a trick of kind signature")
    return character


def require_known_trick(character: Character, trick: str, kind: TrickKind) -> None:
    if kind is TrickKind.SIGNATURE and trick not in character.signature_tricks:
        raise RuleViolation(
            "signature trick",
            f"{character.name} does not know {trick!r}; known: "
            + (", ".join(character.signature_tricks) or "none"),
        )


def _known(field: str, key: str, table: Mapping[str, object]) -> None:
    if key not in table:
        raise InvalidInput(field, key, "one of " + ", ".join(sorted(table)))
