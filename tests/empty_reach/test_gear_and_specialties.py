"""Gear repair, Second Wind, Killer and Lucky, and rolling a skill with another attribute."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import ReplaySource
from rulebound.rulesets.empty_reach.character import (
    Character,
    GearItem,
    load_character,
    request_for,
)
from rulebound.rulesets.empty_reach.check import CheckRequest, Tracks, prepare
from rulebound.rulesets.empty_reach.gear import repair, repair_item
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push, roll_check
from rulebound.rulesets.empty_reach.rules import StepDie
from rulebound.rulesets.empty_reach.specialties import (
    default_split,
    heal,
    roll_twice,
    second_wind,
    share,
    split_range,
)

from .conftest import Scripted

SHEET: dict[str, Any] = {
    "name": "Bo",
    "attributes": {"Strength": "D10", "Agility": "D8", "Wits": "D6", "Empathy": "D12"},
    "skills": {"Persuasion": "D6", "Crafting": "D8"},
    "specialties": ["Second Wind", "Killer", "Menacing", "Gut Feeling", "Flyweight"],
    "base_health": 3,
    "base_resolve": 3,
    "gear": [{"name": "Torch", "bonus": 1, "max_bonus": 3}],
}


def sheet(**changes: Any) -> Character:
    return load_character({**SHEET, **changes})


def crafting(scripted: type[Scripted], *faces: int) -> EmptyReachResult:
    request = CheckRequest(attribute_die="D6", skill_die="D8", skill="Crafting")
    return roll_check(prepare(request), scripted(*faces))


def item(bonus: int, max_bonus: int) -> GearItem:
    return GearItem(name="Torch", bonus=bonus, max_bonus=max_bonus)


@pytest.mark.parametrize(
    ("bonus", "max_bonus", "faces", "after", "restored"),
    [(1, 3, (6, 7), 3, 2), (2, 3, (6, 7), 3, 1), (0, 2, (6, 2), 1, 1), (1, 3, (2, 6), 2, 1)],
)
def test_each_success_restores_a_point_up_to_the_starting_bonus(
    scripted: type[Scripted],
    bonus: int,
    max_bonus: int,
    faces: tuple[int, int],
    after: int,
    restored: int,
) -> None:
    outcome = repair_item(item(bonus, max_bonus), crafting(scripted, *faces))
    assert outcome.item_after.bonus == after
    assert outcome.item_after.max_bonus == max_bonus
    assert outcome.restored == restored
    assert outcome.item_before.bonus == bonus
    assert "restored" in outcome.describe()


def test_a_failed_repair_makes_the_current_bonus_permanent(scripted: type[Scripted]) -> None:
    outcome = repair_item(item(1, 3), crafting(scripted, 2, 3))
    assert (outcome.item_after.bonus, outcome.item_after.max_bonus) == (1, 1)
    assert not outcome.item_after.destroyed
    assert "permanent maximum" in outcome.describe()


def test_a_failed_repair_at_zero_destroys_the_item(scripted: type[Scripted]) -> None:
    outcome = repair_item(item(0, 3), crafting(scripted, 1, 5))
    assert outcome.item_after.destroyed
    assert "destroyed" in outcome.describe()
    with pytest.raises(RuleViolation, match="destroyed"):
        repair_item(outcome.item_after, crafting(scripted, 6, 6))


def test_repair_needs_a_crafting_roll(scripted: type[Scripted]) -> None:
    force = roll_check(prepare(CheckRequest(attribute_die="D6", skill="Force")), scripted(6))
    with pytest.raises(InvalidInput) as error:
        repair_item(item(1, 3), force)
    assert error.value.field == "crafting"


def test_repair_on_the_sheet(scripted: type[Scripted]) -> None:
    bo = sheet()
    result = roll_check(prepare(request_for(bo, "Crafting")), scripted(6, 8))
    fixed, outcome = repair(bo, "torch", result)
    assert fixed.gear_item("Torch").bonus == 3
    assert outcome.restored == 2
    assert bo.gear_item("Torch").bonus == 1


def test_second_wind_only_when_broken(scripted: type[Scripted]) -> None:
    with pytest.raises(RuleViolation, match="not broken"):
        second_wind(sheet(), scripted(6))
    with pytest.raises(RuleViolation, match="no specialty"):
        second_wind(sheet(specialties=[], damage=3), scripted(6))


def test_second_wind_restores_a_point_per_success_and_is_unpushable(
    scripted: type[Scripted],
) -> None:
    bo = sheet(damage=4)
    source = scripted(10)
    roll = second_wind(bo, source)
    # Stamina is not on the sheet: the Strength D10 alone
    assert source.asked == [10]
    assert roll.check.request.skill == "Stamina"
    assert roll.successes == 2
    assert split_range(roll) == (2, 2)  # only Health lacks points: no choice
    shared, after = share(bo, roll)
    assert shared.restored == (2, 0)
    assert after.damage == 1  # 4 damage against Health 3 is Health 0; two points back: 2/3
    assert not after.broken
    assert not after.second_wind_used
    assert roll.pushes_left == 0
    with pytest.raises(RuleViolation, match="Second Wind"):
        push(roll, scripted(5))


def test_second_wind_once_while_broken(scripted: type[Scripted]) -> None:
    bo = sheet(damage=3)
    roll = second_wind(bo, scripted(3))
    assert roll.successes == 0
    _, after = share(bo, roll)
    assert after.broken
    assert after.second_wind_used
    with pytest.raises(RuleViolation, match="already used"):
        second_wind(after, scripted(9))
    healed = heal(after, health=1)
    assert not healed.broken
    assert not healed.second_wind_used
    again = second_wind(healed.model_copy(update={"damage": 3}), scripted(9))
    assert again.successes == 1


def test_second_wind_goes_to_the_broken_track_by_default(scripted: type[Scripted]) -> None:
    stressed = sheet(stress=3)
    shared, after = share(stressed, second_wind(stressed, scripted(7)))
    assert shared.restored == (0, 1)
    assert after.stress == 2
    both = sheet(damage=3, stress=3)
    roll = second_wind(both, scripted(10))
    assert (split_range(roll), default_split(roll)) == ((0, 2), 2)
    shared, after = share(both, roll, to_health=1)
    assert shared.restored == (1, 1)
    assert (after.damage, after.stress) == (2, 2)
    with pytest.raises(InvalidInput) as error:
        share(both, roll, to_health=3)
    assert error.value.field == "to_health"


SUCCESS_FACES = {0: (2, 2), 1: (6, 2), 2: (10, 2), 3: (10, 6), 4: (10, 10)}


@pytest.mark.parametrize("successes", sorted(SUCCESS_FACES))
@pytest.mark.parametrize("health", range(5))
@pytest.mark.parametrize("resolve", range(5))
def test_the_split_is_every_share_that_wastes_nothing(
    scripted: type[Scripted], successes: int, health: int, resolve: int
) -> None:
    """Against brute force: the shares to Health (never more than it lacks) that restore the
    most points, for every count of successes and every Health and Resolve missing."""
    tracks = Tracks(damage=health, max_health=4, stress=resolve, max_resolve=4)
    request = CheckRequest(
        attribute_die="D12",
        skill_die="D12",
        skill="Stamina",
        unpushable="Second Wind",
        second_wind=tracks,
    )
    roll = roll_check(prepare(request), scripted(*SUCCESS_FACES[successes]))
    assert roll.successes == successes

    def restored(h: int) -> int:
        return min(h, health) + min(successes - h, resolve)

    best = max(restored(h) for h in range(successes + 1))
    allowed = [h for h in range(successes + 1) if h <= health and restored(h) == best]
    assert split_range(roll) == (min(allowed), max(allowed))


def test_heal_rejects_negative_points() -> None:
    with pytest.raises(InvalidInput):
        heal(sheet(damage=2), health=-1)


def test_killer_rolls_twice_and_records_both(scripted: type[Scripted]) -> None:
    twice = roll_twice(sheet(), "killer", 66, scripted(12, 40))
    assert twice.specialty == "Killer"
    assert twice.faces == (12, 40)
    assert twice.table == "critical injury dealt"
    assert [(d.sides, d.face) for d in twice.provenance.draws] == [(66, 12), (66, 40)]
    replayed = roll_twice(sheet(), "Killer", 66, ReplaySource(twice.provenance.draws))
    assert replayed.faces == twice.faces


def test_lucky_needs_the_specialty_and_a_sane_die(scripted: type[Scripted]) -> None:
    with pytest.raises(RuleViolation, match="Lucky"):
        roll_twice(sheet(), "Lucky", 6, scripted(1, 2))
    lucky = sheet(specialties=["Lucky"])
    assert roll_twice(lucky, "Lucky", 6, scripted(1, 2)).table == "critical injury suffered"
    with pytest.raises(InvalidInput) as error:
        roll_twice(lucky, "Lucky", 1, scripted(1, 1))
    assert error.value.field == "sides"
    with pytest.raises(InvalidInput):
        roll_twice(lucky, "Tough", 6, scripted(1, 1))


@pytest.mark.parametrize(
    ("specialty", "skill", "attribute", "die"),
    [
        ("Menacing", "Persuasion", "Strength", StepDie.D10),
        ("Gut Feeling", "Observation", "Empathy", StepDie.D12),
        ("Flyweight", "Melee", "Agility", StepDie.D8),
    ],
)
def test_swap_specialties_roll_with_another_attribute(
    specialty: str, skill: str, attribute: str, die: StepDie
) -> None:
    request = request_for(sheet(), skill, swap=specialty)
    assert request.attribute == attribute
    assert request.attribute_die is die
    check = prepare(request)
    assert check.attribute == attribute
    assert check.cost == ("damage" if attribute in ("Strength", "Agility") else "stress")
    assert any(f"rolled with {attribute}" in note for note in check.notes)


def test_swap_only_with_the_specialty_and_only_on_its_skill() -> None:
    with pytest.raises(RuleViolation, match="Menacing"):
        request_for(sheet(specialties=[]), "Persuasion", swap="Menacing")
    with pytest.raises(InvalidInput) as error:
        request_for(sheet(), "Insight", swap="Menacing")
    assert error.value.field == "swap"
    with pytest.raises(InvalidInput):
        request_for(sheet(), "Persuasion", swap="Killer")


def test_menacing_uses_the_persuasion_skill_die() -> None:
    request = request_for(sheet(), "Persuasion", swap="Menacing")
    assert prepare(request).pool.dice == (StepDie.D10, StepDie.D6)
    plain = request_for(sheet(), "Persuasion")
    assert prepare(plain).pool.dice == (StepDie.D12, StepDie.D6)
