"""Combat rules beyond the basics: ignored armour, lethal critical damage, Born Dead, Energy
Imbued, newcomers to the initiative order, and who may use fate on death saves."""

from collections.abc import Callable

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.character import Armour, Character
from rulebound.rulesets.legacy.combat import (
    Combatant,
    death_save,
    join_initiative,
    roll_initiative,
)
from rulebound.rulesets.legacy.damage import apply_damage, melee_damage
from rulebound.rulesets.legacy.recovery import daily_heal, heal_rate, long_rest, short_rest
from rulebound.rulesets.legacy.souls import pass_days

Sheet = Callable[..., Character]


def d(sides: int, *faces: int) -> ReplaySource:
    return ReplaySource([Draw(sides, f) for f in faces])


def test_str_bonus_adds_to_melee_and_str_plus_con_is_capacity(sheet: Sheet) -> None:
    char = sheet()  # STR 34, CON 31
    assert melee_damage(char, 7) == 10
    assert char.carrying_capacity == 6
    with pytest.raises(InvalidInput, match="rolled"):
        melee_damage(char, -1)


def test_slither_moves_as_if_dex_bonus_were_one_less(sheet: Sheet) -> None:
    assert sheet().speed_feet() == 10  # DEX 29: bonus 2, 5 ft each
    assert sheet(race="naga", soul="soulless").speed_feet() == 5


def test_an_attack_can_ignore_armour_types_and_soak(sheet: Sheet) -> None:
    naga = sheet(race="naga", soul="soulless", armour={"torso": Armour(physical=3, magical=2)})
    assert apply_damage(naga, 20)[1].blocked == 4 + 3 + 2 + 3  # natural, physical, magical, soak
    ignored = apply_damage(naga, 20, ignore=("natural", "magical"))[1]
    assert ignored.blocked == 3 + 3
    assert apply_damage(naga, 20, ignore=("soak",))[1].blocked == 9
    with pytest.raises(InvalidInput, match="ignore: got 'shield'"):
        apply_damage(naga, 20, ignore=("shield",))


def test_a_lethal_critical_score_kills_outright(sheet: Sheet) -> None:
    char = sheet(wounds=2, critical={"head": 3})
    change, report = apply_damage(char, 10, "head", lethal_critical=8)
    assert report.killed
    assert change.character.dead
    assert not report.con_save_required  # no saves for the dead
    assert not apply_damage(char, 10, "torso", lethal_critical=8)[0].character.dead


def test_born_dead_heals_half_of_negative_damage_instead(sheet: Sheet) -> None:
    dead_born = sheet(origin="negative", wounds=10)
    change, report = apply_damage(dead_born, 20, damage_type="negative")
    assert report.healed == (20 - 3) // 2
    assert change.character.current_wounds == 18
    assert change.character.critical == {}
    assert apply_damage(dead_born, 20, damage_type="fire")[0].character.current_wounds == 0


def test_energy_imbued_heals_at_double_rate_and_once_a_day(sheet: Sheet) -> None:
    bright = sheet(origin="positive", wounds=10)
    assert heal_rate(bright) == 2
    assert short_rest(bright, 2).character.current_wounds == 14
    assert long_rest(bright).character.current_wounds == 16
    change = daily_heal(bright, ReplaySource([Draw(20, 5), Draw(5, 4)]))
    assert change.character.current_wounds == 14
    with pytest.raises(RuleViolation, match="1/day"):
        daily_heal(change.character, d(20, 5))
    ready = pass_days(change.character, 1).character
    missed = daily_heal(ready, d(20, 20))
    assert missed.character.current_wounds == 14
    assert missed.character.daily_heal_used
    with pytest.raises(RuleViolation, match="no trait that heals once a day"):
        daily_heal(sheet(), d(20, 1))


def test_newcomers_join_without_reordering_the_rest() -> None:
    first = roll_initiative([Combatant("a", 12, 1), Combatant("b", 12, 1)], d(20, 2, 9))
    joined = join_initiative(first, [Combatant("c", 12, 1)], d(20, 5))
    assert [e.combatant.name for e in joined] == ["a", "c", "b"]
    with pytest.raises(InvalidInput, match="newcomers"):
        join_initiative(first, [Combatant("a", 12, 1)], d(20, 5))


def test_only_pcs_and_important_npcs_use_fate_on_death_saves(sheet: Sheet) -> None:
    npc = sheet(is_pc=False, bleeding=True, unconscious=True, wounds=0)
    with pytest.raises(RuleViolation, match="player character or an important NPC"):
        death_save(npc, d(20), spend_fate=True)
    change, _ = death_save(npc, d(20), spend_fate=True, important=True)
    assert change.character.death_successes == 1


def test_a_halfling_luck_save_turns_a_death_save_20_into_one_failure(sheet: Sheet) -> None:
    halfling = sheet(race="halfling", soul="halfling", lck=15, bleeding=True, wounds=0)
    change, save = death_save(halfling, d(20, 20, 12), scale="as-written")  # LCK save 12 <= 15
    assert (save.failures, change.character.death_failures) == (1, 1)
    assert change.results[0].succeeded
    kept, _ = death_save(halfling, d(20, 20, 19), scale="as-written")
    assert kept.character.death_failures == 2
    assert death_save(sheet(bleeding=True, wounds=0), d(20, 20))[0].character.death_failures == 2
