"""Spending a Luck Point: a new result and a smaller pool, made together or not at all.

The rule text lets a player add one Luck Bonus after seeing the result; it does
not say how large it is, so the size travels with the pool (the sheet's value).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulebound.core.errors import RuleViolation
from rulebound.core.trace import Modifier
from rulebound.rulesets.ghostburn.character import Character
from rulebound.rulesets.ghostburn.request import LuckPool, check_luck_bonus
from rulebound.rulesets.ghostburn.roll import GhostburnResult
from rulebound.rulesets.ghostburn.rules import BonusKind, classify


@dataclass(frozen=True, slots=True)
class LuckSpend:
    result: GhostburnResult
    pool: LuckPool


def with_luck(result: GhostburnResult, bonus: int) -> GhostburnResult:
    """The result as it would stand with the bonus added; the parent is left untouched."""
    if result.luck is not None:
        raise RuleViolation("luck", "a roll takes at most one Luck Bonus, and this one has it")
    check_luck_bonus(bonus)
    total = result.total + bonus
    request = result.request
    return replace(
        result,
        modifiers=(*result.modifiers, Modifier("Luck Point", bonus, BonusKind.LUCK.value)),
        total=total,
        band=classify(total, request.difficulty, request.chart),
        parent=result,
    )


def spend_luck(result: GhostburnResult, pool: LuckPool) -> LuckSpend:
    if pool.points < 1:
        raise RuleViolation("luck", "no Luck Points left to spend")
    return LuckSpend(with_luck(result, pool.bonus), LuckPool(pool.points - 1, pool.bonus))


@dataclass(frozen=True, slots=True)
class CharacterLuckSpend:
    result: GhostburnResult
    character: Character


def spend_character_luck(result: GhostburnResult, character: Character) -> CharacterLuckSpend:
    roller = result.request.roller
    if roller is not None and roller != character.name:
        raise RuleViolation("luck", f"the roll is {roller}'s, not {character.name}'s")
    spent = spend_luck(result, LuckPool.of(character))
    return CharacterLuckSpend(spent.result, character.with_luck_points(spent.pool.points))
