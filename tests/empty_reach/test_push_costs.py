"""What a push costs: damage or stress per bane, and the 2-in-6 gear check in place of it."""

from __future__ import annotations

import pytest

from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, Options, prepare
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push, roll_check

from .conftest import Scripted


def rolled(scripted: type[Scripted], request: CheckRequest, *faces: int) -> EmptyReachResult:
    return roll_check(prepare(request), scripted(*faces))


@pytest.mark.parametrize(
    ("skill", "kind"),
    [
        ("Force", "damage"),
        ("Melee", "damage"),
        ("Stamina", "damage"),
        ("Marksmanship", "damage"),
        ("Mobility", "damage"),
        ("Stealth", "damage"),
        ("Crafting", "stress"),
        ("Observation", "stress"),
        ("Survival", "stress"),
        ("Healing", "stress"),
        ("Insight", "stress"),
        ("Persuasion", "stress"),
    ],
)
def test_one_point_per_bane_of_the_attributes_kind(
    scripted: type[Scripted], skill: str, kind: str
) -> None:
    request = CheckRequest(attribute_die="D8", skill_die="D8", skill=skill)
    pushed = push(rolled(scripted, request, 3, 4), scripted(1, 1))
    assert pushed.costs is not None
    assert pushed.costs.kind == kind
    assert pushed.costs.new_banes == 2
    assert pushed.costs.points == 2
    assert pushed.costs.gear_checks == ()
    assert pushed.costs.describe() == f"2 new bane(s): 2 {kind}"


def test_no_bane_no_cost(scripted: type[Scripted]) -> None:
    request = CheckRequest(attribute_die="D8", skill_die="D8", skill="Force")
    pushed = push(rolled(scripted, request, 3, 4), scripted(5, 6))
    assert pushed.costs is not None
    assert (pushed.costs.new_banes, pushed.costs.points) == (0, 0)


def test_an_unpushed_roll_costs_nothing(scripted: type[Scripted]) -> None:
    result = rolled(scripted, CheckRequest(attribute_die="D8", skill_die="D8", skill="Force"), 1, 1)
    assert result.banes == 2
    assert result.costs is None


def test_first_push_charges_the_banes_already_showing(scripted: type[Scripted]) -> None:
    request = CheckRequest(attribute_die="D8", skill_die="D8", skill="Insight")
    pushed = push(rolled(scripted, request, 1, 3), scripted(5))
    assert pushed.costs is not None
    assert pushed.costs.new_banes == 1
    assert pushed.costs.points == 1
    assert pushed.costs.kind == "stress"


def test_second_push_charges_only_new_banes(scripted: type[Scripted]) -> None:
    request = CheckRequest(
        attribute_die="D8",
        skill_die="D8",
        skill="Insight",
        specialties=("Compassion",),
    )
    first = push(rolled(scripted, request, 1, 3), scripted(4))
    assert first.costs is not None
    assert first.costs.points == 1
    second = push(first, scripted(1))
    assert second.banes == 2
    assert second.costs is not None
    assert second.costs.new_banes == 1
    assert second.costs.points == 1
    quiet = push(first, scripted(2))
    assert quiet.costs is not None
    assert quiet.costs.new_banes == 0


def test_a_raw_roll_without_attribute_names_no_kind(scripted: type[Scripted]) -> None:
    pushed = push(rolled(scripted, CheckRequest(attribute_die="D6"), 3), scripted(1))
    assert pushed.costs is not None
    assert pushed.costs.kind is None
    assert pushed.costs.describe() == "1 new bane(s): 1 damage or stress"


GEAR = CheckRequest(
    attribute_die="D6", skill_die="D6", skill="Force", gear=GearInUse(name="crowbar", bonus=2)
)


