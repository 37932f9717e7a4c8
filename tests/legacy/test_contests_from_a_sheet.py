"""Opposed and extended checks rolled from a sheet: the curse, favour and an unconscious roller.

A Dark Soul's curse gives "disadvantage on their next roll" and favour advantage on one
test; both belong to the roll they touch and are spent by it (the first turn of an
extended check, the actor's roll of an opposed one). An unconscious or dead character makes
no opposed or extended check. The unmodified tests (a luck swap's, death saves, the souls'
luck checks) neither take nor spend a curse. Rulings 41, 43, 49, 69, 84, 91 and 92.
"""

from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation
from rulebound.rulesets.contract import Play
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.card import pct
from rulebound.rulesets.legacy.chain import ExtendedState, OpposedState, settle
from rulebound.rulesets.legacy.checks import CheckRequest, request_from_json, resolve, roll_check
from rulebound.rulesets.legacy.extended import (
    ExtendedCheck,
    ExtendedSpec,
    ExtendedStatus,
    status_of,
)
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.odds import extended_chances, opposed_chances
from rulebound.rulesets.legacy.request import LegacyRoll
from rulebound.rulesets.legacy.rules import classify, weighted_margin
from rulebound.rulesets.legacy.souls import cancel_critical_failure, machine_luck
from rulebound.rulesets.plays import TableRules, replay, roll_play

from .conftest import Sheet

TABLE = TableRules(GAME)
WRITTEN = {"scale": "as-written"}
DEX = {"characteristic": "DEX"}
"""Kara's DEX 30 as written: target 30, bonus 3 (a d20 always passes but on a 20)."""
OPPOSED = DEX | {"opposed.score": 30}
EXTENDED = DEX | {"success_threshold": 200, "failure_threshold": 200, "max_rolls": 6}


def kara(**form: Any) -> dict[str, Any]:
    return (
        TABLE.apply_sheet_form(TABLE.new_sheet("Kara"), form) if form else TABLE.new_sheet("Kara")
    )


def d20(*faces: int) -> ReplaySource:
    return ReplaySource(Draw(20, f) for f in faces)


def changed(play: Play) -> dict[str, Any]:
    """The sheet a play leaves (it must change it)."""
    assert play.sheet is not None
    return dict(play.sheet)


def rolled(sheet: dict[str, Any], form: dict[str, Any], *faces: int) -> tuple[Any, Any]:
    """Roll exactly ``faces`` (no more, no fewer), and check the record rebuilds the card."""
    source = d20(*faces)
    result, play = TABLE.rolled(sheet, form, WRITTEN, source)
    assert source.exhausted
    assert TABLE.card([play.record]) == play.card
    return result, play


# --- the curse -------------------------------------------------------------------------------


def test_a_curse_gives_an_opposed_check_disadvantage_once_and_is_spent() -> None:
    result, play = rolled(kara(cursed="true"), OPPOSED, 5, 12, 3)  # actor two dice, foe one
    assert isinstance(result, OpposedState)
    assert result.duel.actor.face == 12  # the higher of two
    assert result.duel.opponent.face == 3
    assert changed(play)["cursed"] is False
    again, after = rolled(changed(play), OPPOSED, 5, 3)  # spent: one die each
    assert again.duel.actor.face == 5
    assert after.sheet is None


def test_a_curse_touches_only_the_first_turn_of_an_extended_check() -> None:
    result, play = rolled(kara(cursed="true"), EXTENDED | {"rolls": 3}, 5, 12, 7, 9)
    assert isinstance(result, ExtendedState)
    assert [r.face for r in result.results] == [12, 7, 9]
    assert [len(r.dice) for r in result.results] == [2, 1, 1]
    assert changed(play)["cursed"] is False
    source = d20(4)
    new, turn = TABLE.followed(changed(play), result, "extended-roll", {}, source)
    assert source.exhausted
    assert isinstance(new, ExtendedState)
    assert len(new.results[-1].dice) == 1
    assert turn.sheet is None  # a later turn writes back no stale sheet
    assert settle(new) is None


