"""The longest run and the exact chance of a run at least as long: brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.ledger.runs import chance_of_run, longest

from ..hunt import examples

chances = st.lists(st.builds(Fraction, st.integers(0, 6), st.just(6)), max_size=7)


@given(chances, st.integers(0, 8), st.booleans())
@settings(max_examples=examples(300), deadline=None)
def test_the_chance_of_a_run_is_the_brute_force_one(
    ps: list[Fraction], length: int, of: bool
) -> None:
    total = Fraction(0)
    for outcome in itertools.product((False, True), repeat=len(ps)):
        weight = Fraction(1)
        for p, hit in zip(ps, outcome, strict=True):
            weight *= p if hit else 1 - p
        if longest(outcome, of) >= length:
            total += weight
    assert chance_of_run(ps, length, of) == total


def test_longest_runs() -> None:
    results = [True, True, False, True, True, True, False, False]
    assert longest(results, True) == 3
    assert longest(results, False) == 2
    assert longest([], True) == 0
    # three coin flips all landing: a run of three successes has the chance 1/8
    assert chance_of_run([Fraction(1, 2)] * 3, 3) == Fraction(1, 8)
