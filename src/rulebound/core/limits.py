"""Safety caps on what one request may ask for.

The caps exist to keep a roll or an odds query bounded in time and memory; they
are generous enough that no rules-legal request reaches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulebound.core.errors import LimitExceeded


@dataclass(frozen=True, slots=True)
class Limits:
    max_dice_per_roll: int = 24
    max_pool_dice: int = 320
    """Dice in one exact-odds pool (a homebrew pool): odds count faces, never rolls, so a
    pool may be far larger than a roll; the engines answer 320 dice in milliseconds."""
    max_sides: int = 1000
    max_pushes: int = 3
    max_modifier: int = 20
    max_enumeration: int = 2_000_000
    max_list_items: int = 20
    """Items in one list of a request or a sheet that every roll reads (Ghostburn's gear and
    augs): a check reads every item, so the list is bounded like the dice."""

    def check_dice(self, field: str, count: int) -> None:
        if count > self.max_dice_per_roll:
            raise LimitExceeded(field, count, self.max_dice_per_roll)

    def check_modifier(self, field: str, value: int) -> None:
        if abs(value) > self.max_modifier:
            raise LimitExceeded(field, value, self.max_modifier)

    def check_items(self, field: str, count: int) -> None:
        if count > self.max_list_items:
            raise LimitExceeded(field, f"{count} items", self.max_list_items, "items")

    def check_enumeration(self, field: str, size: int) -> None:
        if size > self.max_enumeration:
            raise LimitExceeded(field, size, self.max_enumeration)


DEFAULT_LIMITS = Limits()


def capped_list(value: Any) -> Any:
    """A pydantic before-validator for a list every roll reads: refused by its length (the
    error names the count, not the whole list) above ``DEFAULT_LIMITS.max_list_items``."""
    if isinstance(value, list | tuple):
        DEFAULT_LIMITS.check_items("items", len(value))
    return value
