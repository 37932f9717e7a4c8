"""Issue 11 drift: the default push choice and whether a gear bane counts (and risks the gear)
were written twice, in the roller and in the odds engine. Each is now one function in
``rules``, which the roller, the odds engine and the push advisor all call; these tests pin
that down and check, die by die and face by face, that the two read them the same way.
"""

from __future__ import annotations

from itertools import product
from types import ModuleType

import pytest

from rulebound.rulesets.empty_reach import advisor, odds, roll, rules
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, Options, prepare
from rulebound.rulesets.empty_reach.rules import LADDER

RULES = ("base-dice", "gear-dice")


def imported(module: ModuleType, name: str) -> object:
    """A name the module imported for its own use (it does not re-export it)."""
    return vars(module)[name]


def test_roller_odds_and_advisor_share_one_function_per_decision() -> None:
    rerolled = rules.rerolled_by_default
    assert (
        imported(roll, "rerolled_by_default") is imported(odds, "rerolled_by_default") is rerolled
    )
    assert (
        imported(roll, "bane_counts")
        is imported(odds, "bane_counts")
        is imported(advisor, "bane_counts")
        is rules.bane_counts
    )
    assert imported(roll, "risks_gear") is imported(odds, "risks_gear") is rules.risks_gear
    assert imported(advisor, "gear_eligible") is odds.gear_eligible
    assert imported(roll, "may_reroll") is rules.may_reroll


def test_the_rules_read_as_the_rulings_say() -> None:
    assert [f for f in range(1, 13) if rules.rerolled_by_default(f)] == [2, 3, 4, 5]
    assert [f for f in range(1, 13) if not rules.may_reroll(f)] == [1]
    assert rules.bane_counts("attribute", "base-dice")
    assert rules.bane_counts("skill", "gear-dice")
    assert not rules.bane_counts("gear", "base-dice")
    assert rules.bane_counts("gear", "gear-dice")
    assert rules.risks_gear("skill", "base-dice")
    assert not rules.risks_gear("gear", "base-dice")
    assert rules.risks_gear("gear", "gear-dice")
    assert not rules.risks_gear("skill", "gear-dice")


class Faces:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def draw(self, sides: int) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= sides
        return face

    def describe(self) -> dict[str, object]:
        return {"kind": "faces"}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("gear_die", LADDER)
def test_roller_and_odds_agree_on_every_face(rule: str, gear_die: rules.StepDie) -> None:
    """For every face of a D6 + D8 pool with an extra gear die: the dice the roller would
    reroll by default, the banes it counts and those that risk the gear are the ones the odds
    engine tallies."""
    gear = GearInUse(name="rig", bonus=1, dice=(gear_die,))
    check = prepare(
        CheckRequest(
            attribute_die="D6", skill_die="D6", gear=gear, options=Options(gear_banes=rule)
        )
    )
    sides = [die.value for die in check.pool.dice] + [gear_die.value]
    for faces in product(*(range(1, s + 1) for s in sides)):
        result = roll.roll_check(check, Faces(*faces))
        tallies = [odds.tally(d.face, d.role, check) for d in result.dice]
        assert result.successes == sum(t[0] for t in tallies)
        assert result.banes == sum(t[1] + t[2] for t in tallies)
        assert result.default_reroll() == tuple(
            i for i, d in enumerate(result.dice) if rules.rerolled_by_default(d.face)
        )
        at_risk = [
            d for d in result.dice if rules.is_bane(d.face) and rules.risks_gear(d.role, rule)
        ]
        base = sum(t[1] for t in tallies)
        on_gear = sum(t[2] for t in tallies)
        assert odds.gear_eligible(base, on_gear, rule) == len(at_risk)


@pytest.mark.parametrize("rule", RULES)
def test_a_first_push_checks_the_gear_for_the_banes_the_odds_count(rule: str) -> None:
    """Push a roll of three 2s into 1s: the gear checks the roller draws are the odds' count."""
    gear = GearInUse(name="rig", bonus=3, dice=("D6",))
    check = prepare(
        CheckRequest(
            attribute_die="D6", skill_die="D6", gear=gear, options=Options(gear_banes=rule)
        )
    )
    result = roll.roll_check(check, Faces(2, 2, 2))
    pushed = roll.push(result, Faces(1, 1, 1, 6, 6, 6), [0, 1, 2])
    assert pushed.costs is not None
    expected = odds.gear_eligible(2, 1 if rule == "gear-dice" else 0, rule)
    assert len(pushed.costs.gear_checks) == expected == (1 if rule == "gear-dice" else 2)
