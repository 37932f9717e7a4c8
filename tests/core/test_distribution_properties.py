"""Hypothesis properties of Distribution that must hold for any weight map."""

from fractions import Fraction
from math import gcd

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.distribution import Distribution, sum_all

weight_maps = st.dictionaries(
    keys=st.integers(min_value=-6, max_value=12),
    values=st.integers(min_value=0, max_value=40),
    min_size=1,
    max_size=6,
).filter(lambda m: any(m.values()))

small_maps = st.dictionaries(
    keys=st.integers(min_value=0, max_value=4),
    values=st.integers(min_value=1, max_value=5),
    min_size=1,
    max_size=3,
)

distributions = weight_maps.map(Distribution)
small_distributions = small_maps.map(Distribution)


@given(weight_maps)
def test_probabilities_sum_to_one_and_match_weights(weights: dict[int, int]) -> None:
    d = Distribution(weights)
    probs = d.probabilities()
    assert sum(probs.values()) == 1
    positive_total = sum(weights.values())
    for outcome, weight in weights.items():
        assert d.probability(outcome) == Fraction(weight, positive_total)
    assert set(d.outcomes()) == {k for k, w in weights.items() if w}


@given(distributions)
def test_weights_are_fully_reduced(d: Distribution[int]) -> None:
    g = 0
    for _, w in d.items():
        g = gcd(g, w)
        assert w > 0
    assert g == 1
    assert d.total == sum(w for _, w in d.items())


@given(distributions)
def test_from_probabilities_round_trips(d: Distribution[int]) -> None:
    assert Distribution.from_probabilities(d.probabilities()) == d


@given(distributions, st.integers(min_value=1, max_value=5))
def test_map_preserves_total_probability(d: Distribution[int], modulus: int) -> None:
    mapped = d.map(lambda x: x % modulus)
    assert sum(mapped.probabilities().values()) == 1
    for residue in range(modulus):

        def in_residue_class(x: int, r: int = residue) -> bool:
            return x % modulus == r

        assert mapped.probability(residue) == d.probability_where(in_residue_class)


@given(distributions, distributions)
def test_convolve_is_commutative(a: Distribution[int], b: Distribution[int]) -> None:
    assert a.convolve(b) == b.convolve(a)


@given(distributions, distributions)
def test_mean_of_a_convolution_is_the_sum_of_means(
    a: Distribution[int], b: Distribution[int]
) -> None:
    assert a.convolve(b).mean() == a.mean() + b.mean()


@given(small_distributions, st.integers(min_value=1, max_value=6))
def test_repeat_equals_n_fold_convolution(d: Distribution[int], times: int) -> None:
    naive = d
    for _ in range(times - 1):
        naive = naive.convolve(d)
    assert d.repeat(times) == naive
    assert d.repeat(times) == sum_all([d] * times)


@given(distributions, distributions)
def test_flat_map_with_a_constant_child_equals_the_child(
    parent: Distribution[int], child: Distribution[int]
) -> None:
    assert parent.flat_map(lambda _: child) == child


@given(distributions)
def test_flat_map_with_single_is_identity(d: Distribution[int]) -> None:
    assert d.flat_map(Distribution.single) == d


@given(distributions, distributions)
def test_flat_map_equals_combine_for_independent_children(
    a: Distribution[int], b: Distribution[int]
) -> None:
    via_flat_map = a.flat_map(lambda x: b.map(lambda y: x + y))
    assert via_flat_map == a.convolve(b)


@given(distributions, distributions)
def test_equal_distributions_hash_equally(a: Distribution[int], b: Distribution[int]) -> None:
    scaled = Distribution({k: w * 3 for k, w in a.items()})
    assert scaled == a
    assert hash(scaled) == hash(a)
    if a == b:
        assert hash(a) == hash(b)
