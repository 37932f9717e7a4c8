"""Fate spends and burns with soul effects; combat bookkeeping."""

import pytest

from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.character import Armour, Character
from rulebound.rulesets.legacy.checks import CheckRequest, roll_check
from rulebound.rulesets.legacy.combat import (
    Combatant,
    death_save,
    order,
    roll_initiative,
    surprise_round,
    take_fatigue,
)
from rulebound.rulesets.legacy.damage import apply_damage
from rulebound.rulesets.legacy.fate import burn, luck_swap, spend_reroll
from rulebound.rulesets.legacy.recovery import heal, long_rest, short_rest

from .conftest import SCORES


def hero(**extra: object) -> Character:
    data: dict[str, object] = {
        "name": "Kara",
        "race": "human",
        "origin": "surface",
        "soul": "human",
        "scores": SCORES,
        "lck": 24,
        "fate": 2,
        "ren": 20,
    }
    return Character.model_validate({**data, **extra})


def d20(*faces: int) -> ReplaySource:
    return ReplaySource([Draw(20, f) for f in faces])


def test_fate_reroll_spends_a_point_and_links_the_result() -> None:
    first = roll_check(CheckRequest(target=10), d20(18))
    change, new = spend_reroll(hero(), first, d20(4))
    assert change.character.fate == 1
    assert new.parent is first
    assert new.succeeded
    with pytest.raises(RuleViolation, match="no fate points"):
        spend_reroll(hero(fate=0), first, d20(4))


def test_god_fragment_keeps_the_point_on_a_passed_luck_check() -> None:
    char = hero(soul="god-fragment")
    change, _ = spend_reroll(char, roll_check(CheckRequest(target=10), d20(18)), d20(5, 4))
    assert change.character.fate == 2


def test_warlock_pays_stamina_but_never_below_zero() -> None:
    char = hero(soul="warlock")
    change, _ = spend_reroll(
        char,
        roll_check(CheckRequest(target=10), d20(18)),
        ReplaySource([Draw(10, 6), Draw(20, 3)]),
        use_stamina=True,
    )
    assert (change.character.fate, change.character.scores["STM"]) == (2, 27)
    broke = hero(soul="warlock", scores={**SCORES, "STM": 0})
    with pytest.raises(RuleViolation, match="Warlock"):
        luck_swap(broke, d20(3), use_stamina=True)


def test_luck_swap_is_unmodified_and_free_for_elf_souls_on_arcane() -> None:
    change, result = luck_swap(hero(), d20(12), scale="as-written")
    assert result.thresholds.target == 24
    assert change.character.fate == 1
    elf = hero(race="elf", soul="elf")
    assert luck_swap(elf, d20(12), affinity="arcane")[0].character.fate == 2


def test_burn_lowers_luck_and_caps_fate() -> None:
    change = burn(hero(lck=24, fate=2), ReplaySource([]))
    assert (change.character.lck, change.character.fate) == (14, 1)
    with pytest.raises(RuleViolation, match="under 10"):
        burn(hero(lck=9, fate=1), ReplaySource([]))


def test_soulless_burn_becomes_a_spend_on_a_passed_check() -> None:
    change = burn(hero(soul="soulless", lck=24, fate=2), d20(5))
    assert (change.character.lck, change.character.fate) == (24, 1)


def test_initiative_order_breaks_ties_by_bonus_score_then_pc() -> None:
    a, b = Combatant("a", 30, 3), Combatant("b", 35, 3, is_pc=True)
    entries = roll_initiative([a, b], d20(10, 15), "as-written")  # steps 20 and 20
    assert [e.combatant.name for e in entries] == ["b", "a"]
    c, d = Combatant("c", 30, 3), Combatant("d", 30, 3, is_pc=True)
    assert [
        e.combatant.name for e in order(list(roll_initiative([c, d], d20(5, 5), "as-written")))
    ] == ["d", "c"]


def test_surprised_act_last_only_on_a_difficult_ini_save() -> None:
    acting, stuck = surprise_round(
        [Combatant("x", 10, 1)],
        [Combatant("y", 10, 1), Combatant("z", 10, 1)],
        d20(2, 8, 9),
        scale="as-written",
    )
    assert [e.combatant.name for e in acting] == ["x", "y"]  # y: 8 <= 10-2
    assert [e.combatant.name for e in stuck] == ["z"]


def test_damage_through_armour_soak_and_into_critical() -> None:
    char = hero(armour={"head": Armour(physical=2)}, wounds=5)
    change, report = apply_damage(char, 15, "head", critical_hit=True)
    assert (report.blocked, report.through, report.wounds_lost, report.excess) == (5, 10, 5, 5)
    assert report.critical == {"head": 5 + 1 + 1}
    assert change.character.current_wounds == 0
    assert report.con_save_required


def test_resistance_halves_and_whole_body_hits_every_location() -> None:
    gnome = hero(race="gnome", soul="gnome")
    _, report = apply_damage(gnome, 13, damage_type="poison")
    assert (report.through, report.after_resistance) == (10, 5)
    _, body = apply_damage(hero(), 10, whole_body=True)
    assert len(body.critical) == 6


def test_fatigue_past_capacity_calls_a_stamina_check() -> None:
    tired = take_fatigue(hero(), 2, d20())
    assert tired.character.fatigued
    assert not tired.results
    out = take_fatigue(tired.character, 5, d20(20))
    assert out.character.unconscious
    assert out.character.fatigue_taken == 3


def test_death_saves_to_stable_and_fate_options() -> None:
    char = hero(bleeding=True, unconscious=True, wounds=0)
    change, save = death_save(char, d20(1))
    assert (save.successes, change.character.death_successes) == (2, 2)
    change, _ = death_save(change.character, d20(), spend_fate=True)
    assert not change.character.bleeding
    assert change.character.fate == 1
    burnt, _ = death_save(char, d20(), burn_fate=True)
    assert burnt.character.death_successes == 3
    assert burnt.character.lck == 14
    dead, _ = death_save(char.model_copy(update={"death_failures": 1}), d20(20))
    assert dead.character.dead


def test_healing_ends_death_saves_and_rests_use_rest_points() -> None:
    char = hero(bleeding=True, wounds=0, death_failures=2)
    assert not heal(char, 3).character.bleeding
    rested = short_rest(hero(wounds=10, fatigue_taken=2), 2).character
    assert (rested.current_wounds, rested.current_rest_points, rested.fatigue_taken) == (12, 1, 0)
    slept = long_rest(rested).character
    assert (slept.current_wounds, slept.current_rest_points) == (13, 3)
