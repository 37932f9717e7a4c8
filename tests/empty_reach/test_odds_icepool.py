"""The odds agree exactly with icepool (a dev-only dependency), built from the seed's rules.

Each die is an icepool ``Die`` mapped to (successes, banes); pushes are icepool mixtures:
a die showing neither a success nor a 1 becomes a fresh die of the same size.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest

from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, PreparedCheck, prepare
from rulebound.rulesets.empty_reach.odds import (
    outcome_distribution,
    success_distribution,
)
from rulebound.rulesets.empty_reach.opposed import opposed_odds
from rulebound.rulesets.empty_reach.rules import LADDER

POOLS = [(a.label, None if s is None else s.label) for a in LADDER for s in (None, *LADDER)]


def successes(face: int) -> int:
    return 2 if face >= 10 else 1 if face >= 6 else 0


def rerolled(face: int) -> bool:
    return face != 1 and not successes(face)


def fractions(die: icepool.Die) -> dict[object, Fraction]:
    total = die.denominator()
    return {
        (tuple(k) if isinstance(k, icepool.Vector) else k): Fraction(q, total)
        for k, q in die.items()
        if q
    }


def by_margin(chances: dict[object, Fraction]) -> dict[int, Fraction]:
    """The chances of a difference of success counts, each keyed by that (integer) margin."""
    margins: dict[int, Fraction] = {}
    for margin, p in chances.items():
        assert isinstance(margin, int), margin
        margins[margin] = p
    return margins


def scored(die: icepool.Die) -> icepool.Die:
    return die.map(lambda f: icepool.Vector((successes(f), int(f == 1))))


def pushed(sides: int, pushes: int) -> icepool.Die:
    """One die's final face when every push rerolls it while it shows neither success nor 1."""
    if pushes == 0:
        return icepool.d(sides)
    again = pushed(sides, pushes - 1)
    return icepool.d(sides).map(lambda f: again if rerolled(f) else f)


def sides_of(check: PreparedCheck) -> list[int]:
    return [d.value for d in check.pool.dice] + [d.value for d in check.gear_dice]


def request(pool: tuple[str, str | None], **fields: object) -> PreparedCheck:
    return prepare(CheckRequest(attribute_die=pool[0], skill_die=pool[1], **fields))


@pytest.mark.parametrize("pool", POOLS)
def test_unpushed_successes_and_banes(pool: tuple[str, str | None]) -> None:
    check = request(pool)
    total = sum(
        (scored(icepool.d(s)) for s in sides_of(check)[1:]), scored(icepool.d(sides_of(check)[0]))
    )
    assert outcome_distribution(check).probabilities() == fractions(total)
    counts = sum(
        (icepool.d(s).map(successes) for s in sides_of(check)[1:]),
        icepool.d(sides_of(check)[0]).map(successes),
    )
    assert success_distribution(check).probabilities() == fractions(counts)


@pytest.mark.parametrize("pushes", [1, 2])
@pytest.mark.parametrize("pool", POOLS)
def test_always_push_as_an_icepool_mixture(pool: tuple[str, str | None], pushes: int) -> None:
    fields = {"attribute": "Wits", "specialties": ("Inquisitive",)} if pushes == 2 else {}
    check = request(pool, **fields)
    assert check.max_pushes == pushes
    dice = [scored(pushed(s, pushes)) for s in sides_of(check)]
    total = sum(dice[1:], dice[0])
    assert outcome_distribution(check, "always").probabilities() == fractions(total)


def if_failed(sides: list[int], pushes: int) -> icepool.Die:
    """Push the whole roll while it has no success: icepool.map over every joint face."""

    def settle(left: int, *faces: int) -> object:
        total = sum(map(successes, faces))
        if total or left == 0 or all(f == 1 for f in faces):
            return icepool.Vector((total, faces.count(1)))
        fresh = [
            icepool.Die([1]) if f == 1 else icepool.d(s) for f, s in zip(faces, sides, strict=True)
        ]
        return icepool.map(lambda *new: settle(left - 1, *new), *fresh)

    return icepool.map(lambda *faces: settle(pushes, *faces), *(icepool.d(s) for s in sides))


@pytest.mark.parametrize("pushes", [1, 2])
@pytest.mark.parametrize("pool", POOLS[::2])
def test_push_if_failed_as_an_icepool_map(pool: tuple[str, str | None], pushes: int) -> None:
    fields = {"attribute": "Strength", "specialties": ("True Grit",)} if pushes == 2 else {}
    check = request(pool, **fields)
    assert check.max_pushes == pushes
    truth = fractions(if_failed(sides_of(check), pushes))
    assert outcome_distribution(check, "if-failed").probabilities() == truth


def test_gear_dice_add_successes_like_any_die() -> None:
    check = request(("D6", None), gear=GearInUse(name="kit", bonus=1, dice=("D12", "D8")))
    counts = sum((icepool.d(s).map(successes) for s in sides_of(check)), icepool.Die([0]))
    assert sides_of(check) == [6, 6, 12, 8]
    assert success_distribution(check).probabilities() == fractions(counts)
    always = sum((pushed(s, 1).map(successes) for s in sides_of(check)), icepool.Die([0]))
    assert success_distribution(check, "always").probabilities() == fractions(always)


@pytest.mark.parametrize(("active", "defender"), list(product(POOLS[::4], POOLS[1::4])))
def test_opposed_margin(active: tuple[str, str | None], defender: tuple[str, str | None]) -> None:
    a, d = request(active), request(defender)
    mine = sum((pushed(s, 1).map(successes) for s in sides_of(a)), icepool.Die([0]))
    theirs = sum((icepool.d(s).map(successes) for s in sides_of(d)), icepool.Die([0]))
    margin = by_margin(fractions(mine - theirs))
    odds = opposed_odds(a, d, "always")
    assert odds["win"] == sum(p for m, p in margin.items() if m > 0)
    assert odds["tie"] == margin.get(0, 0)
    assert odds["loss"] == sum(p for m, p in margin.items() if m < 0)
