"""Rules of play the seed states outright: acting while down, attacks, reactions, renown, fear."""

from collections.abc import Callable

import pytest

from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.actions import (
    adjust_renown,
    attack_request,
    levy_request,
    recognition_request,
    roll_as,
    start_turn,
    use_reaction,
)
from rulebound.rulesets.legacy.armour import don_armour, remove_armour
from rulebound.rulesets.legacy.character import Armour, Character
from rulebound.rulesets.legacy.checks import CheckRequest, resolve, roll_check
from rulebound.rulesets.legacy.fate import award_favour, luck_swap, spend_reroll, use_favour
from rulebound.rulesets.legacy.progression import fear_immunity, ignores_fear
from rulebound.rulesets.legacy.rules import Edge, Outcome

Sheet = Callable[..., Character]


def d20(*faces: int) -> ReplaySource:
    return ReplaySource([Draw(20, f) for f in faces])


def test_an_unconscious_character_fails_every_check_without_rolling(sheet: Sheet) -> None:
    down = sheet(unconscious=True)
    change = roll_as(down, down.check("STR"), ReplaySource([]))
    result = change.results[0]
    assert (result.outcome, result.dice, result.margin) == (Outcome.FAILURE, (), 0)
    assert "unconscious" in result.note


def test_a_curse_is_spent_by_the_next_roll(sheet: Sheet) -> None:
    cursed = sheet(cursed=True)
    change = roll_as(cursed, CheckRequest(target=10), d20(3, 15))
    assert change.results[0].face == 15  # disadvantage keeps the higher
    assert not change.character.cursed
    assert roll_as(change.character, CheckRequest(target=10), d20(3)).results[0].face == 3


def test_attacks_use_wpn_or_bls_and_the_targets_state(sheet: Sheet) -> None:
    me, foe = sheet(), sheet(name="Foe", unconscious=True)
    melee = attack_request(me, "melee", target=foe)
    ranged = attack_request(me, "ranged", target=foe)
    assert (melee.characteristic, melee.advantage) == ("WPN", True)
    assert (ranged.characteristic, ranged.disadvantage) == ("BLS", True)
    assert attack_request(me, "ranged", target_surprised=True).advantage
    plain = attack_request(me, "melee")
    assert (plain.advantage, plain.disadvantage) == (False, False)


def test_reactions_equal_the_ini_bonus_and_refill_each_turn(sheet: Sheet) -> None:
    char = sheet()  # INI 27: 2 reactions
    char = use_reaction(use_reaction(char).character).character
    with pytest.raises(RuleViolation, match="all 2 reactions"):
        use_reaction(char)
    assert start_turn(char).character.reactions_used == 0
    with pytest.raises(RuleViolation, match="surprised character cannot make a reaction"):
        use_reaction(sheet(), surprised=True)
    with pytest.raises(RuleViolation, match="unconscious"):
        use_reaction(sheet(unconscious=True))


def test_renown_is_rolled_against_by_npcs_and_levied_only_on_those_who_know(sheet: Sheet) -> None:
    char = sheet(ren=17)
    req = recognition_request(char)
    assert (req.score, req.characteristic) == (17, "REN")
    with pytest.raises(RuleViolation, match="undisguised"):
        recognition_request(char, disguised=True)
    assert levy_request(char, npc_knows=True).score == 17
    with pytest.raises(RuleViolation, match="already knows"):
        levy_request(char, npc_knows=False)
    assert adjust_renown(char, -30, "scandal").character.ren == 0


@pytest.mark.parametrize(
    ("san", "rating", "ignored"), [(45, 1, True), (45, 2, False), (19, 0, False)]
)
def test_fear_below_a_twentieth_of_san_is_ignored(
    sheet: Sheet, san: int, rating: int, ignored: bool
) -> None:
    char = sheet(san=san)
    assert fear_immunity(char) == san // 20
    assert ignores_fear(char, rating) is ignored


def test_favour_is_held_or_not_and_spent_for_advantage(sheet: Sheet) -> None:
    held = award_favour(sheet()).character
    assert held.favour
    assert award_favour(held).character == held  # cannot be accumulated
    change, req = use_favour(held, CheckRequest(target=10))
    assert not change.character.favour
    assert req.advantage
    with pytest.raises(RuleViolation, match="no favour"):
        use_favour(change.character, req)


def test_worn_armour_brings_the_naga_pride_edge(sheet: Sheet) -> None:
    naga = sheet(race="naga", soul="soulless", ren=12)
    assert not naga.check("DEX").disadvantage  # natural scales are not worn armour
    leather = don_armour(naga, Armour(physical=2), ReplaySource([]), ["torso"]).character
    assert leather.check("DEX").disadvantage
    assert leather.ren == 12
    assert not leather.check("STR").disadvantage
    plate = don_armour(naga, Armour(physical=4, metal=True), ReplaySource([Draw(10, 7)]))
    assert plate.character.ren == 5
    assert "REN 12 -> 5" in plate.events[-1].detail
    again = don_armour(plate.character, Armour(physical=4, metal=True), ReplaySource([Draw(10, 9)]))
    assert again.character.ren == 0  # never below 0
    assert not remove_armour(again.character).character.check("WPN").disadvantage
    human = don_armour(sheet(ren=12), Armour(physical=4, metal=True), ReplaySource([]))
    assert human.character.ren == 12
    assert not human.character.check("DEX").disadvantage  # only the Naga's pride


def test_the_edges_resolve_with_armour_and_advantage(sheet: Sheet) -> None:
    armoured = sheet(race="naga", soul="soulless", armour={"torso": Armour(physical=1)})
    assert resolve(armoured.check("DEX", advantage=True)).edge is Edge.NONE


def test_fate_rerolls_and_luck_swaps_are_rolls_the_character_makes(sheet: Sheet) -> None:
    first = roll_check(CheckRequest(target=10), d20(18))
    change, again = spend_reroll(sheet(cursed=True), first, d20(4, 12))
    assert (again.face, again.parent, change.character.cursed) == (12, first, False)
    down = sheet(unconscious=True)
    swapped, result = luck_swap(down, ReplaySource([]))
    assert (result.outcome, result.dice) == (Outcome.FAILURE, ())
    assert swapped.character.fate == 1  # the point is still spent
