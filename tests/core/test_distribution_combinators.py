"""Distribution combinators, each checked against a brute-force enumeration."""

import itertools
from collections import Counter, defaultdict
from fractions import Fraction

import pytest

from rulebound.core.distribution import Distribution, add_outcomes, sum_all
from rulebound.core.errors import InvalidInput


def enumerate_sum(sides: int, count: int) -> dict[int, Fraction]:
    """Brute force: every ordered roll of ``count`` dice with ``sides`` sides."""
    rolls = list(itertools.product(range(1, sides + 1), repeat=count))
    counts = Counter(sum(roll) for roll in rolls)
    return {total: Fraction(n, len(rolls)) for total, n in counts.items()}


# map ------------------------------------------------------------------------------


def test_map_merges_outcomes_that_collide() -> None:
    parity = Distribution.die(6).map(lambda x: x % 2 == 0)
    assert parity.probabilities() == {False: Fraction(1, 2), True: Fraction(1, 2)}
    assert len(parity) == 2
    band = Distribution.die(10).map(lambda x: "high" if x >= 8 else "low")
    assert band.probability("high") == Fraction(3, 10)


def test_map_preserves_weights_of_a_bijection() -> None:
    d = Distribution({1: 1, 2: 3})
    assert dict(d.map(lambda x: -x).items()) == {-2: 3, -1: 1}


# flat_map -------------------------------------------------------------------------


def test_flat_map_with_mixed_child_denominators_is_exact() -> None:
    # Roll a d4; on a 4 roll a d6 and add it, on a 3 roll a d3, otherwise keep the face.
    def follow(x: int) -> Distribution[int]:
        if x == 4:
            return Distribution.die(6).map(lambda y: x + y)
        if x == 3:
            return Distribution.die(3).map(lambda y: x + y)
        return Distribution.single(x)

    result = Distribution.die(4).flat_map(follow)

    expected: defaultdict[int, Fraction] = defaultdict(Fraction)
    for x in range(1, 5):
        if x == 4:
            for y in range(1, 7):
                expected[x + y] += Fraction(1, 4) * Fraction(1, 6)
        elif x == 3:
            for y in range(1, 4):
                expected[x + y] += Fraction(1, 4) * Fraction(1, 3)
        else:
            expected[x] += Fraction(1, 4)
    assert result.probabilities() == dict(expected)
    assert result.probability(5) == Fraction(1, 12) + Fraction(1, 24)
    assert sum(result.probabilities().values()) == 1


def test_flat_map_with_unevenly_weighted_parent() -> None:
    parent = Distribution({"push": 2, "stop": 1})
    children = {
        "push": Distribution({"win": 1, "lose": 4}),
        "stop": Distribution({"win": 1, "lose": 1}),
    }
    result = parent.flat_map(children.__getitem__)
    win = Fraction(2, 3) * Fraction(1, 5) + Fraction(1, 3) * Fraction(1, 2)
    assert result.probability("win") == win
    assert result.probability("lose") == 1 - win


# combine / joint ------------------------------------------------------------------


def test_combine_max_of_two_d20_matches_enumeration() -> None:
    best = Distribution.die(20).combine(Distribution.die(20), max)
    counts = Counter(max(a, b) for a in range(1, 21) for b in range(1, 21))
    assert best.probabilities() == {k: Fraction(n, 400) for k, n in counts.items()}
    assert best.probability(20) == Fraction(39, 400)
    assert best.probability(1) == Fraction(1, 400)


def test_joint_keeps_pairs_and_independence() -> None:
    coin = Distribution.uniform(["H", "T"])
    d3 = Distribution.die(3)
    pairs = coin.joint(d3)
    assert len(pairs) == 6
    assert all(pairs.probability((c, x)) == Fraction(1, 6) for c in "HT" for x in (1, 2, 3))
    assert pairs.map(lambda t: t[0]) == coin
    assert pairs.map(lambda t: t[1]) == d3


# convolve / add_outcomes ----------------------------------------------------------


def test_convolve_ints_matches_enumeration() -> None:
    two_d10 = Distribution.die(10).convolve(Distribution.die(10))
    assert two_d10.probabilities() == enumerate_sum(10, 2)
    assert two_d10.probability(11) == Fraction(10, 100)


