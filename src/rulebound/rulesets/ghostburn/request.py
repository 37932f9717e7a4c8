"""A check request: every candidate bonus, the DL and the chart, resolved before the roll.

Resolving first means the roller and the odds engine see the same numbers, and
every error about the sheet, the trick or the DL surfaces before any die is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StringConstraints, ValidationError

from rulebound.core.canonical import json_copy
from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.keys import key_of
from rulebound.core.limits import DEFAULT_LIMITS, Limits, capped_list
from rulebound.rulesets.content import input_error
from rulebound.rulesets.ghostburn.character import (
    MAX_LUCK_POINTS,
    Character,
    check_character,
    parse_character,
    require_known_trick,
)
from rulebound.rulesets.ghostburn.chart import Chart
from rulebound.rulesets.ghostburn.content import GhostburnContent, Strict, TrickSpec
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.options import DEFAULT_OPTIONS, LADDER_RULE, VARIANTS, Options
from rulebound.rulesets.ghostburn.rules import (
    Bonus,
    BonusKind,
    BonusLine,
    stacked,
    stacked_total,
)
from rulebound.rulesets.variants import resolve

IMPROVISED = "improvised"


@dataclass(frozen=True, slots=True)
class TrickUse:
    key: str | None
    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class Substitution:
    """The GM called for ``used`` instead of the skill's primary ability."""

    primary: str
    used: str


IMPROVISED_USE = TrickUse(None, "improvised", IMPROVISED)


@dataclass(frozen=True, slots=True)
class CheckRequest:
    candidates: tuple[Bonus, ...]
    difficulty: Difficulty
    chart: Chart
    skill: str | None = None
    trick: TrickUse | None = None
    substitution: Substitution | None = None
    roller: str | None = None
    pool: LuckPool | None = None
    """The roller's Luck Points and Luck Bonus when rolling, if known (it decides the offer)."""
    set_aside: tuple[str, ...] = ()
    """Items on the sheet the character is not using (``gear:<name>``, ``aug:<name>``)."""

    def __post_init__(self) -> None:
        abilities = [b for b in self.candidates if b.kind is BonusKind.ABILITY]
        if len(abilities) != 1:
            raise InvalidInput("ability", len(abilities), "exactly one ability score per roll")
        if any(b.kind is BonusKind.LUCK for b in self.candidates):
            raise InvalidInput("bonus", "luck", "no luck bonus before the roll; spend it after")

    @property
    def bonuses(self) -> tuple[BonusLine, ...]:
        return stacked(self.candidates)[0]

    @property
    def modifier(self) -> int:
        return stacked_total(self.candidates)


@dataclass(frozen=True, slots=True)
class LuckPool:
    """Luck Points to spend and the size of one Luck Bonus (the sheet's, or a raw check's)."""

    points: int
    bonus: int

    def __post_init__(self) -> None:
        if not 0 <= self.points <= MAX_LUCK_POINTS:
            raise InvalidInput("luck_points", self.points, f"0 to {MAX_LUCK_POINTS}")
        check_luck_bonus(self.bonus)

    @staticmethod
    def of(character: Character) -> LuckPool:
        return LuckPool(character.luck_points, character.luck_bonus)


def check_luck_bonus(bonus: int, limits: Limits = DEFAULT_LIMITS) -> int:
    """A Luck Bonus is a bonus like the others: from 1 up to the limit every bonus keeps."""
    if not 1 <= bonus <= limits.max_modifier:
        raise InvalidInput("luck_bonus", bonus, f"a Luck Bonus from 1 to {limits.max_modifier}")
    return bonus


def _checked(value: int, field: str, limits: Limits, low: int = 0) -> int:
    if not low <= value <= limits.max_modifier:
        raise LimitExceeded(field, value, limits.max_modifier, low=low)
    return value


