"""The roll reads the success face once (issue 16) instead of asking the rules per die: the
spend and the scoring must be exactly what ``rules.cost`` and ``rules.succeeds`` give."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.trace import Provenance
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.bonus import optimal_allocation
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import evaluate
from rulebound.rulesets.rainwall.rules import BarelyRule, MissIos, Options, SuccessFace

options_strategy = st.builds(
    Options,
    st.sampled_from(list(SuccessFace)),
    st.sampled_from(list(MissIos)),
    st.sampled_from(list(BarelyRule)),
)


def reference_allocation(
    faces: Sequence[int], skill: int, bonus: int, options: Options
) -> tuple[int, ...]:
    """The spend as it was, through ``rules.cost`` per die: the oracle."""
    costs = [rules.cost(face, skill, options) for face in faces]
    points = [0] * len(faces)
    left = bonus
    for price, index in sorted((c, i) for i, c in enumerate(costs) if c):
        if price > left:
            break
        points[index] = price
        left -= price
    return tuple(points)


@given(
    st.lists(st.integers(1, 10), min_size=1, max_size=12),
    st.integers(1, 10),
    st.integers(-2, 20),
    options_strategy,
)
def test_the_spend_is_the_one_rules_cost_gives(
    faces: list[int], skill: int, bonus: int, options: Options
) -> None:
    assert optimal_allocation(faces, skill, bonus, options) == reference_allocation(
        faces, skill, bonus, options
    )


@given(
    st.lists(st.integers(1, 10), min_size=1, max_size=10),
    st.integers(1, 10),
    st.integers(0, 8),
    options_strategy,
)
def test_each_die_succeeds_as_rules_succeeds_says(
    faces: list[int], skill: int, bonus: int, options: Options
) -> None:
    request = RainwallRequest(len(faces), skill, 1, bonus, options)
    allocation = optimal_allocation(faces, skill, bonus, options)
    result = evaluate(request, faces, allocation, Provenance.of({"kind": "test"}, ()))
    assert result.raw_successes == sum(rules.succeeds(f, skill, options) for f in faces)
    finals = [f - p for f, p in zip(faces, allocation, strict=True)]
    assert result.successes == sum(rules.succeeds(f, skill, options) for f in finals)
    for die, final in zip(result.dice, finals, strict=True):
        assert ("success" in die.marks) == rules.succeeds(final, skill, options)