def test_convolve_tuple_vectors_successes_and_banes() -> None:
    # One die: 6 is a success, 1 is a bane, anything else nothing.
    die = Distribution.die(6).map(lambda x: (int(x == 6), int(x == 1)))
    three = die.convolve(die).convolve(die)
    counts = Counter(
        (sum(x == 6 for x in roll), sum(x == 1 for x in roll))
        for roll in itertools.product(range(1, 7), repeat=3)
    )
    assert three.probabilities() == {k: Fraction(n, 216) for k, n in counts.items()}
    assert three.probability((0, 0)) == Fraction(64, 216)
    assert three.probability((1, 1)) == Fraction(6 * 4, 216)


def test_add_outcomes_numbers_and_vectors() -> None:
    assert add_outcomes(2, 3) == 5
    assert add_outcomes(Fraction(1, 2), Fraction(1, 3)) == Fraction(5, 6)
    assert add_outcomes((1, 0, 2), (0, 1, 1)) == (1, 1, 3)


def test_add_outcomes_rejects_tuples_of_different_length() -> None:
    with pytest.raises(InvalidInput) as info:
        add_outcomes((1, 2), (1, 2, 3))
    assert info.value.field == "outcome"
    assert "length 2" in info.value.expected


def test_convolve_of_mismatched_vectors_is_rejected() -> None:
    pair: Distribution[tuple[int, ...]] = Distribution.single((1, 0))
    with pytest.raises(InvalidInput):
        pair.convolve(Distribution.single((1, 0, 0)))


# repeat / sum_all -----------------------------------------------------------------


def test_three_d6_golden_values() -> None:
    three_d6 = Distribution.die(6).repeat(3)
    assert three_d6.total == 216
    assert three_d6.weight(10) == 27
    assert three_d6.weight(11) == 27
    assert three_d6.weight(3) == 1
    assert three_d6.weight(18) == 1
    assert three_d6.probability(10) == Fraction(27, 216)
    assert three_d6.outcomes() == tuple(range(3, 19))
    assert three_d6.mean() == Fraction(21, 2)


@pytest.mark.parametrize("times", [1, 2, 3, 4, 5, 6, 7, 8])
def test_repeat_equals_naive_repeated_convolution(times: int) -> None:
    base = Distribution({0: 2, 1: 1, 3: 1})
    naive = base
    for _ in range(times - 1):
        naive = naive.convolve(base)
    assert base.repeat(times) == naive


@pytest.mark.parametrize(("sides", "count"), [(4, 5), (6, 4), (8, 3)])
def test_repeat_matches_enumeration(sides: int, count: int) -> None:
    assert Distribution.die(sides).repeat(count).probabilities() == enumerate_sum(sides, count)


def test_repeat_of_vectors() -> None:
    die = Distribution.die(6).map(lambda x: (int(x >= 5), int(x == 1)))
    assert die.repeat(4) == die.convolve(die).convolve(die).convolve(die)


@pytest.mark.parametrize("times", [0, -1])
def test_repeat_rejects_fewer_than_one(times: int) -> None:
    with pytest.raises(InvalidInput) as info:
        Distribution.die(6).repeat(times)
    assert info.value.field == "times"
    assert info.value.value == times


def test_sum_all_convolves_every_part() -> None:
    parts = [Distribution.die(4), Distribution.die(6), Distribution.single(2)]
    total = sum_all(parts)
    counts = Counter(a + b + 2 for a in range(1, 5) for b in range(1, 7))
    assert total.probabilities() == {k: Fraction(n, 24) for k, n in counts.items()}
    assert sum_all(iter(parts)) == total
    assert sum_all([Distribution.die(8)]) == Distribution.die(8)


def test_sum_all_of_nothing_is_rejected() -> None:
    with pytest.raises(InvalidInput) as info:
        sum_all([])
    assert info.value.field == "parts"


def test_combinators_do_not_change_their_inputs() -> None:
    d6 = Distribution.die(6)
    before = dict(d6.items())
    d6.map(lambda x: x * 2)
    d6.flat_map(lambda x: Distribution.die(x))
    d6.combine(d6, max)
    d6.convolve(d6)
    d6.repeat(5)
    assert dict(d6.items()) == before
