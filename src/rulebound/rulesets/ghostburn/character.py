"""A Ghostburn character sheet: what a check needs to know about the roller.

The sheet is validated in two steps: its shape on load (pydantic), then its
references (skills, abilities, signature tricks) against the loaded content, so
a typo names the field and the accepted keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, ValidationError, model_validator

from rulebound.core.errors import InvalidInput, RuleViolation, raise_all
from rulebound.core.keys import key_of
from rulebound.core.limits import DEFAULT_LIMITS, capped_list
from rulebound.rulesets.content import input_error
from rulebound.rulesets.ghostburn.content import GhostburnContent, Key, Name, Strict, TrickKind

_CAP = DEFAULT_LIMITS.max_modifier
Score = Annotated[int, Field(ge=-_CAP, le=_CAP)]
BonusValue = Annotated[int, Field(ge=0, le=_CAP)]
MAX_LUCK_POINTS = 99


class Item(Strict):
    """A piece of gear or an aug: one bonus to one skill."""

    name: Name
    skill: Key
    bonus: BonusValue


Items = Annotated[tuple[Item, ...], BeforeValidator(capped_list)]
"""Gear or augs: every roll reads each item, so the list is capped (``Limits.max_list_items``)."""


class SkillEntry(Strict):
    bonus: BonusValue = 0
    ability: Key | None = None
    """The primary ability, when the sheet differs from the content's default."""


class Character(Strict):
    name: Name
    abilities: dict[Key, Score]
    skills: dict[Key, SkillEntry] = Field(default_factory=dict)
    gear: Items = ()
    augs: Items = ()
    luck_points: int = Field(ge=0, le=MAX_LUCK_POINTS)
    luck_bonus: int = Field(ge=1, le=_CAP)
    """How much one Luck Point adds; the rule text gives no size, so the sheet does."""
    signature_tricks: tuple[Key, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _keys_as_typed(cls, data: Any) -> Any:
        """Keys as people type them: "Firearms" and "FIREARMS" are ``firearms``."""
        if not isinstance(data, Mapping):
            return data
        out = dict(data)
        for group in ("abilities", "skills"):
            if isinstance(out.get(group), Mapping):
                out[group] = {_key(k): v for k, v in out[group].items()}
        skills = out.get("skills")
        if isinstance(skills, dict):
            out["skills"] = {
                name: {**entry, "ability": _key(entry["ability"])}
                if isinstance(entry, Mapping) and "ability" in entry
                else entry
                for name, entry in skills.items()
            }
        for kind in ("gear", "augs"):
            if isinstance(out.get(kind), list | tuple):
                out[kind] = [_item_key(item) for item in out[kind]]
        if isinstance(out.get("signature_tricks"), list | tuple):
            out["signature_tricks"] = [_key(t) for t in out["signature_tricks"]]
        return out

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


def _key(given: Any) -> Any:
    return key_of(given) if isinstance(given, str) else given


def _item_key(item: Any) -> Any:
    if isinstance(item, Mapping) and isinstance(item.get("skill"), str):
        return {**item, "skill": key_of(item["skill"])}
    return item


def parse_character(data: Any, where: str = "character") -> Character:
    """Validate a sheet's shape, naming every bad field ``<where>.<path>`` (``<path>`` when
    ``where`` is empty: a sheet on its own)."""
    if not isinstance(data, Mapping):
        expected = "a JSON object with name, abilities, luck_points..."
        raise InvalidInput(where or "sheet", data, expected)
    try:
        return Character.model_validate(data)
    except ValidationError as exc:
        raise input_error(exc, root=where or "sheet", prefix=where) from None


def check_character(
    character: Character, content: GhostburnContent, where: str = "character"
) -> Character:
    """Check every key on the sheet against the content; return the sheet unchanged.

    Every unknown key is reported at once, each named ``<where>.<path>`` (just ``<path>``
    when ``where`` is empty).
    """
    at = f"{where}." if where else ""
    problems: list[InvalidInput] = []

    def known(field: str, key: str, table: Mapping[str, object]) -> bool:
        if key in table:
            return True
        problems.append(InvalidInput(at + field, key, "one of " + ", ".join(sorted(table))))
        return False

    for ability in character.abilities:
        known("abilities", ability, content.abilities)
    for skill, entry in character.skills.items():
        known("skills", skill, content.skills)
        if entry.ability:
            known(f"skills.{skill}.ability", entry.ability, content.abilities)
    for kind, items in (("gear", character.gear), ("augs", character.augs)):
        for item in items:
            known(f"{kind}.{item.name}.skill", item.skill, content.skills)
    for trick in character.signature_tricks:
        signature = known("signature_tricks", trick, content.tricks)
        if signature and content.tricks[trick].kind is not TrickKind.SIGNATURE:
            expected = "a trick of kind signature"
            problems.append(InvalidInput(at + "signature_tricks", trick, expected))
    raise_all(problems)
    return character


def load_character(data: Any, content: GhostburnContent, where: str = "character") -> Character:
    """A sheet checked for its shape, then for every key against the content."""
    return check_character(parse_character(data, where), content, where)


def require_known_trick(character: Character, trick: str, kind: TrickKind) -> None:
    if kind is TrickKind.SIGNATURE and trick not in character.signature_tricks:
        raise RuleViolation(
            "signature trick",
            f"{character.name} does not know {trick!r}; known: "
            + (", ".join(character.signature_tricks) or "none"),
        )


ITEMS = "name: skill +N, e.g. laser sight: firearms +1"


def item_lines(items: Iterable[Mapping[str, Any]]) -> str:
    """A sheet's gear or augs as text, one ``name: skill +N`` a line (``items_from_lines``)."""
    return "\n".join(f"{i['name']}: {i['skill']} +{i['bonus']}" for i in items)


def items_from_lines(text: str, field: str, content: GhostburnContent) -> list[dict[str, Any]]:
    """Gear or augs written one item a line, ``name: skill +N`` (``laser sight: firearms +1``),
    as the sheet holds them; ``field`` names the list in an error."""
    items = []
    for n, line in enumerate(filter(None, (raw.strip() for raw in text.splitlines())), 1):
        name, _, rest = (part.strip() for part in line.rpartition(":"))
        skill, _, bonus = (part.strip() for part in rest.rpartition(" "))
        if not name or not skill or not bonus.lstrip("+").isdecimal():
            raise InvalidInput(field, line, f"line {n} as {ITEMS}")
        if skill not in content.skills:
            known = ", ".join(sorted(content.skills))
            raise InvalidInput(field, line, f"line {n} naming a skill: {known}")
        items.append({"name": name, "skill": skill, "bonus": int(bonus.lstrip("+"))})
    return items
