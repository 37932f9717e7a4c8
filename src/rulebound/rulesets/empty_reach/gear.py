"""Gear repair: a Crafting roll restores a point per success, and a failure sets a new ceiling.

A repair is a full Crafting check ("a successful Crafting skill roll"): it may be pushed,
helpers and tools step it up, and a specialty that helps with the item's technology
(Engineer on steamtech) adds its +1 by itself. The request keeps the item as it stood, so
the outcome is worked out again from that after every push and lands once, with the roll.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.empty_reach.character import Character, GearItem, request_for
from rulebound.rulesets.empty_reach.check import CheckRequest, Options, RepairTarget
from rulebound.rulesets.empty_reach.roll import EmptyReachResult

CRAFTING = "Crafting"


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
    if crafting.check.request.skill not in (None, CRAFTING):
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


def repair_request(
    character: Character,
    gear: str,
    *,
    tools: str | None = None,
    helpers: int = 0,
    options: Options | None = None,
) -> CheckRequest:
    """The Crafting check that repairs ``gear``, with ``tools`` (another item) in use."""
    item = character.gear_item(gear)
    if item.destroyed:
        raise RuleViolation("destroyed gear", f"{item.name} is destroyed and cannot be repaired")
    if not item.damaged:
        raise InvalidInput(
            "gear", gear, f"a damaged item; {item.name} is at {item.bonus}/{item.max_bonus}"
        )
    if tools and character.gear_item(tools).name == item.name:
        raise InvalidInput("tools", tools, f"another item than {item.name}, the one repaired")
    target = RepairTarget(
        name=item.name, bonus=item.bonus, max_bonus=item.max_bonus, tech=item.tech
    )
    return request_for(
        character, CRAFTING, gear=tools or None, helpers=helpers, options=options, repair=target
    )


def repair_outcome(crafting: EmptyReachResult) -> RepairOutcome:
    """What the roll (pushed or not) does to the item as it stood before the roll."""
    target = crafting.check.request.repair
    if target is None:
        raise InvalidInput("crafting", crafting.check.request.skill, "a repair roll")
    before = GearItem(**target.model_dump())
    return repair_item(before, crafting)


def settle_repair(character: Character, crafting: EmptyReachResult) -> Character:
    """The sheet with the repaired item as the roll leaves it (its other fields unchanged)."""
    after = repair_outcome(crafting).item_after
    current = character.gear_item(after.name)
    fields = ("bonus", "max_bonus", "destroyed")
    return character.replace_gear(current.model_copy(update={k: getattr(after, k) for k in fields}))
