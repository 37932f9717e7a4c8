"""Bonus points: the greedy spend is optimal, overrides are checked, alternatives are complete."""

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.bonus import (
    alternatives,
    checked_allocation,
    optimal_allocation,
    successes,
)
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import BarelyRule, MissIos, Options, SuccessFace

options_strategy = st.builds(
    Options,
    st.sampled_from(list(SuccessFace)),
    st.sampled_from(list(MissIos)),
    st.sampled_from(list(BarelyRule)),
)
faces_strategy = st.lists(st.integers(1, 10), min_size=1, max_size=4).map(tuple)


def every_allocation(faces: tuple[int, ...], bonus: int) -> list[tuple[int, ...]]:
    """Every legal spend, found without any idea of cost: the exhaustive oracle."""
    ranges = [range(min(face - 1, bonus) + 1) for face in faces]
    return [points for points in product(*ranges) if sum(points) <= bonus]


@given(faces_strategy, st.integers(1, 10), st.integers(0, 6), options_strategy)
def test_greedy_spend_is_never_beaten(
    faces: tuple[int, ...], skill: int, bonus: int, options: Options
) -> None:
    chosen = optimal_allocation(faces, skill, bonus, options)
    assert checked_allocation(faces, bonus, chosen) == chosen
    best = max(successes(faces, p, skill, options) for p in every_allocation(faces, bonus))
    assert successes(faces, chosen, skill, options) == best


@given(faces_strategy, st.integers(1, 10), st.integers(1, 6), st.integers(0, 6), options_strategy)
def test_alternatives_are_legal_distinct_and_include_the_best(
    faces: tuple[int, ...], skill: int, dr: int, bonus: int, options: Options
) -> None:
    request = RainwallRequest(len(faces), skill, dr, bonus, options)
    found = alternatives(request, faces)
    reachable = {successes(faces, p, skill, options) for p in every_allocation(faces, bonus)}
    assert {alt.successes for alt in found} == reachable
    assert found[0].successes == max(reachable)
    for alt in found:
        assert checked_allocation(faces, bonus, alt.allocation) == alt.allocation
        assert successes(faces, alt.allocation, skill, options) == alt.successes
        assert alt.ios == rules.ios(alt.successes, dr, options)
    finals = [sorted(f - p for f, p in zip(faces, a.allocation, strict=True)) for a in found]
    assert len(finals) == len({tuple(f) for f in finals})


def test_cheapest_failures_first() -> None:
    # skill 5, +3: the 6 (cost 1) and the 7 (cost 2) beat the 8 (cost 3)
    assert optimal_allocation((8, 7, 6, 2), 5, 3, Options()) == (0, 2, 1, 0)


def test_ties_go_to_the_earliest_die_and_spare_points_stay_unspent() -> None:
    assert optimal_allocation((6, 6, 9), 5, 2, Options()) == (1, 1, 0)
    assert optimal_allocation((6, 9), 5, 2, Options()) == (1, 0)


def test_successes_need_no_points() -> None:
    assert optimal_allocation((1, 5), 5, 4, Options()) == (0, 0)


def test_override_must_give_one_entry_per_die() -> None:
    with pytest.raises(InvalidInput) as caught:
        checked_allocation((6, 7), 3, (1,))
    assert caught.value.field == "allocation"
    assert "2 entries" in caught.value.expected


def test_override_refuses_negative_points() -> None:
    with pytest.raises(InvalidInput) as caught:
        checked_allocation((6, 7), 3, (-1, 2))
    assert caught.value.field == "allocation.d1"


def test_override_may_not_push_a_die_below_one() -> None:
    with pytest.raises(RuleViolation, match="d2 shows 2; 2 points would move it below 1"):
        checked_allocation((6, 2), 3, (0, 2))


def test_alternatives_for_the_seed_roll() -> None:
    found = alternatives(RainwallRequest(7, 5, 4, 3), (9, 8, 7, 6, 6, 5, 1))
    best = found[0]
    assert (best.successes, best.spent, best.degree) == (4, 2, rules.Degree.BARELY)
    assert best.allocation == (0, 0, 0, 1, 1, 0, 0)
    worst = found[-1]
    assert (worst.successes, worst.spent, worst.degree) == (2, 0, rules.Degree.FAILURE)