def test_an_extended_check_from_a_sheet_spends_nothing_when_nothing_is_held() -> None:
    _, play = rolled(kara(), EXTENDED, 5)
    assert play.sheet is None


def test_a_record_written_before_the_curse_was_spent_replays_the_same() -> None:
    """Before, the sheet's request itself carried the curse's disadvantage: every turn had it.
    Such a record still replays to its dice: the stored request is what the turns roll."""
    _, play = rolled(kara(cursed="true"), EXTENDED | {"rolls": 2}, 5, 12, 7)
    params = {k: v for k, v in play.record.items() if k not in ("kind", "draws")}
    params["request"] = {**params["request"], "disadvantage": True}
    result, old = roll_play(GAME, GAME.load(params), d20(5, 12, 7, 9))
    assert isinstance(result, ExtendedState)
    assert [r.face for r in result.results] == [12, 9]  # two dice on each turn, as then
    assert replay(GAME, [old]) == result


def test_the_opponents_curse_is_not_applied_by_an_opposed_check() -> None:
    foe = kara(cursed="true")
    _, play = rolled(kara(), DEX | {"opposed.character": foe}, 5, 12)  # one die each
    assert play.sheet is None


def test_the_odds_of_a_cursed_opposed_check_use_the_cursed_roll() -> None:
    roll = TABLE.request(kara(cursed="true"), OPPOSED, WRITTEN)
    assert roll.opposed is not None
    cursed = replace(roll.request, disadvantage=True)
    found = GAME.chances(roll)
    assert found.success == opposed_chances(cursed, roll.opposed)[_WIN]
    assert found.success != opposed_chances(roll.request, roll.opposed)[_WIN]


_WIN = next(iter(opposed_chances(CheckRequest(target=1), CheckRequest(target=1))))


# --- the exact odds of an extended check whose first roll differs ---------------------------


SMALL = ExtendedSpec(success_threshold=6, failure_threshold=6, max_rolls=3)


def brute_ends(first: CheckRequest, rest: CheckRequest) -> dict[ExtendedStatus, Fraction]:
    """Every sequence of dice: two for an edged roll, the kept face as ``resolve`` keeps it."""
    ends = dict.fromkeys(ExtendedStatus, Fraction(0))

    def faces(req: CheckRequest) -> list[tuple[int, Fraction]]:
        edge = resolve(req).edge.value
        if edge == "none":
            return [(f, Fraction(1, 20)) for f in range(1, 21)]
        keep = max if edge == "disadvantage" else min
        return [(keep(a, b), Fraction(1, 400)) for a, b in product(range(1, 21), repeat=2)]

    def walk(n: int, s: int, f: int, p: Fraction) -> None:
        req = first if n == 0 else rest
        t = resolve(req).thresholds
        for face, q in faces(req):
            o = classify(face, t)
            m = weighted_margin(face, t, o)
            s2, f2 = (s + m, f) if o.passed else (s, f - m)
            status = status_of(s2, f2, n + 1, SMALL)
            if status is ExtendedStatus.IN_PROGRESS:
                walk(n + 1, s2, f2, p * q)
            else:
                ends[status] += p * q

    walk(0, 0, 0, Fraction(1))
    del ends[ExtendedStatus.IN_PROGRESS]
    return ends


@pytest.mark.parametrize("edge", ["disadvantage", "advantage"])
def test_extended_odds_with_a_different_first_roll_match_brute_force(edge: str) -> None:
    rest = CheckRequest(target=10, bonus=1)
    first = replace(rest, advantage=edge == "advantage", disadvantage=edge == "disadvantage")
    ours = extended_chances(rest, SMALL, first=first)
    assert ours == brute_ends(first, rest)
    assert sum(ours.values()) == 1
    assert ours != extended_chances(rest, SMALL)
    assert extended_chances(rest, SMALL, first=rest) == extended_chances(rest, SMALL)
    after_one = extended_chances(rest, SMALL, 3, 0, 1, first=first)  # the first is behind it
    assert after_one == extended_chances(rest, SMALL, 3, 0, 1)


