"""One die under "always push", as the pool-level odds count it (``_settled_outcomes``: one
weight for the faces that stay and one for those a push rerolls, the faces read once
through ``_face_kinds``), equals the face-by-face weights the request path uses
(``_settled_weights``), for every die on the ladder, both bane readings and every
number of pushes a roll allows."""

from __future__ import annotations

import pytest

from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.rulesets.empty_reach.odds import (
    _face_kinds,
    _settled_outcomes,
    _settled_weights,
    pool_outcomes,
)
from rulebound.rulesets.empty_reach.rules import (
    LADDER,
    StepDie,
    is_bane,
    rerolled_by_default,
    successes_on,
)


def face_by_face(sides: int, banes: bool, pushes: int) -> dict[tuple[int, int], int]:
    outcomes: dict[tuple[int, int], int] = {}
    for (face, _), weight in _settled_weights(sides, pushes).items():
        key = (successes_on(face), 1 if banes and is_bane(face) else 0)
        outcomes[key] = outcomes.get(key, 0) + weight
    return outcomes


@pytest.mark.parametrize("pushes", range(DEFAULT_LIMITS.max_pushes + 1))
@pytest.mark.parametrize("banes", [True, False])
@pytest.mark.parametrize("die", LADDER)
def test_a_settled_die_equals_its_faces_one_by_one(die: StepDie, banes: bool, pushes: int) -> None:
    got = _settled_outcomes(die.value, banes, pushes)
    assert got == face_by_face(die.value, banes, pushes)
    assert sum(got.values()) == die.value ** (pushes + 1)


def test_the_face_kinds_are_the_rules_for_every_face_of_the_largest_die() -> None:
    faces = range(1, LADDER[-1].value + 1)
    expected = [(successes_on(f), is_bane(f), rerolled_by_default(f)) for f in faces]
    assert list(_face_kinds()) == expected


def test_a_die_as_sides_label_or_step_is_the_same_pool() -> None:
    by_sides = pool_outcomes(8, 12, policy="always")
    assert pool_outcomes("D8", StepDie.D12, policy="always") == by_sides
    assert pool_outcomes(StepDie.D8, "d12", policy="always") == by_sides