@pytest.mark.parametrize(
    ("checks", "gear_loss", "points"),
    [((1, 2), 2, 0), ((3, 6), 0, 2), ((2, 5), 1, 1), ((4, 1), 1, 1)],
)
def test_each_bane_gets_a_gear_check_in_the_trace(
    scripted: type[Scripted], checks: tuple[int, int], gear_loss: int, points: int
) -> None:
    # D6+D6 with gear +2 is D8+D8
    source = scripted(1, 1, *checks)
    pushed = push(rolled(scripted, GEAR, 3, 4), source)
    assert source.used_up
    assert pushed.costs is not None
    assert [c.face for c in pushed.costs.gear_checks] == list(checks)
    assert all(c.sides == 6 and c.role == "gear check" for c in pushed.costs.gear_checks)
    assert [c.marks for c in pushed.costs.gear_checks] == [
        ("gear loses 1",) if f <= 2 else ("no gear loss",) for f in checks
    ]
    assert pushed.costs.gear_loss == gear_loss
    assert pushed.costs.points == points
    assert pushed.costs.new_banes == 2
    assert [(d.sides, d.face) for d in pushed.provenance.draws] == [
        (8, 1),
        (8, 1),
        (6, checks[0]),
        (6, checks[1]),
    ]
    assert f"gear -{gear_loss}" in pushed.costs.describe()


def test_gear_at_zero_stops_further_checks(scripted: type[Scripted]) -> None:
    request = GEAR.model_copy(update={"gear": GearInUse(name="crowbar", bonus=1)})
    # D6+D6 with +1 is D6+D8; one check hits and the gear is spent
    source = scripted(1, 1, 2)
    pushed = push(rolled(scripted, request, 3, 4), source)
    assert source.used_up
    assert pushed.costs is not None
    assert [c.face for c in pushed.costs.gear_checks] == [2]
    assert pushed.costs.gear_loss == 1
    assert pushed.costs.points == 1


def test_gear_lost_on_an_earlier_push_counts(scripted: type[Scripted]) -> None:
    request = GEAR.model_copy(
        update={"gear": GearInUse(name="crowbar", bonus=1), "specialties": ("True Grit",)}
    )
    first = push(rolled(scripted, request, 3, 4), scripted(1, 5, 1))
    assert first.costs is not None
    assert first.costs.gear_loss == 1
    source = scripted(1)
    second = push(first, source)
    assert source.used_up
    assert second.costs is not None
    assert second.costs.gear_checks == ()
    assert second.costs.points == 1


def test_gear_checks_only_when_gear_is_used(scripted: type[Scripted]) -> None:
    request = CheckRequest(attribute_die="D8", skill_die="D8", skill="Force")
    source = scripted(1, 1)
    pushed = push(rolled(scripted, request, 3, 4), source)
    assert source.used_up
    assert pushed.costs is not None
    assert pushed.costs.gear_checks == ()


def test_gear_dice_variant_checks_only_banes_on_gear_dice(scripted: type[Scripted]) -> None:
    request = CheckRequest(
        attribute_die="D6",
        skill_die="D6",
        skill="Force",
        gear=GearInUse(name="drill", bonus=1, dice=("D6",)),
        options=Options(gear_banes="gear-dice"),
    )
    # pool D6+D8 plus a gear D6; the push rolls a 1 on the skill die and on the gear die
    pushed = push(rolled(scripted, request, 3, 4, 5), scripted(2, 1, 1, 1))
    assert pushed.costs is not None
    assert pushed.costs.new_banes == 2
    assert [c.face for c in pushed.costs.gear_checks] == [1]
    assert pushed.costs.gear_loss == 1
    assert pushed.costs.points == 1


def test_default_variant_ignores_ones_on_gear_dice(scripted: type[Scripted]) -> None:
    request = CheckRequest(
        attribute_die="D6",
        skill_die="D6",
        skill="Force",
        gear=GearInUse(name="drill", bonus=1, dice=("D6",)),
    )
    source = scripted(2, 3, 1)
    pushed = push(rolled(scripted, request, 3, 4, 5), source)
    assert source.used_up
    assert pushed.costs is not None
    assert pushed.costs.new_banes == 0
    assert pushed.banes == 0
    assert pushed.dice[2].marks == ("one",)
