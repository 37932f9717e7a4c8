"""Spending bonus points: the optimal allocation, a checked manual one, and the alternatives.

An allocation is a tuple of points per die, in die order. A point moves a die
one face toward success (down); points may overshoot the target, as the
seed's own example does, but no die may go below 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Options


def optimal_allocation(
    faces: Sequence[int], skill: int, bonus: int, options: Options
) -> tuple[int, ...]:
    """The most successes: fix the cheapest failures first, earliest die on a tie.

    Any set of k fixed failures costs at least the k smallest costs, so taking
    them in cost order reaches the largest k the budget allows. Points that
    cannot buy another success stay unspent.
    """
    top = rules.highest_success_face(skill, options)  # ``rules.cost`` of each face, inline
    points = [0] * len(faces)
    left = bonus
    if top < 1 or left <= 0:
        return tuple(points)
    failures = sorted((face - top, i) for i, face in enumerate(faces) if face > top)
    for price, index in failures:
        if price > left:
            break
        points[index] = price
        left -= price
    return tuple(points)


def checked_allocation(faces: Sequence[int], bonus: int, points: Sequence[int]) -> tuple[int, ...]:
    """A player's own allocation, refused if it breaks a rule."""
    if len(points) != len(faces):
        raise InvalidInput("allocation", tuple(points), f"{len(faces)} entries, one per die")
    for number, spent in enumerate(points, start=1):
        if not isinstance(spent, int) or isinstance(spent, bool) or spent < 0:
            raise InvalidInput(
                f"allocation.d{number}", spent, "a whole number of points, 0 or more"
            )
    if sum(points) > bonus:
        raise RuleViolation("bonus points", f"spent {sum(points)} but the bonus is +{bonus}")
    for number, (face, spent) in enumerate(zip(faces, points, strict=True), start=1):
        if face - spent < 1:
            raise RuleViolation(
                "bonus points", f"d{number} shows {face}; {spent} points would move it below 1"
            )
    return tuple(points)


def successes(faces: Sequence[int], points: Sequence[int], skill: int, options: Options) -> int:
    return sum(
        rules.succeeds(face - spent, skill, options)
        for face, spent in zip(faces, points, strict=True)
    )


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way to spend the points: which dice it fixes and where that leaves the check."""

    allocation: tuple[int, ...]
    spent: int
    successes: int
    ios: int
    degree: rules.Degree


def alternatives(request: RainwallRequest, faces: Sequence[int]) -> tuple[Alternative, ...]:
    """Every distinct affordable set of failures to fix, best first.

    Dice showing the same face are interchangeable, so each choice is a count
    per failing face, applied to the earliest such dice; each fixed die gets
    exactly its cost, the cheapest way to fix it.
    """
    skill, dr, bonus, options = request.skill, request.dr, request.bonus, request.options
    prices = {face: c for face in faces if (c := rules.cost(face, skill, options))}
    failing = Counter(face for face in faces if face in prices)
    kinds = sorted(failing)
    raw = sum(rules.succeeds(face, skill, options) for face in faces)
    flub = rules.is_flub(request.dice, skill, sum(face == rules.FLUB_FACE for face in faces))
    found: list[Alternative] = []
    for counts, spent in _affordable([(failing[f], prices[f]) for f in kinds], bonus):
        quota = dict(zip(kinds, counts, strict=True))
        points = []
        for face in faces:
            take = quota.get(face, 0) > 0
            if take:
                quota[face] -= 1
            points.append(prices[face] if take else 0)
        total = raw + sum(counts)
        found.append(
            Alternative(
                tuple(points),
                spent,
                total,
                rules.ios(total, dr, options),
                rules.degree(raw, total, dr, flub, options, dice=request.dice),
            )
        )
    return tuple(sorted(found, key=lambda a: (-a.successes, a.spent, [-p for p in a.allocation])))


def _affordable(kinds: Sequence[tuple[int, int]], budget: int) -> list[tuple[tuple[int, ...], int]]:
    """Each count per kind (``kinds``: how many dice, the price of fixing one) whose total
    price is within ``budget``, with that price. Prices are positive, so a count that
    overspends is never extended: only what is affordable is ever built."""
    found: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for available, price in kinds:
        found = [
            ((*counts, count), spent + count * price)
            for counts, spent in found
            for count in range(min(available, (budget - spent) // price) + 1)
        ]
    return found
