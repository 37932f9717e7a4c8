"""Oracles for free dice: every draw sequence of the roller, weighed (brute force), and
icepool's dice (an independent engine), both as exact ``Fraction`` distributions."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rulebound.core.dice import DiceLimits, Expression, roll
from rulebound.core.dice.nodes import Value


class TooMany(Exception):
    """More draw sequences than brute force should walk."""


class _Branch(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Script:
    """A source that replays a prefix of faces, then stops the roll to branch."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.at = 0
        self.sides: list[int] = []

    def draw(self, sides: int) -> int:
        if self.at == len(self.prefix):
            raise _Branch(sides)
        self.sides.append(sides)
        self.at += 1
        return self.prefix[self.at - 1]

    def describe(self) -> dict[str, object]:
        return {"kind": "script"}


def by_draws(expression: Expression, limits: DiceLimits, most: int = 4_000) -> dict[int, Fraction]:
    """The exact distribution of the roller's totals, from every sequence of faces it can
    draw (each of chance 1/sides per face). Only for small expressions without ``rr``."""
    found: dict[int, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    rolled = 0
    while stack:
        prefix = stack.pop()
        script = _Script(prefix)
        try:
            total = roll(expression, script, limits).total
        except _Branch as branch:
            stack.extend((*prefix, face) for face in range(1, branch.sides + 1))
            continue
        rolled += 1
        if rolled > most:
            raise TooMany(expression.text())
        chance = Fraction(1, math.prod(script.sides))
        found[total] = found.get(total, Fraction(0)) + chance
    return dict(sorted(found.items()))


def of_icepool(die: Any) -> dict[int, Fraction]:
    """An icepool die's distribution, totals truncated toward zero as d20 reports them."""
    found: dict[int, Fraction] = {}
    denominator = die.denominator()
    for outcome, quantity in die.items():
        key = math.trunc(outcome)
        found[key] = found.get(key, Fraction(0)) + Fraction(quantity, denominator)
    return dict(sorted(found.items()))


def constant(value: Value) -> dict[int, Fraction]:
    return {math.trunc(value): Fraction(1)}
