"""The Empty Reach push advisor equals brute force: every draw a push can make, through the roller.

The oracle runs the real ``push`` on every sequence of faces it could ask for
(rerolled dice, then any gear checks), weighting each path by 1/sides per draw,
so it shares no code with the advisor's distribution arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest

from rulebound.rulesets.empty_reach.advisor import evaluate, push_options, recommend
from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push, roll_check


class _NeedMore(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class Prefix:
    """Answers with the given faces, then asks the enumerator for the next die's sides."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def draw(self, sides: int) -> int:
        if not self.faces:
            raise _NeedMore(sides)
        face = self.faces.pop(0)
        assert 1 <= face <= sides
        return face

    def describe(self) -> dict[str, object]:
        return {"kind": "enumeration"}


def every_push(
    result: EmptyReachResult, selection: Sequence[int]
) -> list[tuple[Fraction, EmptyReachResult]]:
    paths: list[tuple[Fraction, EmptyReachResult]] = []
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            paths.append((p, push(result, Prefix(prefix), list(selection))))
        except _NeedMore as more:
            stack.extend(((*prefix, f), p / more.sides) for f in range(1, more.sides + 1))
    assert sum(p for p, _ in paths) == 1
    return paths


def rolled(faces: Sequence[int], **request: Any) -> EmptyReachResult:
    return roll_check(prepare(CheckRequest(**request)), Prefix(faces))


CASES = [
    ((3, 1), {"attribute_die": "D8", "skill_die": "D10"}),
    ((4, 7), {"attribute_die": "D8", "skill_die": "D10"}),
    ((2, 10), {"attribute_die": "D6", "skill_die": "D12"}),
    # gear bonus 2 steps D6+D6 up to D8+D8; banes on base dice may cost the gear a point
    ((3, 5), {"attribute_die": "D6", "skill_die": "D6", "gear": {"name": "kit", "bonus": 2}}),
    # gear-dice variant: the extra D6's 1s are banes, and only they risk the gear
    (
        (4, 2, 3),
        {
            "attribute_die": "D6",
            "skill_die": "D6",
            "gear": {"name": "rig", "bonus": 1, "dice": ("D6",)},
            "options": {"gear_banes": "gear-dice"},
        },
    ),
]


def assert_matches_brute_force(result: EmptyReachResult) -> None:
    options = push_options(result)
    allowed = result.rerollable()
    expected = [()] + [c for n in range(1, len(allowed) + 1) for c in combinations(allowed, n)]
    assert sorted(o.selection for o in options) == sorted(expected)
    for option in options:
        if not option.selection:
            assert option.p_success == int(result.succeeded)
            continue
        paths = every_push(result, option.selection)
        assert option.p_success == sum(p for p, r in paths if r.successes >= 1)
        assert option.expected_successes == sum(p * r.successes for p, r in paths)
        assert option.p_bane == sum(p for p, r in paths if r.costs and r.costs.new_banes)
        assert option.expected_points == sum(p * r.costs.points for p, r in paths if r.costs)
        assert option.p_gear_loss == sum(p for p, r in paths if r.costs and r.costs.gear_loss)
    best = recommend(result, "succeed")
    assert best is not None
    assert best.p_success == max(o.p_success for o in options)
    most = recommend(result, "successes")
    assert most is not None
    assert most.expected_successes == max(o.expected_successes for o in options)


@pytest.mark.parametrize(("faces", "request_fields"), CASES)
def test_first_push_equals_brute_force(faces: tuple[int, ...], request_fields: Any) -> None:
    assert_matches_brute_force(rolled(faces, **request_fields))


def test_second_push_charges_only_new_banes() -> None:
    first = rolled(
        (1, 4),
        attribute_die="D8",
        skill_die="D10",
        attribute="Empathy",
        specialties=("Compassion",),
        gear={"name": "kit", "bonus": 1},
    )
    assert first.check.max_pushes == 2
    # reroll the 4 into a 3; the bane showing is charged now, and its gear check shows 4
    once = push(first, Prefix((3, 4)), [1])
    assert once.costs is not None
    assert (once.costs.new_banes, once.costs.points) == (1, 1)
    assert once.pushes_left == 1
    assert_matches_brute_force(once)


def test_gear_loss_is_reported_with_gear() -> None:
    result = rolled((3, 5), attribute_die="D6", skill_die="D6", gear={"name": "kit", "bonus": 2})
    option = evaluate(result, (0, 1))
    assert 0 < option.p_gear_loss < option.p_bane
