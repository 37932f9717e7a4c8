"""Exact odds by the fast algorithms equal icepool's on the shapes each algorithm serves:
big sums, keep-highest pools, rerolls, explosions, success counts; and the preview lines."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from rulebound.core.dice import DiceLimits, Odds, odds, parse, preview

from .oracle import by_draws, of_icepool

d4, d6, d8, d10, d12, d20, d100 = (icepool.d(n) for n in (4, 6, 8, 10, 12, 20, 100))
fudge = icepool.Die([-1, 0, 1])


def _tens_again(left: int) -> Any:
    """One d10's successes (8 or more) when a 10 adds a die that counts and explodes too."""
    return d10.map(lambda v: int(v >= 8) + (_tens_again(left - 1) if v == 10 and left else 0))


CASES = {
    "100d6": lambda: 100 @ d6,
    "25d100": lambda: 25 @ d100,
    "3d6+2d8-1d4+5": lambda: 3 @ d6 + 2 @ d8 - d4 + 5,
    "4d6kh3": lambda: d6.pool(4).highest(3).sum(),
    "8d10kh3": lambda: d10.pool(8).highest(3).sum(),
    "20d6kh5": lambda: d6.pool(20).highest(5).sum(),
    "12d6kl4": lambda: d6.pool(12).lowest(4).sum(),
    "10d6pl3": lambda: d6.pool(10).highest(7).sum(),
    "9d8ph2": lambda: d8.pool(9).lowest(7).sum(),
    "2d20kl1+5": lambda: d20.pool(2).lowest(1).sum() + 5,
    "6d6kh3kl1": lambda: d6.pool(6).keep([1, 0, 0, 1, 1, 1]).sum(),
    "4d6rr1": lambda: 4 @ d6.reroll([1], depth="inf"),
    "4d6ro<3": lambda: 4 @ d6.reroll([1, 2], depth=1),
    "5d6ro1kh3": lambda: d6.reroll([1], depth=1).pool(5).highest(3).sum(),
    "6d10mi3kh2": lambda: d10.map(lambda x: max(x, 3)).pool(6).highest(2).sum(),
    "10d6e6": lambda: 10 @ d6.explode([6], depth=10),
    "3d10e>8": lambda: 3 @ d10.explode([9, 10], depth=10),
    "2d12e12+1d4": lambda: 2 @ d12.explode([12], depth=10) + d4,
    "10d10>=7": lambda: 10 @ (d10 >= 7),
    "8d10e10>=8": lambda: 8 @ _tens_again(10),
    "5d10<=6": lambda: 5 @ (d10 <= 6),
    "4dF": lambda: 4 @ fudge,
    "4dF+2": lambda: 4 @ fudge + 2,
    "1d20+5 >= 15": lambda: d20 + 5 >= 15,
    "(1d20+5, 1d20+5)kh1": lambda: icepool.highest(d20 + 5, d20 + 5),
    "(1d8, 1d10, 1d12)kl1": lambda: icepool.lowest(d8, d10, d12),
    "2d6*10": lambda: (2 @ d6) * 10,
    "(2d6+1)//2": lambda: (2 @ d6 + 1) // 2,
    "1d100/7": lambda: d100.map(lambda x: Fraction(x, 7)),
}


@pytest.mark.parametrize("typed", list(CASES))
def test_exact_odds_equal_icepools(typed: str) -> None:
    found = odds(parse(typed))
    assert isinstance(found, Odds), found.line()
    assert found.distribution() == of_icepool(CASES[typed]())


def test_explosion_odds_say_where_the_tail_was_cut() -> None:
    found = odds(parse("1d2e2"))
    assert isinstance(found, Odds)
    assert found.notes == (
        "d2 explosions stop after 10 extra dice per die (a chance of 0.00049 per die)",
    )
    assert found.probability(22) == Fraction(1, 2**11)
    assert "explosions stop after 10" in found.line()


@pytest.mark.parametrize(
    ("typed", "line"),
    [
        ("2d6+3", "2d6+3: average 10.00, 5 to 15; P(total ≥ 10) = 7/12 (58.3%)"),
        ("1d20+5 >= 15", "1d20+5 >= 15: P(success) = 11/20 (55.0%)"),
        ("1d20>=15", "1d20>=15: P(success) = 3/10 (30.0%)"),
        (
            "5d10<=6",
            "5d10<=6: average 3.00 successes, 0 to 5; P(at least 1 success) = 3093/3125 (99.0%),"
            " P(at least 3) = 2133/3125 (68.3%)",
        ),
        (
            "6#4d6kh3",
            "6#4d6kh3: average 12.24, 3 to 18; P(total ≥ 13) = 79/162 (48.8%) (each roll)",
        ),
        ("100d6", "100d6: average 350.00, 100 to 600; P(total ≥ 350) = 51.166%"),
    ],
)
def test_the_preview_line_shows_the_tail_or_the_success_chance(typed: str, line: str) -> None:
    assert preview(parse(typed)) == line


def test_zero_dice_roll_zero() -> None:
    for typed in ("0d6", "0d6kh1", "0d10>=7", "0dF"):
        found = odds(parse(typed))
        assert isinstance(found, Odds)
        assert found.distribution() == {0: Fraction(1)}


@pytest.mark.parametrize("typed", ["2d2k0ph0", "3d6k0pl1", "4d6k0p1", "0 == 2d2k0ph0"])
def test_a_rank_keep_after_every_die_is_dropped_adds_nothing(typed: str) -> None:
    """``k0`` drops every die; a keep or drop by rank after it has no die left to rank, so
    the pool adds 0 (hypothesis found ``0 == 2d2k0ph0`` refused with a bare ValueError)."""
    found = odds(parse(typed))
    assert isinstance(found, Odds)
    total = 1 if typed.startswith("0 ==") else 0
    assert found.distribution() == {total: Fraction(1)}


@pytest.mark.parametrize("typed", ["1d3ra1e3", "2d3ra1e3", "1d3ra1e<2", "2d3ra2e2", "1d3ra3e3"])
def test_a_die_added_by_ra_explodes_as_far_as_any_other(typed: str) -> None:
    """The die ``ra`` adds is a new die, not an explosion, so its own chain reaches the cap
    like any die's (the roller counted it as the first die's first extra die, one short of
    the odds; hypothesis found ``1d3ra1e3`` disagreeing with brute force)."""
    limits = DiceLimits(max_explosions=2)
    parsed = parse(typed, limits=limits)
    found = odds(parsed, limits)
    assert isinstance(found, Odds)
    assert found.distribution() == by_draws(parsed, limits, most=100_000)


@pytest.mark.parametrize(
    "typed", ["1d3ra0e0", "1d3ra0e0==0+1d4ra0e0==0", "1d4ra0e1==0+1dFra0e0==0", "2d4e0kh1"]
)
def test_an_explosion_no_face_can_set_off_costs_nothing(typed: str) -> None:
    """``e0`` on a die without a 0 never explodes: its cost is not a chain's (hypothesis
    found ``1d3ra0e0==0+1d4ra0e0==0`` refused as over the work cap)."""
    limits = DiceLimits(max_explosions=2)
    parsed = parse(typed, limits=limits)
    found = odds(parsed, limits)
    assert isinstance(found, Odds), found.line()
    assert found.distribution() == by_draws(parsed, limits)
