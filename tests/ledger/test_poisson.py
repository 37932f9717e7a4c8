"""The exact distribution of the number of successes: brute force over every outcome for
small sets of checks, a float computation for large ones, "luckier than" exactly, and its
two ways (the walk through the coefficients, the product) against each other."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.ledger import poisson
from rulebound.ledger.poisson import Groups, distribution, multiplied, standing, walked, walks

from ..hunt import examples

chances = st.lists(
    st.builds(Fraction, st.integers(0, 12), st.sampled_from([1, 2, 6, 12, 20, 100])).filter(
        lambda p: p <= 1
    ),
    max_size=7,
)


groups = st.lists(
    st.tuples(
        st.integers(1, 10**6).flatmap(
            lambda q: st.builds(Fraction, st.integers(1, max(q - 1, 1)), st.just(q))
        ),
        st.integers(1, 40),
    ),
    min_size=1,
    max_size=8,
).filter(lambda gs: all(0 < p < 1 for p, _ in gs))


def grouped(found: list[tuple[Fraction, int]]) -> Groups:
    """Each distinct chance once, with its count (as ``standing`` gives them)."""
    counts: dict[Fraction, int] = {}
    for p, m in found:
        counts[p] = counts.get(p, 0) + m
    return tuple(sorted(counts.items()))


def brute(ps: list[Fraction]) -> list[Fraction]:
    """P(X = j) by enumerating every way the checks could go."""
    out = [Fraction(0)] * (len(ps) + 1)
    for outcome in itertools.product((False, True), repeat=len(ps)):
        weight = Fraction(1)
        for p, hit in zip(ps, outcome, strict=True):
            weight *= p if hit else 1 - p
        out[sum(outcome)] += weight
    return out


def float_distribution(ps: list[Fraction]) -> list[float]:
    """P(X = j) by the textbook recurrence in floating point."""
    dist = [1.0]
    for p in map(float, ps):
        dist = [a * (1 - p) + b * p for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    return dist


@given(chances)
@settings(max_examples=examples(200), deadline=None)
def test_the_distribution_is_the_brute_force_one(ps: list[Fraction]) -> None:
    assert list(distribution(ps)) == brute(ps)


@given(chances)
@settings(max_examples=examples(200), deadline=None)
def test_it_sums_to_one_and_its_mean_is_the_expected_successes(ps: list[Fraction]) -> None:
    dist = distribution(ps)
    assert sum(dist) == 1
    assert sum(j * p for j, p in enumerate(dist)) == sum(ps, Fraction(0))


@given(chances, st.integers(-2, 9))
@settings(max_examples=examples(300), deadline=None)
def test_luckier_than_is_worse_nights_and_half_the_ties(ps: list[Fraction], k: int) -> None:
    dist = brute(ps)
    tie = dist[k] if 0 <= k < len(dist) else Fraction(0)
    assert standing(ps, k).luckier_than == sum(dist[: max(k, 0)], Fraction(0)) + tie / 2


@given(groups, st.data())
@settings(max_examples=examples(200), deadline=None)
def test_the_walk_and_the_product_agree_exactly(
    found: list[tuple[Fraction, int]], data: st.DataObject
) -> None:
    """Both sides of the middle (the walk counts failures past it) and both ends."""
    gs = grouped(found)
    n = sum(m for _, m in gs)
    k = data.draw(st.one_of(st.integers(0, n), st.sampled_from([0, n // 2, (n + 1) // 2, n])))
    assert walked(gs, k) == multiplied(gs, k)


def test_a_worked_example_exactly() -> None:
    # 1/2 and 1/3, one success: P(0) = 1/3, P(1) = 1/2, so 1/3 + 1/4 = 7/12
    assert standing([Fraction(1, 2), Fraction(1, 3)], 1).luckier_than == Fraction(7, 12)
    # a sure success shifts the count: the same night with it is just as lucky
    assert standing([Fraction(1), Fraction(1, 2), Fraction(1, 3)], 2).luckier_than == Fraction(
        7, 12
    )
    assert standing([], 0).luckier_than == Fraction(1, 2)


def test_large_sets_agree_with_floating_point_on_every_path() -> None:
    """Two thousand checks of many distinct chances take the decimal (number-theoretic)
    multiplication; three hundred the binary; a thousand of a table's handful of distinct
    checks, the walk (on both sides of the middle)."""
    rng = random.Random(7)

    def drawn(n: int, denominators: tuple[int, ...]) -> list[Fraction]:
        return [Fraction(rng.randint(1, q - 1), q) for q in rng.choices(denominators, k=n)]

    few = drawn(15, (12, 36, 100, 3125, 10**6))
    cases = (
        (drawn(300, (100,)), False),
        (drawn(2000, (6, 48, 100, 1728, 20736)), False),
        (rng.choices(few, k=1000), True),
    )
    for ps, walking in cases:
        n, mean, dist = len(ps), float(sum(ps)), float_distribution(ps)
        gs = grouped([(p, 1) for p in ps])
        for k in (int(mean) - 20, int(mean), int(mean) + 7, n - int(mean)):
            assert walks(gs, k) is walking
            exact = standing(ps, k).luckier_than
            assert abs(float(exact) - (sum(dist[:k]) + dist[k] / 2)) < 1e-9, (n, k)


def test_the_decimal_multiplication_is_exact() -> None:
    rng = random.Random(3)
    a = [rng.randrange(10**40) for _ in range(300)]
    b = [rng.randrange(10**40) for _ in range(200)]
    product = poisson.multiply(a, b)
    assert poisson.DECIMAL_BITS < 500 * 270  # the case above takes the decimal path
    assert [int(c) for c in product] == poisson._schoolbook(a, b)
