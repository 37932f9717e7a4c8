"""The pool-level odds entry point (``pool_outcomes``): the dice alone, no request.

It must equal what a validated request gives (``outcome_distribution(prepare(...))``,
itself checked against brute force and icepool in the other odds tests) for every
pool, push policy, push count and gear-bane reading, equal icepool directly, and name
the field of any bad argument.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, Options, prepare
from rulebound.rulesets.empty_reach.odds import (
    PUSH_POLICIES,
    PushPolicy,
    outcome_distribution,
    pool_outcomes,
)
from rulebound.rulesets.empty_reach.rules import LADDER, GearBanes

SIDES = [die.value for die in LADDER]
POOLS = [(a, s) for a in SIDES for s in (None, *SIDES)]


def hits(face: int) -> int:
    return 2 if face >= 10 else 1 if face >= 6 else 0


@pytest.mark.parametrize("policy", PUSH_POLICIES)
@pytest.mark.parametrize(("attribute", "skill"), POOLS)
def test_equals_the_request_path(attribute: int, skill: int | None, policy: PushPolicy) -> None:
    request = CheckRequest(
        attribute_die=f"D{attribute}", skill_die=None if skill is None else f"D{skill}"
    )
    check = prepare(request)
    expected = outcome_distribution(check, policy).probabilities()
    got = pool_outcomes(attribute, skill, policy=policy, pushes=check.max_pushes)
    assert got.probabilities() == expected


@pytest.mark.parametrize("gear_banes", ["base-dice", "gear-dice"])
@pytest.mark.parametrize("policy", PUSH_POLICIES)
def test_gear_dice_and_their_banes_equal_the_request_path(
    policy: PushPolicy, gear_banes: GearBanes
) -> None:
    request = CheckRequest(
        attribute_die="D6",
        skill_die="D8",
        gear=GearInUse(name="kit", bonus=1, dice=("D12", "D6")),
        options=Options(gear_banes=gear_banes),
    )
    check = prepare(request)
    expected = outcome_distribution(check, policy).probabilities()
    attribute, skill = (die.value for die in check.pool.dice)  # the gear bonus steps a die
    gear = tuple(die.label for die in check.gear_dice)
    assert gear == ("D12", "D6")
    got = pool_outcomes(
        attribute,
        skill,
        gear,
        policy=policy,
        pushes=check.max_pushes,
        gear_banes=gear_banes,
    )
    assert got.probabilities() == expected


def pushed(sides: int, pushes: int) -> icepool.Die:
    """A die rerolled by every push while it shows neither a success nor a 1."""
    if pushes == 0:
        return icepool.d(sides)
    again = pushed(sides, pushes - 1)
    return icepool.d(sides).map(lambda f: again if f != 1 and not hits(f) else f)


@pytest.mark.parametrize("pushes", [0, 1, 2, 3])
@pytest.mark.parametrize(("attribute", "skill"), [(6, 6), (8, 10), (12, 12), (10, None)])
def test_always_push_equals_icepool(attribute: int, skill: int | None, pushes: int) -> None:
    dice = [pushed(s, pushes) for s in (attribute, skill) if s is not None]
    scored = [d.map(lambda f: icepool.Vector((hits(f), int(f == 1)))) for d in dice]
    total = sum(scored[1:], scored[0])
    want = {tuple(k): Fraction(q, total.denominator()) for k, q in total.items() if q}
    assert pool_outcomes(attribute, skill, policy="always", pushes=pushes).probabilities() == want


def test_one_pushed_d6_by_hand() -> None:
    # 6 succeeds, 1 is a bane and stays; 2-5 are rerolled once: 1/6 + 4/6 * 1/6 succeed
    odds = pool_outcomes(6, policy="always", pushes=1).probabilities()
    assert odds[(1, 0)] == Fraction(1, 6) + Fraction(4, 6) * Fraction(1, 6)
    assert odds[(0, 1)] == Fraction(1, 6) + Fraction(4, 6) * Fraction(1, 6)
    assert odds[(0, 0)] == Fraction(4, 6) * Fraction(4, 6)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"attribute": 7}, "attribute"),
        ({"attribute": "D20"}, "attribute"),
        ({"attribute": 6, "skill": "d5"}, "skill"),
        ({"attribute": 6, "gear": (6, 9)}, "gear[1]"),
        ({"attribute": 6, "gear": (6,) * 7}, "gear"),
        ({"attribute": 6, "policy": "sometimes"}, "policy"),
        ({"attribute": 6, "pushes": 4}, "pushes"),
        ({"attribute": 6, "pushes": True}, "pushes"),
        ({"attribute": 6, "gear_banes": "all"}, "gear_banes"),
    ],
)
def test_bad_arguments_name_the_field(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        pool_outcomes(**kwargs)
    assert caught.value.field == field
