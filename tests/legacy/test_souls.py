"""The souls' powers: each one works, is refused to other souls, and links its results."""

from collections.abc import Callable

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, roll_check
from rulebound.rulesets.legacy.rules import Outcome
from rulebound.rulesets.legacy.souls import (
    absorb_soul,
    alter_reality,
    befriend_animal,
    cancel_critical_failure,
    dark_curse,
    machine_luck,
    pass_days,
    san_test,
)

Sheet = Callable[..., Character]


def d(sides: int, *faces: int) -> ReplaySource:
    return ReplaySource([Draw(sides, f) for f in faces])


SAN = CheckRequest(target=10, bonus=0, label="SAN test")


def test_tortured_soul_rerolls_a_failed_san_test_once(sheet: Sheet) -> None:
    tortured = sheet(race="orc", soul="tortured")
    change = san_test(tortured, SAN, d(20, 15, 4))
    first, second = change.results
    assert (first.outcome, second.outcome) == (Outcome.FAILURE, Outcome.SUCCESS)
    assert second.parent is first
    assert san_test(tortured, SAN, d(20, 15, 16)).results[-1].outcome is Outcome.FAILURE
    assert len(san_test(tortured, SAN, d(20, 3)).results) == 1  # a pass is kept
    assert len(san_test(sheet(), SAN, d(20, 15)).results) == 1  # other souls do not reroll


def test_dwarf_soul_luck_check_saves_the_machine(sheet: Sheet) -> None:
    dwarf = sheet(race="dwarf", soul="dwarf", lck=12)
    saved = machine_luck(dwarf, d(20, 12), "as-written")
    assert saved.events[-1].detail == "the machine does not fail"
    assert machine_luck(dwarf, d(20, 13), "as-written").events[-1].detail == "the machine fails"
    with pytest.raises(RuleViolation, match=r"soul power \(machine-luck\)"):
        machine_luck(sheet(), d(20, 1))


def test_dark_soul_curse_gives_disadvantage_on_the_next_roll_only(sheet: Sheet) -> None:
    drow = sheet(race="drow", soul="dark", lck=10)
    foe = sheet(name="Foe")
    curse = dark_curse(drow, d(20, 9), foe, scale="as-written")
    assert curse.landed
    assert curse.target is not None
    assert curse.target.cursed
    assert not curse.target.check("STR").disadvantage  # the roll adds it, not the check
    nxt = roll_as(curse.target, curse.target.check("STR"), d(20, 3, 15))
    assert (nxt.results[0].face, nxt.character.cursed) == (15, False)  # then it is spent
    assert not dark_curse(drow, d(20, 11), foe, scale="as-written").landed
    with pytest.raises(RuleViolation, match="unconscious"):
        dark_curse(drow.model_copy(update={"unconscious": True}), d(20, 1), foe)
    with pytest.raises(RuleViolation, match="dark-curse"):
        dark_curse(sheet(), d(20, 1), foe)


def test_dragon_soul_absorbs_one_racial_soul_for_1d5_days(sheet: Sheet) -> None:
    dragon = sheet(race="dragonkin", soul="dragon")
    change = absorb_soul(dragon, "orc", d(5, 3))
    held = change.character
    assert (held.fate, held.absorbed_soul, held.absorbed_days) == (1, "orc", 3)
    with pytest.raises(RuleViolation, match="one absorbed soul at a time"):
        absorb_soul(held, "elf", d(5, 1))
    with pytest.raises(RuleViolation, match="racial souls only"):
        absorb_soul(dragon, "warped", d(5, 1))
    with pytest.raises(RuleViolation, match="no fate"):
        absorb_soul(dragon.model_copy(update={"fate": 0}), "orc", d(5, 1))
    assert pass_days(held, 2).character.absorbed_soul == "orc"
    released = pass_days(held, 3)
    assert released.character.absorbed_soul is None
    assert released.events[-1].kind == "soul released"


def test_orc_soul_burns_fate_to_alter_reality(sheet: Sheet) -> None:
    orc = sheet(race="orc", soul="orc", lck=24, fate=2)
    change = alter_reality(orc, ReplaySource([]), "the bridge holds")
    assert (change.character.lck, change.character.fate) == (14, 1)
    assert "Gameaster's discretion" in change.events[-1].detail
    with pytest.raises(RuleViolation, match="under 10"):
        alter_reality(sheet(race="orc", soul="orc", lck=9), ReplaySource([]), "rain")


def test_halfling_luck_save_cancels_a_critical_failure(sheet: Sheet) -> None:
    halfling = sheet(race="halfling", soul="halfling", lck=15)
    fumble = roll_check(CheckRequest(score=30, scale="as-written"), d(20, 20))
    change, judged = cancel_critical_failure(halfling, fumble, d(20, 15))
    assert change.results[-1] is judged
    assert judged.parent is fumble
    assert judged.outcome is Outcome.SUCCESS  # as written, a 20 under 30 passes once uncritical
    halved = roll_check(CheckRequest(score=30, scale="halved"), d(20, 20))
    assert cancel_critical_failure(halfling, halved, d(20, 2))[1].outcome is Outcome.FAILURE
    kept, same = cancel_critical_failure(halfling, fumble, d(20, 16))
    assert same is fumble
    assert kept.events[-1].kind == "critical failure stands"
    with pytest.raises(InvalidInput, match="a critical failure to cancel"):
        cancel_critical_failure(halfling, roll_check(CheckRequest(score=30), d(20, 5)), d(20, 1))
    with pytest.raises(RuleViolation, match="cancel-critical-failure"):
        cancel_critical_failure(sheet(), fumble, d(20, 1))


def test_fey_soul_spends_fate_to_befriend_an_animal(sheet: Sheet) -> None:
    fey = sheet(race="elf", soul="fey")
    change = befriend_animal(fey, ReplaySource([]), "a wolf")
    assert change.character.fate == 1
    assert change.events[-1].detail.endswith("a wolf")
    with pytest.raises(RuleViolation, match="befriend-animal"):
        befriend_animal(sheet(), ReplaySource([]), "a wolf")
