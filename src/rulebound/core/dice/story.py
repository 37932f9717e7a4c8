"""A rolled expression as a value: every die with its whole history, every part's total.

Nothing here prints: ``render`` turns a ``Roll`` into text, the rulesets layer into a card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulebound.core.dice.nodes import Expression, Node, Value


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die as it ends: what it showed in turn, what it counts for, and why."""

    label: str
    """"d6", "d100" (also for d%), "dF"."""
    sides: int
    """The sides it was drawn with (3 for a fudge die), as its draws record it."""
    faces: tuple[int, ...]
    """Every face it showed, first to last: more than one when it was rerolled."""
    value: int
    """What it counts for: its last face, unless mi or ma moved it."""
    kept: bool = True
    exploded: bool = False
    """It made another die roll (an explosion, or ra)."""
    added: bool = False
    """It was rolled by another die's explosion (or by ra)."""
    success: bool | None = None
    """For success counting: whether it met the target (None when not counted)."""

    @property
    def marks(self) -> tuple[str, ...]:
        found = []
        if not self.kept:
            found.append("dropped")
        if self.value != self.faces[-1]:
            found.append(f"set to {self.value}")
        if self.exploded:
            found.append("exploded")
        if self.added:
            found.append("added")
        if self.success:
            found.append("success")
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Part:
    """One node of the expression, rolled: its total and what it was made of."""

    node: Node
    total: Value
    parts: tuple[Part, ...] = ()
    """The rolled children: a set's elements (each with ``kept``), an operator's operands."""
    dice: tuple[DieRoll, ...] = ()
    """A dice term's dice after all its operations, in the order they were drawn."""
    kept: bool = True
    """As an element of a set: whether a keep or drop left it counting."""

    def all_dice(self) -> tuple[DieRoll, ...]:
        found = list(self.dice)
        for part in self.parts:
            found += part.all_dice()
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Roll:
    """A whole roll: the expression and one rolled tree per repeat (``6#4d6kh3``: six)."""

    expression: Expression
    rolls: tuple[Part, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        """Each repeat's total as a whole number, truncated toward zero as d20 does."""
        return tuple(math.trunc(part.total) for part in self.rolls)

    @property
    def total(self) -> int:
        return self.totals[0]

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(die for part in self.rolls for die in part.all_dice())
