"""Ten points of the text the engine implements that no test checked (the ledger's rows name
these tests): each asserts the point itself, so a change to it fails here."""

from __future__ import annotations

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.character import Armour
from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.combat import Combatant, death_save, surprise_round
from rulebound.rulesets.legacy.damage import apply_damage
from rulebound.rulesets.legacy.extended import ExtendedCheck, ExtendedSpec
from rulebound.rulesets.legacy.fate import burn
from rulebound.rulesets.legacy.opposed import OpposedOutcome, roll_opposed, standing
from rulebound.rulesets.legacy.recovery import short_rest

from .conftest import Sheet


def d20(*faces: int) -> ReplaySource:
    return ReplaySource([Draw(20, f) for f in faces])


@pytest.mark.parametrize("race", ["duergar", "drow", "chitine"])
def test_light_sensitive_races_roll_perception_at_disadvantage_in_bright_light(
    sheet: Sheet, race: str
) -> None:
    """Light-Sensitive is listed for three races, each with the same rule."""
    char = sheet(race=race, soul="dark")
    assert char.check("PER", situations=["bright-light"]).disadvantage
    assert not char.check("PER").disadvantage  # only in brightly lit areas
    assert not sheet().check("PER", situations=["bright-light"]).disadvantage


def test_the_surprised_who_pass_act_after_the_aware_in_the_order_of_their_degrees() -> None:
    """Starting combat: they act "at the end of the surprise round", ordered by their save."""
    aware = [Combatant("slow", 10, 1)]
    surprised = [Combatant("low", 30, 3), Combatant("high", 30, 3)]
    acting, stuck = surprise_round(aware, surprised, d20(10, 20 - 2, 3), scale="as-written")
    assert [e.combatant.name for e in acting] == ["slow", "high", "low"]
    assert [e.step for e in acting] == [0, 25, 10]  # degrees of 10 v 10, 28-3, 28-18
    assert stuck == ()


def test_armour_protects_only_the_part_it_is_worn_on(sheet: Sheet) -> None:
    """Armour: "tracked individually over the different parts" of the body."""
    char = sheet(armour={"torso": Armour(physical=4)})
    soak = char.bonus("CON")
    assert apply_damage(char, 10, "torso")[1].blocked == 4 + soak
    assert apply_damage(char, 10, "head")[1].blocked == soak


@pytest.mark.parametrize("damage", [1, 6, 20])
def test_a_wounding_hit_adds_one_critical_point_however_many_wounds(
    sheet: Sheet, damage: int
) -> None:
    """Critical Damage: a point "regardless of how many wounds are dealt" (past the wounds,
    the excess is critical damage besides)."""
    char = sheet(armour={}, wounds=30)
    report = apply_damage(char, damage + char.bonus("CON"), "left-leg")[1]
    assert report.wounds_lost == damage
    assert report.critical == {"left-leg": 1}


def test_a_death_save_is_unmodified_by_fatigue_or_a_curse(sheet: Sheet) -> None:
    """Bleeding Out: "unmodified checks against the value 10": fatigue's -1 does not touch
    it and a curse is not spent on it (ruling 49)."""
    dying = sheet(bleeding=True, wounds=0, fatigue_taken=1, cursed=True)
    passed, save = death_save(dying, d20(10))
    assert (save.successes, save.failures) == (1, 0)
    assert passed.character.cursed
    _, save = death_save(dying, d20(11))
    assert (save.successes, save.failures) == (0, 1)


def test_a_burn_needs_lck_10_and_leaves_none_at_exactly_10(sheet: Sheet) -> None:
    """Luck: burning costs 10 LCK, refused only when LCK is "less than 10"."""
    char = sheet(lck=10, fate=1)
    burnt = burn(char, ReplaySource([])).character
    assert (burnt.lck, burnt.fate) == (0, 0)


def test_an_opposed_critical_failure_counts_its_margin_double() -> None:
    """Opposed checks: "critical success or failures counting for double"."""
    mine, theirs = CheckRequest(target=18, bonus=0), CheckRequest(target=14, bonus=0)
    assert standing(20, resolve(mine).thresholds) == (False, -2 * 2)
    # failed by 2, doubled to 4: it loses to a plain failure by 3 (undoubled it would win)
    assert roll_opposed(mine, theirs, d20(20, 17)).outcome is OpposedOutcome.LOSS


def test_an_extended_critical_failure_adds_double_failure() -> None:
    """Extended checks: critical "success or failures ... contribute double"."""
    spec = ExtendedSpec(success_threshold=30, failure_threshold=30, max_rolls=3)
    ext, _ = ExtendedCheck(spec, CheckRequest(target=10, bonus=0)).roll(d20(20))
    assert (ext.success, ext.failure) == (0, 2 * (20 - 10))


def test_a_short_rest_spends_any_number_of_rest_points_it_has(sheet: Sheet) -> None:
    """Rest Points: "any number of rest points", one wound each, never more than held."""
    hurt = sheet(wounds=20)
    held = hurt.current_rest_points
    assert short_rest(hurt, 0).character.current_wounds == 20
    rested = short_rest(hurt, held).character
    assert (rested.current_wounds, rested.current_rest_points) == (20 + held, 0)
    with pytest.raises(InvalidInput, match="points"):
        short_rest(hurt, held + 1)


def test_the_luck_swaps_test_is_not_modified_by_fatigue(sheet: Sheet) -> None:
    """Luck: the test a fate point swaps in "is not modified"."""
    from rulebound.rulesets.legacy.fate import luck_swap

    tired = sheet(lck=24, fate=2, fatigue_taken=1)
    _, result = luck_swap(tired, d20(24 // 2), scale="halved")
    assert result.thresholds.target == 24 // 2
    assert result.succeeded


@pytest.mark.parametrize("code", ["EDU", "INI"])
def test_a_gnome_soul_has_advantage_on_a_plain_insight_roll_too(sheet: Sheet, code: str) -> None:
    """Ruling 89: "insight checks" are the Insight affinity's and the plain EDU or INI roll the
    text lets a character make "for insight"; both have advantage for a Gnome soul."""
    gnome = sheet(race="gnome", soul="gnome")
    assert gnome.check(code, situations=["insight"]).advantage
    assert gnome.check(code, affinity="insight").advantage
    assert not gnome.check(code).advantage  # an EDU or INI check not made for insight
    assert not gnome.check("STR", situations=["insight"]).advantage  # insight is EDU or INI
    assert not sheet().check(code, situations=["insight"]).advantage
    assert "insight" in gnome.situations()
