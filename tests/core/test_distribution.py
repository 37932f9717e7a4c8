"""Distribution: construction, factories, reading, equality, immutability and sampling."""

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rulebound.core.distribution import Distribution
from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, RecordingSource, ReplaySource, SeededSource

# construction ---------------------------------------------------------------------


def test_weights_are_reduced_by_their_gcd() -> None:
    d = Distribution({"a": 4, "b": 6, "c": 10})
    assert dict(d.items()) == {"a": 2, "b": 3, "c": 5}
    assert d.total == 10


def test_zero_weights_are_dropped_from_the_support() -> None:
    d = Distribution({1: 0, 2: 3, 3: 0})
    assert d.outcomes() == (2,)
    assert len(d) == 1
    assert d.weight(1) == 0
    assert d.probability(2) == 1


def test_outcomes_come_back_sorted_when_comparable() -> None:
    assert Distribution({3: 1, 1: 1, 2: 1}).outcomes() == (1, 2, 3)


def test_incomparable_outcomes_keep_insertion_order() -> None:
    d = Distribution({"x": 1, 2: 1, (1,): 1})
    assert d.outcomes() == ("x", 2, (1,))


@pytest.mark.parametrize("bad", [-1, 1.0, 0.5, True, "2", None, Fraction(1, 2)])
def test_negative_or_non_integer_weight_is_rejected_naming_the_field(bad: Any) -> None:
    with pytest.raises(InvalidInput) as info:
        Distribution({1: 1, 2: bad})
    assert info.value.field == "weight"
    assert info.value.value == bad
    assert "non-negative integer" in str(info.value)


@pytest.mark.parametrize("weights", [{}, {1: 0}, {1: 0, 2: 0}])
def test_empty_or_all_zero_weights_are_rejected(weights: dict[int, int]) -> None:
    with pytest.raises(InvalidInput) as info:
        Distribution(weights)
    assert info.value.field == "weights"
    assert "at least one outcome" in info.value.expected


def test_constructor_copies_its_input_mapping() -> None:
    source = {1: 1, 2: 1}
    d = Distribution(source)
    source[3] = 100
    source[1] = 50
    assert dict(d.items()) == {1: 1, 2: 1}


# factories ------------------------------------------------------------------------


def test_die_is_uniform_over_one_to_sides() -> None:
    d = Distribution.die(8)
    assert d.outcomes() == tuple(range(1, 9))
    assert all(d.probability(face) == Fraction(1, 8) for face in range(1, 9))
    assert d.probability(0) == 0
    assert d.probability(9) == 0


@pytest.mark.parametrize("sides", [0, -3])
def test_die_rejects_non_positive_sides(sides: int) -> None:
    with pytest.raises(InvalidInput) as info:
        Distribution.die(sides)
    assert info.value.field == "sides"
    assert info.value.value == sides


def test_uniform_counts_repeated_outcomes() -> None:
    d = Distribution.uniform(["hit", "miss", "hit", "hit"])
    assert d.probability("hit") == Fraction(3, 4)
    assert d.probability("miss") == Fraction(1, 4)


def test_uniform_of_nothing_is_rejected() -> None:
    with pytest.raises(InvalidInput):
        Distribution.uniform([])


def test_single_is_certain() -> None:
    d = Distribution.single(("a", 2))
    assert d.outcomes() == (("a", 2),)
    assert d.probability(("a", 2)) == 1
    assert d.total == 1


def test_from_probabilities_round_trips_exactly() -> None:
    probs = {"crit": Fraction(1, 20), "hit": Fraction(9, 20), "miss": Fraction(1, 2)}
    d = Distribution.from_probabilities(probs)
    assert d.probabilities() == probs
    assert dict(d.items()) == {"crit": 1, "hit": 9, "miss": 10}


def test_from_probabilities_drops_zero_entries() -> None:
    d = Distribution.from_probabilities({1: Fraction(1), 2: Fraction(0)})
    assert d.outcomes() == (1,)


@pytest.mark.parametrize(
    "probs",
    [{}, {1: Fraction(1, 2)}, {1: Fraction(2, 3), 2: Fraction(2, 3)}],
)
def test_from_probabilities_rejects_totals_other_than_one(probs: dict[int, Fraction]) -> None:
    with pytest.raises(InvalidInput) as info:
        Distribution.from_probabilities(probs)
    assert info.value.field == "probabilities"
    assert "summing to 1" in str(info.value)


