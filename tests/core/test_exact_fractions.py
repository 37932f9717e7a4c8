"""``exact`` and ``exact_over`` build fractions without the constructor's checks: they
must be indistinguishable from ``Fraction(n, d)`` for every numerator and denominator."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core import distribution
from rulebound.core.distribution import exact, exact_over

numerators = st.integers(min_value=0, max_value=10**40)
denominators = st.integers(min_value=1, max_value=10**40)


def _same(got: Fraction, want: Fraction) -> None:
    assert type(got) is Fraction
    assert (got.numerator, got.denominator) == (want.numerator, want.denominator)
    assert (got == want, hash(got), repr(got)) == (True, hash(want), repr(want))


@given(numerators, denominators)
def test_exact_is_the_reduced_fraction(numerator: int, denominator: int) -> None:
    _same(exact(numerator, denominator), Fraction(numerator, denominator))


@given(st.lists(numerators, max_size=12), denominators)
def test_exact_over_is_one_reduced_fraction_per_numerator(
    values: list[int], denominator: int
) -> None:
    got = exact_over(values, denominator)
    assert len(got) == len(values)
    for fraction, numerator in zip(got, values, strict=True):
        _same(fraction, Fraction(numerator, denominator))


def test_without_the_fast_maker_both_fall_back_to_the_constructor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(distribution, "_COPRIME", None)
    assert exact_over([0, 6, 10], 10) == [Fraction(0), Fraction(3, 5), Fraction(1)]
    _same(exact(6, 10), Fraction(3, 5))