def test_a_cursed_extended_checks_odds_are_those_of_its_rolls() -> None:
    roll = TABLE.request(kara(cursed="true"), EXTENDED, WRITTEN)
    assert roll.extended is not None
    assert not roll.request.disadvantage
    first = replace(roll.request, disadvantage=True)
    ends = extended_chances(roll.request, roll.extended, first=first)
    assert GAME.chances(roll).success == ends[ExtendedStatus.SUCCEEDED]
    assert ends != extended_chances(roll.request, roll.extended)


def test_a_saved_extended_check_keeps_its_first_rolls_own_check_until_it_is_rolled() -> None:
    plain = CheckRequest(target=10, bonus=1)
    ext = ExtendedCheck(SMALL, plain, first=replace(plain, disadvantage=True))
    resumed = ExtendedCheck.resume(ext.to_save())
    assert resumed.first == ext.first
    rolled_once, result = resumed.roll(d20(4, 9))
    assert result.face == 9
    assert "first" not in rolled_once.to_save()  # behind it: the rest roll the request
    assert rolled_once.roll(d20(4))[1].face == 4


# --- favour -------------------------------------------------------------------------------


def test_favour_gives_an_opposed_check_advantage_and_is_spent() -> None:
    result, play = rolled(kara(favour="true"), OPPOSED | {"favour": True}, 17, 4, 19)
    assert result.duel.actor.face == 4  # the lower of two
    assert changed(play)["favour"] is False


def test_favour_gives_an_extended_check_advantage_on_its_first_roll_only() -> None:
    form = EXTENDED | {"favour": True, "rolls": 2}
    result, play = rolled(kara(favour="true"), form, 17, 4, 19)
    assert [len(r.dice) for r in result.results] == [2, 1]
    assert changed(play)["favour"] is False


def test_favour_and_a_curse_on_a_first_roll_cancel_and_both_are_spent() -> None:
    sheet = kara(favour="true", cursed="true")
    _, play = rolled(sheet, OPPOSED | {"favour": True}, 17, 4)
    assert (changed(play)["favour"], changed(play)["cursed"]) == (False, False)


def test_favour_is_still_a_sheets_to_spend(sheet: Sheet) -> None:
    opposed = CheckRequest(target=10)
    assert LegacyRoll(CheckRequest(target=10), sheet(favour=True), favour=True, opposed=opposed)
    with pytest.raises(InvalidInput, match="favour"):
        LegacyRoll(CheckRequest(target=10), favour=True, opposed=opposed)


# --- an unconscious or dead roller -------------------------------------------------------


@pytest.mark.parametrize("state", ["unconscious", "dead"])
@pytest.mark.parametrize("form", [OPPOSED, EXTENDED], ids=["opposed", "extended"])
def test_an_unconscious_or_dead_character_makes_no_opposed_or_extended_check(
    state: str, form: dict[str, Any]
) -> None:
    sheet = kara(**{state: "true"})
    with pytest.raises(RuleViolation, match=f"Kara is {state}"):
        TABLE.rolled(sheet, form, WRITTEN, d20(5, 12))
    with pytest.raises(RuleViolation, match=f"Kara is {state}"):
        TABLE.chances(sheet, form, WRITTEN)


def test_an_unconscious_opponent_is_refused_too() -> None:
    foe = kara(unconscious="true")
    with pytest.raises(RuleViolation, match="Kara is unconscious"):
        TABLE.rolled(kara(), DEX | {"opposed.character": foe}, WRITTEN, d20(5, 12))