def raw_candidates(
    *,
    ability_score: int = 0,
    skill_bonus: int = 0,
    gear: Iterable[tuple[str, int]] = (),
    augs: Iterable[tuple[str, int]] = (),
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[Bonus, ...]:
    """The candidate bonuses of a check from bare numbers (one ability score, always)."""
    low = -limits.max_modifier
    candidates = [
        Bonus(
            BonusKind.ABILITY,
            "ability score",
            _checked(ability_score, "ability_score", limits, low),
        )
    ]
    if skill_bonus:
        candidates.append(
            Bonus(BonusKind.SKILL, "skill bonus", _checked(skill_bonus, "skill_bonus", limits))
        )
    for kind, items in ((BonusKind.GEAR, tuple(gear)), (BonusKind.AUG, tuple(augs))):
        limits.check_items(kind.value, len(items))
        candidates += [
            Bonus(kind, name, _checked(v, f"{kind.value}.{name}", limits)) for name, v in items
        ]
    return tuple(candidates)


def raw_request(
    content: GhostburnContent,
    *,
    dl: str | int,
    ability_score: int = 0,
    skill_bonus: int = 0,
    gear: Iterable[tuple[str, int]] = (),
    augs: Iterable[tuple[str, int]] = (),
    dl_shift: int = 0,
    chart: str = "default",
    options: Options = DEFAULT_OPTIONS,
    limits: Limits = DEFAULT_LIMITS,
    pool: LuckPool | None = None,
) -> CheckRequest:
    """A check from bare numbers, for a table without character files."""
    candidates = raw_candidates(
        ability_score=ability_score, skill_bonus=skill_bonus, gear=gear, augs=augs, limits=limits
    )
    difficulty, check_chart = difficulty_for(
        content, None, dl=dl, chart=chart, dl_shift=dl_shift, options=options
    )
    request = CheckRequest(candidates, difficulty, check_chart, pool=pool)
    limits.check_modifier("modifier", request.modifier)
    return request


def character_request(
    character: Character,
    content: GhostburnContent,
    *,
    skill: str | None = None,
    trick: str | None = None,
    dl: str | int | None = None,
    ability: str | None = None,
    dl_shift: int = 0,
    traits: Mapping[str, str | int] | None = None,
    chart: str | None = None,
    options: Options = DEFAULT_OPTIONS,
    limits: Limits = DEFAULT_LIMITS,
) -> CheckRequest:
    """A check for a character: a known trick, or an improvised one with a DL the GM sets."""
    check_character(character, content)
    spec = content.trick(trick) if trick else None
    skill_key = _skill_for(skill, spec, content)
    if spec:
        require_known_trick(character, spec.key, spec.kind)
    difficulty, check_chart = difficulty_for(
        content,
        spec,
        dl=dl,
        chart=chart,
        traits=traits,
        dl_shift=dl_shift,
        options=options,
        source="set by the GM",
    )
    use = TrickUse(spec.key, spec.name, spec.kind.value) if spec else IMPROVISED_USE
    candidates, substitution = skill_candidates(character, content, skill_key, ability)
    request = CheckRequest(
        candidates,
        difficulty,
        check_chart,
        skill_key,
        use,
        substitution,
        character.name,
        LuckPool.of(character),
    )
    limits.check_modifier("modifier", request.modifier)
    return request


def difficulty_for(
    content: GhostburnContent,
    spec: TrickSpec | None,
    *,
    dl: str | int | None,
    chart: str | None,
    dl_shift: int,
    options: Options,
    traits: Mapping[str, str | int] | None = None,
    source: str = "given directly",
) -> tuple[Difficulty, Chart]:
    """The DL and chart of a check: the trick's own, or the GM's for an improvised one."""
    if spec is not None:
        if dl is not None or chart is not None:
            field, value = ("dl", dl) if dl is not None else ("chart", chart)
            expected = f"nothing: trick {spec.key!r} sets it; use dl_shift (--dl-shift) to move it"
            raise InvalidInput(field, value, expected)
        base, source = trick_dl(spec, content, traits or {})
        the_chart = content.chart(spec.chart).with_outcomes(spec.outcomes)
    elif dl is None:
        expected = "a DL (a level name or number) for an improvised trick, or a trick that sets one"
        raise InvalidInput("dl", None, expected)
    else:
        base, the_chart = content.ladder.parse("dl", dl), content.chart(chart or "default")
    difficulty = Difficulty.make(base, content.ladder, options, shift=dl_shift, source=source)
    return difficulty, the_chart


def skill_candidates(
    character: Character, content: GhostburnContent, skill: str, ability: str | None = None
) -> tuple[tuple[Bonus, ...], Substitution | None]:
    """Every bonus the sheet offers this skill, before stacking picks one of each kind."""
    primary = character.primary_ability(skill, content)
    used = content.ability(ability or primary).key
    substitution = Substitution(primary, used) if used != primary else None
    note = f"GM called for it instead of {content.ability(primary).name}" if substitution else ""
    candidates = [Bonus(BonusKind.ABILITY, content.ability(used).name, character.score(used), note)]
    if skill in character.skills:
        bonus = character.skill_bonus(skill)
        candidates.append(Bonus(BonusKind.SKILL, content.skill(skill).name, bonus))
    for kind, items in ((BonusKind.GEAR, character.gear), (BonusKind.AUG, character.augs)):
        candidates += [Bonus(kind, item.name, item.bonus) for item in items if item.skill == skill]
    return tuple(candidates), substitution


def skill_total(character: Character, content: GhostburnContent, skill: str) -> int | None:
    """What the sheet adds to a roll of the skill after stacking; None without the score."""
    if character.primary_ability(skill, content) not in character.abilities:
        return None
    return stacked_total(skill_candidates(character, content, skill)[0])


def _skill_for(skill: str | None, spec: TrickSpec | None, content: GhostburnContent) -> str:
    if spec is None:
        if skill is None:
            raise InvalidInput("skill", None, "a skill key: " + ", ".join(sorted(content.skills)))
        return content.skill(skill).key
    if skill is not None and content.skill(skill).key != spec.skill:
        raise InvalidInput("skill", skill, f"{spec.skill!r}, the skill of trick {spec.key!r}")
    return spec.skill


def trick_dl(
    spec: TrickSpec, content: GhostburnContent, traits: Mapping[str, str | int]
) -> tuple[int, str]:
    """The DL a trick names, or reads from the target's trait; and a note of where from."""
    if spec.dl is not None:
        return content.ladder.parse("dl", spec.dl), f"from trick {spec.name}"
    trait = spec.dl_trait
    assert trait is not None
    traits = {key_of(name): value for name, value in traits.items()}
    if trait not in traits:
        raise InvalidInput(
            f"traits.{trait}",
            None,
            f"the target's {trait} as a level name or number (trick {spec.key!r} reads its DL)",
        )
    return content.ladder.parse(f"traits.{trait}", traits[trait]), f"from the target's {trait}"


# --- the request as JSON: what a roll record stores ------------------------------------


ITEM_NAME_LENGTH = 60


class _Item(Strict):
    name: str = Field(min_length=1, max_length=ITEM_NAME_LENGTH)
    bonus: int


class CheckPayload(Strict):
    """A character check (``character`` plus skill/trick) or a raw one (bonuses plus ``dl``)."""

    character: dict[str, Any] | None = None
    skill: str | None = None
    trick: str | None = None
    ability: str | None = None
    chart: str | None = None
    dl: str | int | None = None
    dl_shift: int = 0
    traits: dict[str, str | int] = Field(default_factory=dict)
    ability_score: int = 0
    skill_bonus: int = 0
    gear: Annotated[tuple[_Item, ...], BeforeValidator(capped_list)] = ()
    augs: Annotated[tuple[_Item, ...], BeforeValidator(capped_list)] = ()
    luck_points: int | None = None
    luck_bonus: int | None = None
    variants: dict[str, str] = Field(default_factory=dict)


_RAW_ONLY = ("ability_score", "skill_bonus", "gear", "augs", "luck_points", "luck_bonus")
_CHARACTER_ONLY = ("skill", "trick", "ability", "traits")
_CHOSEN = (*_CHARACTER_ONLY, "dl", "dl_shift", "chart")
"""The payload's choices a check for a character takes (``character_request``)."""


def request_from_payload(
    payload: Mapping[str, object], content: GhostburnContent, ladder_rule: int = LADDER_RULE
) -> CheckRequest:
    """Validate a JSON request (a roll record's ``request``), naming every bad field;
    ``ladder_rule``: the record's (``options.LADDER_RULE``)."""
    try:
        data = CheckPayload.model_validate(dict(payload))
    except ValidationError as exc:
        raise input_error(exc, prefix="request") from None
    options = replace(
        Options.from_mapping(resolve(VARIANTS, data.variants)), ladder_rule=ladder_rule
    )
    if data.character is not None:
        _reject_set(data, _RAW_ONLY, "with a character, the sheet supplies the bonuses")
        chosen = {name: getattr(data, name) for name in _CHOSEN}
        character = parse_character(data.character)
        return character_request(character, content, options=options, **chosen)
    _reject_set(data, _CHARACTER_ONLY, "a raw check takes bonuses and a dl, no character fields")
    if data.dl is None:
        raise InvalidInput("dl", None, "a DL (a level name or number) for a raw check")
    pool = None if data.luck_bonus is None else LuckPool(data.luck_points or 0, data.luck_bonus)
    return raw_request(
        content,
        dl=data.dl,
        ability_score=data.ability_score,
        skill_bonus=data.skill_bonus,
        gear=[(item.name, item.bonus) for item in data.gear],
        augs=[(item.name, item.bonus) for item in data.augs],
        dl_shift=data.dl_shift,
        chart=data.chart or "default",
        options=options,
        pool=pool,
    )


def _reject_set(data: CheckPayload, fields: tuple[str, ...], why: str) -> None:
    for field in fields:
        if field in data.model_fields_set:
            raise InvalidInput(field, getattr(data, field), f"nothing: {why}")


AsideItem = Annotated[str, StringConstraints(pattern=r"^(gear|aug):.+$", max_length=80)]


def _whole(value: object) -> object:
    """A rule is named by a whole number: 2.0 or true would be read as 2 or 1 here, and not
    so by ``Game.rules_named``."""
    if type(value) is not int:
        raise ValueError("a whole number")
    return value


class _RollRecord(Strict):
    request: dict[str, Any]
    set_aside: tuple[AsideItem, ...] = ()
    ladder: Annotated[Literal[1, 2], BeforeValidator(_whole)] = 1
    """The ladder rule it was rolled under: a record from before it was named, the first."""


@dataclass(frozen=True, slots=True)
class Check:
    """A check as its roll record stores it: the JSON request, and what it resolves to."""

    payload: Mapping[str, Any]
    request: CheckRequest

    def dump(self) -> dict[str, Any]:
        rule = self.request.difficulty.options.ladder_rule
        return {
            "request": json_copy(dict(self.payload)),
            "set_aside": list(self.request.set_aside),
        } | ({"ladder": rule} if rule != 1 else {})  # a first-rule record stays as it was

    @staticmethod
    def load(data: Mapping[str, Any], content: GhostburnContent) -> Check:
        """A check from a roll record less its kind and draws: ``{"request", "set_aside"}``."""
        try:
            record = _RollRecord.model_validate(dict(data))
        except ValidationError as exc:
            raise input_error(exc, prefix="record") from None
        return make_check(record.request, content, record.set_aside, record.ladder)


def make_check(
    payload: Mapping[str, Any],
    content: GhostburnContent,
    set_aside: Sequence[str] = (),
    ladder_rule: int = LADDER_RULE,
) -> Check:
    request = request_from_payload(payload, content, ladder_rule)
    if set_aside:
        request = replace(request, set_aside=tuple(set_aside))
    return Check(json_copy(dict(payload)), request)


def _plain_items(items: Any) -> bool:
    """A form's items the JSON request's own validation would take as they are."""
    return (
        isinstance(items, list)
        and len(items) <= DEFAULT_LIMITS.max_list_items
        and all(
            type(item) is dict
            and item.keys() == {"name", "bonus"}
            and type(item["name"]) is str
            and 1 <= len(item["name"]) <= ITEM_NAME_LENGTH
            and type(item["bonus"]) is int
            for item in items
        )
    )


def form_check(
    payload: dict[str, Any], variants: Mapping[str, str], content: GhostburnContent
) -> Check:
    """A raw check from a form's values, which the game's fields have typed already.

    The JSON request the check keeps is ``payload`` (built by the caller for this check
    alone, so it is not copied); when every value is one the JSON request's validation
    takes unchanged, that validation is skipped, and anything else goes through
    ``make_check``, so an error reads exactly as for the same JSON request.
    """
    luck = (payload.get("luck_points"), payload.get("luck_bonus"))
    plain = (
        type(payload.get("dl")) in (str, int)
        and type(payload.get("dl_shift")) is int
        and type(payload.get("chart")) is str
        and type(payload.get("ability_score")) is int
        and type(payload.get("skill_bonus")) is int
        and all(v is None or type(v) is int for v in luck)
        and _plain_items(payload.get("gear"))
        and _plain_items(payload.get("augs"))
        and payload.get("variants") == variants
        and len(variants) == len(VARIANTS)
        and all(variants.get(v.key) in v.choices for v in VARIANTS)
        and payload.keys() <= _FORM_KEYS
    )
    if not plain:
        return make_check(payload, content)
    pool = None if luck[1] is None else LuckPool(luck[0] or 0, luck[1])
    request = raw_request(
        content,
        dl=payload["dl"],
        ability_score=payload["ability_score"],
        skill_bonus=payload["skill_bonus"],
        gear=[(item["name"], item["bonus"]) for item in payload["gear"]],
        augs=[(item["name"], item["bonus"]) for item in payload["augs"]],
        dl_shift=payload["dl_shift"],
        chart=payload["chart"] or "default",
        options=Options.from_mapping(variants),  # every variant, each a known choice
        pool=pool,
    )
    return Check(payload, request)


_FORM_KEYS = {"dl", "dl_shift", "chart", *_RAW_ONLY, "variants"}
