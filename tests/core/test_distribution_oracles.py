"""Cross-checks against icepool, an independent probability library (dev dependency only)."""

from fractions import Fraction
from typing import Any

import pytest

from rulebound.core.distribution import Distribution

icepool = pytest.importorskip("icepool")


def icepool_probabilities(die: Any) -> dict[object, Fraction]:  # an icepool.Die (untyped)
    denominator = die.denominator()
    return {k: Fraction(q, denominator) for k, q in die.items() if q}


def test_three_d6_matches_icepool() -> None:
    ours = Distribution.die(6).repeat(3)
    assert ours.probabilities() == icepool_probabilities(3 @ icepool.d6)


def test_two_d10_sum_matches_icepool() -> None:
    ours = Distribution.die(10).convolve(Distribution.die(10))
    assert ours.probabilities() == icepool_probabilities(2 @ icepool.d10)


def test_keep_highest_of_two_d20_matches_icepool() -> None:
    ours = Distribution.die(20).combine(Distribution.die(20), max)
    theirs = icepool.highest(icepool.d20, icepool.d20)
    assert ours.probabilities() == icepool_probabilities(theirs)


def test_keep_lowest_of_two_d20_matches_icepool() -> None:
    ours = Distribution.die(20).combine(Distribution.die(20), min)
    theirs = icepool.lowest(icepool.d20, icepool.d20)
    assert ours.probabilities() == icepool_probabilities(theirs)


def test_four_d6_drop_lowest_matches_icepool() -> None:
    def keep_three(kept: tuple[int, ...], face: int) -> tuple[int, ...]:
        return tuple(sorted((*kept, face))[-3:])

    d6 = Distribution.die(6)
    pools: Distribution[tuple[int, ...]] = d6.map(lambda x: (x,))
    for _ in range(3):
        pools = pools.combine(d6, keep_three)
    ours = pools.map(sum)
    assert ours.probabilities() == icepool_probabilities(icepool.d6.highest(4, 3))


def test_d6_with_a_bonus_d8_on_six_matches_icepool() -> None:
    # Mixed child denominators (1 and 8) through flat_map.
    def follow(x: int) -> Distribution[int]:
        return Distribution.die(8).map(lambda y: x + y) if x == 6 else Distribution.single(x)

    ours = Distribution.die(6).flat_map(follow)
    theirs = icepool.d6.map(lambda x: x + icepool.d8 if x == 6 else x)
    assert ours.probabilities() == icepool_probabilities(theirs)


@pytest.mark.parametrize(("count", "sides", "bonus"), [(2, 6, 3), (5, 4, -2), (1, 12, 0)])
def test_dice_plus_modifier_matches_icepool(count: int, sides: int, bonus: int) -> None:
    ours = Distribution.die(sides).repeat(count).map(lambda x: x + bonus)
    theirs = count @ icepool.Die(range(1, sides + 1)) + bonus
    assert ours.probabilities() == icepool_probabilities(theirs)
