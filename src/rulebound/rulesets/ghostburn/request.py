"""A check request: every candidate bonus, the DL and the chart, resolved before the roll.

Resolving first means the roller and the odds engine see the same numbers, and
every error about the sheet, the trick or the DL surfaces before any die is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.rulesets.ghostburn.character import Character, check_character, require_known_trick
from rulebound.rulesets.ghostburn.chart import Chart
from rulebound.rulesets.ghostburn.content import GhostburnContent, TrickSpec
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.options import DEFAULT_OPTIONS, Options
from rulebound.rulesets.ghostburn.rules import Bonus, BonusKind, BonusLine, applied_total, stack

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


@dataclass(frozen=True, slots=True)
class CheckRequest:
    candidates: tuple[Bonus, ...]
    difficulty: Difficulty
    chart: Chart
    skill: str | None = None
    trick: TrickUse | None = None
    substitution: Substitution | None = None
    roller: str | None = None

    def __post_init__(self) -> None:
        abilities = [b for b in self.candidates if b.kind is BonusKind.ABILITY]
        if len(abilities) != 1:
            raise InvalidInput("ability", len(abilities), "exactly one ability score per roll")
        if any(b.kind is BonusKind.LUCK for b in self.candidates):
            raise InvalidInput("bonus", "luck", "no luck bonus before the roll; spend it after")

    @property
    def bonuses(self) -> tuple[BonusLine, ...]:
        return stack(self.candidates)

    @property
    def modifier(self) -> int:
        return applied_total(self.bonuses)


def _checked(value: int, field: str, limits: Limits, low: int = 0) -> int:
    limits.check_modifier(field, value)
    if value < low:
        raise InvalidInput(field, value, f"at least {low}")
    return value


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
) -> CheckRequest:
    """A check from bare numbers, for a table without character files."""
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
    for kind, items in ((BonusKind.GEAR, gear), (BonusKind.AUG, augs)):
        candidates += [
            Bonus(kind, name, _checked(v, f"{kind.value}.{name}", limits)) for name, v in items
        ]
    base = content.ladder.parse("dl", dl)
    difficulty = Difficulty.make(
        base, content.ladder, options, shift=dl_shift, source="given directly"
    )
    request = CheckRequest(tuple(candidates), difficulty, content.chart(chart))
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
        if dl is not None or chart is not None:
            field, value = ("dl", dl) if dl is not None else ("chart", chart)
            raise InvalidInput(field, value, f"nothing: trick {spec.key!r} sets it; use dl_shift")
        base, source = trick_dl(spec, content, traits or {})
        use = TrickUse(spec.key, spec.name, spec.kind.value)
        check_chart = content.chart(spec.chart).with_outcomes(spec.outcomes)
    else:
        if dl is None:
            raise InvalidInput("dl", None, "a DL for an improvised trick (a level name or number)")
        base, source = content.ladder.parse("dl", dl), "set by the GM"
        use = TrickUse(None, "improvised", IMPROVISED)
        check_chart = content.chart(chart or "default")
    candidates, substitution = skill_candidates(character, content, skill_key, ability)
    difficulty = Difficulty.make(base, content.ladder, options, shift=dl_shift, source=source)
    request = CheckRequest(
        candidates, difficulty, check_chart, skill_key, use, substitution, character.name
    )
    limits.check_modifier("modifier", request.modifier)
    return request


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


def _skill_for(skill: str | None, spec: TrickSpec | None, content: GhostburnContent) -> str:
    if spec is None:
        if skill is None:
            raise InvalidInput("skill", None, "a skill key: " + ", ".join(sorted(content.skills)))
        return content.skill(skill).key
    if skill is not None and skill != spec.skill:
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
    if trait not in traits:
        raise InvalidInput(
            f"traits.{trait}",
            None,
            f"the target's {trait} as a level name or number (trick {spec.key!r} reads its DL)",
        )
    return content.ladder.parse(f"traits.{trait}", traits[trait]), f"from the target's {trait}"