def test_from_probabilities_with_floats_raises_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        Distribution.from_probabilities({1: 0.5, 2: 0.5})  # type: ignore[dict-item]


# reading --------------------------------------------------------------------------


def test_probability_where_and_probabilities() -> None:
    d6 = Distribution.die(6)
    assert d6.probability_where(lambda x: x >= 5) == Fraction(1, 3)
    assert d6.probability_where(lambda x: x > 6) == 0
    probs = d6.probabilities()
    assert probs == dict.fromkeys(range(1, 7), Fraction(1, 6))
    assert all(isinstance(p, Fraction) for p in probs.values())


def test_mean_of_numbers_and_with_a_value_function() -> None:
    assert Distribution.die(6).mean() == Fraction(7, 2)
    assert Distribution({1: 1, 10: 3}).mean() == Fraction(31, 4)
    assert Distribution({Fraction(1, 2): 1, Fraction(3, 2): 1}).mean() == 1
    pairs = Distribution({(1, 0): 1, (2, 1): 1})
    assert pairs.mean(lambda t: t[0]) == Fraction(3, 2)
    assert pairs.mean(lambda t: t[1]) == Fraction(1, 2)


def test_mean_of_non_numeric_outcomes_needs_a_value_function() -> None:
    d = Distribution({"hit": 1, "miss": 1})
    with pytest.raises(InvalidInput) as info:
        d.mean()
    assert info.value.field == "outcome"
    assert "value function" in info.value.expected
    assert d.mean(lambda o: 1 if o == "hit" else 0) == Fraction(1, 2)


# equality, hashing, immutability --------------------------------------------------


def test_equality_ignores_scale_and_order() -> None:
    a = Distribution({1: 2, 2: 4})
    b = Distribution({2: 2, 1: 1})
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1


def test_inequality() -> None:
    assert Distribution({1: 1, 2: 1}) != Distribution({1: 1, 2: 2})
    assert Distribution({1: 1}) != Distribution({2: 1})
    assert Distribution({1: 1}) != {1: 1}
    assert Distribution.die(6) != Distribution.die(7)


def test_no_public_mutation() -> None:
    d = Distribution.die(4)
    with pytest.raises(AttributeError):
        d.total = 10  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d.extra = 1  # type: ignore[attr-defined]
    public = {name for name in dir(d) if not name.startswith("_")}
    assert not {n for n in public if n.startswith(("set", "add", "update", "pop", "clear"))}


def test_items_and_probabilities_return_copies() -> None:
    d = Distribution.die(4)
    items = list(d.items())
    items.append((99, 99))
    probs = d.probabilities()
    probs[1] = Fraction(1)
    probs[5] = Fraction(1)
    assert d.outcomes() == (1, 2, 3, 4)
    assert d.probability(1) == Fraction(1, 4)
    assert d.total == 4


def test_repr_shows_weights() -> None:
    assert repr(Distribution({2: 2, 1: 4})) == "Distribution({1: 2, 2: 1})"


# sampling -------------------------------------------------------------------------


def test_sample_maps_each_ticket_to_the_cumulative_outcome() -> None:
    d = Distribution({"a": 1, "b": 3, "c": 2})
    source = RecordingSource(SeededSource(0))
    d.sample(source)
    assert [draw.sides for draw in source.draws] == [6]
    replay = ReplaySource(Draw(6, ticket) for ticket in range(1, 7))
    assert [d.sample(replay) for _ in range(6)] == ["a", "b", "b", "b", "c", "c"]
    assert replay.exhausted


def test_seeded_samples_stay_in_support_with_plausible_frequencies() -> None:
    d = Distribution({"rare": 1, "common": 3, "never": 0})
    source = SeededSource(20240601)
    counts = Counter(d.sample(source) for _ in range(4000))
    assert set(counts) == {"rare", "common"}
    assert 0.70 < counts["common"] / 4000 < 0.80


def test_seeded_sampling_is_reproducible() -> None:
    d = Distribution.die(20)
    a, b = SeededSource(7), SeededSource(7)
    first = [d.sample(a) for _ in range(50)]
    second = [d.sample(b) for _ in range(50)]
    assert first == second
    assert set(first) <= set(range(1, 21))
    assert len(set(first)) > 1
