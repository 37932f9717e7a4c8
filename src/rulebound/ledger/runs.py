"""Runs: the longest streak of successes (or of failures) in a sequence of checks, and the
exact chance of a streak at least that long given the same checks in the same order.

The chance is a walk over the length of the current streak (0 to ``length - 1``) that stops
once the streak reaches ``length``; its weights are whole numbers over the product of the
checks' denominators, so it is exact without a Fraction per step.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def longest(outcomes: Sequence[bool], of: bool) -> int:
    """The longest streak of ``of`` (True: successes, False: failures)."""
    best = current = 0
    for outcome in outcomes:
        current = current + 1 if outcome is of else 0
        best = max(best, current)
    return best


def chance_of_run(chances: Sequence[Fraction], length: int, of: bool = True) -> Fraction:
    """P(a streak of at least ``length`` successes (``of``) or failures among ``chances``,
    each check independent and in order)."""
    if length <= 0:
        return Fraction(1)
    if length > len(chances):
        return Fraction(0)
    weights = [1] + [0] * (length - 1)
    """weights[r]: the sequences so far whose current streak is r long and never reached
    ``length``; ``reached``: those that did. Together they total ``scale``."""
    reached, scale = 0, 1
    for p in chances:
        q = p.denominator
        hit = p.numerator if of else q - p.numerator
        miss = q - hit
        alive = scale - reached
        reached = reached * q + weights[-1] * hit
        weights = [alive * miss] + [w * hit for w in weights[:-1]]
        scale *= q
    return Fraction(reached, scale)