def test_the_gm_tool_spends_the_curse_on_the_first_turn_and_refuses_the_unconscious() -> None:
    params: dict[str, Any] = {"character": "Kara", "characteristic": "DEX"}
    params |= {"success_threshold": 200, "failure_threshold": 200, "max_rolls": 6}
    play = TABLE.table_act({"7": kara(cursed="true")}, "extended-check", params, WRITTEN, d20())
    assert play.sheets["7"]["cursed"] is False
    chain = [play.record]
    assert TABLE.card(chain) == play.card
    spec = ExtendedSpec.model_validate(play.record["spec"])
    plain, first = (request_from_json(play.record[k]) for k in ("request", "first"))
    assert first == replace(plain, disadvantage=True)
    ends = extended_chances(plain, spec, first=first)
    assert ends != extended_chances(plain, spec)
    (offer,) = play.card.actions  # the odds it shows are those of its turns
    assert offer.advice[1:] == tuple(f"{e.value}: {pct(p)}" for e, p in ends.items() if p)
    for faces, dice in (((5, 12), 2), ((7,), 1)):
        source = d20(*faces)
        turn = TABLE.act({}, chain, "extended-roll", {}, WRITTEN, source)
        assert source.exhausted
        assert len(turn.card.dice) == dice
        chain.append(turn.record)
        assert TABLE.card(chain) == turn.card
    with pytest.raises(RuleViolation, match="Kara is unconscious"):
        TABLE.table_act({"7": kara(unconscious="true")}, "extended-check", params, WRITTEN, d20())


def test_an_old_gm_extended_record_keeps_its_stored_request_on_every_turn() -> None:
    params: dict[str, Any] = {"character": "Kara", "characteristic": "DEX"}
    params |= {"success_threshold": 200, "failure_threshold": 200, "max_rolls": 6}
    play = TABLE.table_act({"7": kara()}, "extended-check", params, WRITTEN, d20())
    assert "first" not in play.record
    old = {**play.record, "request": {**play.record["request"], "disadvantage": True}}
    chain = [old]
    for faces in ((5, 12), (7, 3)):
        turn = TABLE.act({}, chain, "extended-roll", {}, WRITTEN, d20(*faces))
        chain.append(turn.record)
        assert len(turn.card.dice) == 2


# --- the unmodified tests ----------------------------------------------------------------


def test_a_luck_swaps_test_neither_takes_nor_spends_the_curse() -> None:
    sheet = kara(cursed="true")
    _, play = rolled(sheet, DEX, 20, 20)  # spent by the roll: a critical failure
    cursed_again = {**changed(play), "cursed": True}  # cursed anew before the swap
    source = d20(9)
    swap = TABLE.act(cursed_again, [play.record], "luck-swap", {}, WRITTEN, source)
    assert source.exhausted  # one die: no disadvantage
    assert (changed(swap)["cursed"], changed(swap)["fate"]) == (True, sheet["fate"] - 1)


def test_the_souls_luck_checks_are_unmodified_too(sheet: Sheet) -> None:
    dwarf = sheet(race="dwarf", soul="dwarf", lck=12, cursed=True)
    saved = machine_luck(dwarf, d20(12), "as-written")
    assert saved.character.cursed
    assert len(saved.results[0].dice) == 1
    halfling = sheet(race="halfling", soul="halfling", lck=15, cursed=True)
    fumble = roll_check(CheckRequest(score=30, scale="as-written"), d20(20))
    change, _ = cancel_critical_failure(halfling, fumble, d20(15))
    assert change.character.cursed
    assert len(change.results[0].dice) == 1


def test_any_other_roll_as_the_character_still_takes_and_spends_it(sheet: Sheet) -> None:
    change = roll_as(sheet(cursed=True), CheckRequest(target=10), d20(3, 15))
    assert (change.results[0].face, change.character.cursed) == (15, False)


# --- ruling 43: five-per-rank on the halved scale ---------------------------------------


def test_five_per_rank_on_the_halved_scale_halves_the_score_and_the_bonus_apart() -> None:
    req = CheckRequest(score=31, rank=1, affinity_bonus="five-per-rank", scale="halved")
    assert resolve(req).thresholds.target == 31 // 2 + 5 // 2 == 17
