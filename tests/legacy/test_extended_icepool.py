"""Extended checks over integer weights (issue 16) against icepool, up to the API maximum
(thresholds 10,000, 50 rolls), and the cap itself."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest
from pydantic import ValidationError

from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.extended import MAX_ROLLS, ExtendedSpec, ExtendedStatus
from rulebound.rulesets.legacy.odds import extended_chances
from rulebound.rulesets.legacy.rules import classify, weighted_margin


def steps_of(req: CheckRequest) -> list[tuple[int, int]]:
    """(success, failure) one roll of each face adds, by the rule functions."""
    t = resolve(req).thresholds
    out = []
    for face in range(1, t.die + 1):
        o = classify(face, t)
        m = weighted_margin(face, t, o)
        out.append((m, 0) if o.passed else (0, -m))
    return out


def icepool_ends(req: CheckRequest, spec: ExtendedSpec) -> dict[ExtendedStatus, Fraction]:
    """The two tallies as an icepool state machine over ``max_rolls`` rolls."""
    steps, s_need, f_need = steps_of(req), spec.success_threshold, spec.failure_threshold
    die = icepool.d(len(steps))

    def step(state: tuple[int, int], face: int) -> tuple[int, int]:
        s, f = state
        if s >= s_need or f >= f_need:
            return state
        up, down = steps[face - 1]
        return (min(s + up, s_need), min(f + down, f_need))

    end = icepool.map(step, (0, 0), die, repeat=spec.max_rolls)

    def share(test: Callable[[int, int], bool]) -> Fraction:
        return Fraction(sum(q for (s, f), q in end.items() if test(s, f)), end.denominator())

    return {
        ExtendedStatus.SUCCEEDED: share(lambda s, f: s >= s_need),
        ExtendedStatus.FAILED: share(lambda s, f: s < s_need and f >= f_need),
        ExtendedStatus.PARTIAL: share(lambda s, f: s < s_need and f < f_need and s > f),
        ExtendedStatus.RAN_OUT: share(lambda s, f: s < s_need and f < f_need and s <= f),
    }


@pytest.mark.parametrize(
    ("target", "success", "failure", "rolls"),
    [(10, 25, 20, 12), (4, 12, 30, 10), (16, 40, 8, 9), (10, 3, 3, 50)],
)
def test_reachable_thresholds_equal_icepool(
    target: int, success: int, failure: int, rolls: int
) -> None:
    req = CheckRequest(target=target, bonus=1)
    spec = ExtendedSpec(success_threshold=success, failure_threshold=failure, max_rolls=rolls)
    assert extended_chances(req, spec) == icepool_ends(req, spec)


@pytest.mark.parametrize("target", [4, 10, 16])
def test_the_api_maximum_equals_icepool(target: int) -> None:
    """Thresholds of 10,000 cannot be reached in 50 rolls here, so only the final
    difference decides: icepool sums the 50 rolls' differences."""
    req = CheckRequest(target=target, bonus=1)
    spec = ExtendedSpec(success_threshold=10_000, failure_threshold=10_000, max_rolls=MAX_ROLLS)
    steps = steps_of(req)
    assert MAX_ROLLS * max(max(s) for s in steps) < 10_000
    diff = MAX_ROLLS @ icepool.d(20).map(lambda f: steps[f - 1][0] - steps[f - 1][1])
    ahead = Fraction(diff.probability(">", 0))
    assert extended_chances(req, spec) == {
        ExtendedStatus.SUCCEEDED: 0,
        ExtendedStatus.FAILED: 0,
        ExtendedStatus.PARTIAL: ahead,
        ExtendedStatus.RAN_OUT: 1 - ahead,
    }


@pytest.mark.parametrize(
    ("field", "value"),
    [("success_threshold", 10_001), ("failure_threshold", 0), ("max_rolls", MAX_ROLLS + 1)],
)
def test_the_spec_is_capped(field: str, value: int) -> None:
    spec = {"success_threshold": 10, "failure_threshold": 10, "max_rolls": 5, field: value}
    with pytest.raises(ValidationError) as caught:
        ExtendedSpec(**spec)
    assert caught.value.errors()[0]["loc"] == (field,)
