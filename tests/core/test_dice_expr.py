"""Free-form dice expressions: parsing with positioned errors, exact odds against brute force
and icepool, rolls from an injected source."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core.dice_expr import MAX_DICE, parse
from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import SeededSource


def brute(dice: list[tuple[int, int]], constant: int) -> dict[int, Fraction]:
    """Every way the dice fall, counted: (sign, sides) per die."""
    found: dict[int, int] = {}
    faces = [range(1, s + 1) for _, s in dice]
    for combo in itertools.product(*faces):
        total = constant + sum(sign * f for (sign, _), f in zip(dice, combo, strict=True))
        found[total] = found.get(total, 0) + 1
    ways = sum(found.values())
    return {k: Fraction(v, ways) for k, v in sorted(found.items())}


@pytest.mark.parametrize(
    ("text", "dice", "constant"),
    [
        ("2d6+3", [(1, 6), (1, 6)], 3),
        ("d20 - 1", [(1, 20)], -1),
        ("3d4 - 1d6 + 2", [(1, 4)] * 3 + [(-1, 6)], 2),
        ("D8+d%-5", [(1, 8), (1, 100)], -5),
        ("4", [], 4),
    ],
)
def test_the_odds_are_exact(text: str, dice: list[tuple[int, int]], constant: int) -> None:
    expression = parse(text)
    assert expression.distribution() == brute(dice, constant)
    low, high = expression.bounds()
    assert (low, high) == (min(brute(dice, constant)), max(brute(dice, constant)))
    mean = sum(k * p for k, p in brute(dice, constant).items())
    assert expression.mean() == mean


def test_the_odds_match_icepool() -> None:
    expression = parse("3d6 + 2d8 - d4 + 1")
    pool = 3 @ icepool.d6 + 2 @ icepool.d8 - icepool.d4 + 1
    expected = {int(k): Fraction(v, pool.denominator()) for k, v in pool.items()}
    assert expression.distribution() == expected
    assert expression.at_least(15) == sum((p for k, p in expected.items() if k >= 15), Fraction(0))


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(1, 4), st.sampled_from([4, 6, 8, 20])),
        min_size=1,
        max_size=4,
    ),
    st.integers(-20, 20),
    st.integers(0, 2**32),
)
def test_a_roll_stays_in_range_and_draws_each_die_once(
    terms: list[tuple[bool, int, int]], constant: int, seed: int
) -> None:
    text = "".join(f"{'-' if neg else '+'}{n}d{s}" for neg, n, s in terms) + f"{constant:+d}"
    expression = parse(text)
    rolled = expression.roll(SeededSource(seed))
    low, high = expression.bounds()
    assert low <= rolled.total <= high
    assert [s for s, _ in rolled.faces] == [s for _, n, s in terms for _ in range(n)]
    signs = [(-1 if neg else 1) for neg, n, _ in terms for _ in range(n)]
    assert rolled.total == constant + sum(
        g * f for g, (_, f) in zip(signs, rolled.faces, strict=True)
    )
    assert sum(expression.distribution().values()) == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2d6+", "at the end"),
        ("2d6 ++ 1", "at position 6"),
        ("2x6", "at position 2"),
        ("2d6 3", "at position 5: + or - between two terms"),
        ("", "for example 2d6+3"),
        (f"{MAX_DICE + 1}d6", "1 to 100 dice"),
        ("2d1", "dice of 2 to 1000 sides"),
        ("60d100 + 60d100", "at most 100 dice"),
    ],
)
def test_errors_name_the_position_and_what_was_expected(text: str, words: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(text)
    assert words in caught.value.expected
    assert caught.value.field == "dice"
