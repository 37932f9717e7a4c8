"""Gear repair: a Crafting roll restores a point per success, and a failure sets a new ceiling."""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.empty_reach.character import Character, GearItem
from rulebound.rulesets.empty_reach.roll import EmptyReachResult


@dataclass(frozen=True, slots=True)
class RepairOutcome:
    item_before: GearItem
    item_after: GearItem
    restored: int

    def describe(self) -> str:
        after = self.item_after
        if after.destroyed:
            return f"{after.name} is destroyed: the repair failed at gear bonus 0"
        if self.restored:
            return f"{after.name} restored by {self.restored} to {after.bonus}/{after.max_bonus}"
        return f"{after.name} repair failed: {after.bonus} is now its permanent maximum"


def repair_item(item: GearItem, crafting: EmptyReachResult) -> RepairOutcome:
    """Apply a finished Crafting roll to an item."""
    if crafting.check.request.skill not in (None, "Crafting"):
        raise InvalidInput("crafting", crafting.check.request.skill, "a Crafting roll")
    if item.destroyed:
        raise RuleViolation("destroyed gear", f"{item.name} is destroyed and cannot be repaired")
    if crafting.successes:
        bonus = min(item.max_bonus, item.bonus + crafting.successes)
        after = item.model_copy(update={"bonus": bonus})
        return RepairOutcome(item, after, bonus - item.bonus)
    if item.bonus == 0:
        return RepairOutcome(item, item.model_copy(update={"destroyed": True}), 0)
    return RepairOutcome(item, item.model_copy(update={"max_bonus": item.bonus}), 0)


def repair(
    character: Character, gear: str, crafting: EmptyReachResult
) -> tuple[Character, RepairOutcome]:
    outcome = repair_item(character.gear_item(gear), crafting)
    return character.replace_gear(outcome.item_after), outcome
