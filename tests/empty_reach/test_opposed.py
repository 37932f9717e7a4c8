"""Opposed rolls: cancelling successes, ties, the tie-break, and pushing after the defender."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rulebound.core.errors import RuleViolation
from rulebound.rulesets.empty_reach.check import CheckRequest, Options, prepare
from rulebound.rulesets.empty_reach.odds import p_success
from rulebound.rulesets.empty_reach.opposed import (
    break_tie,
    opposed_odds,
    roll_opposed,
)
from rulebound.rulesets.empty_reach.roll import push
from rulebound.rulesets.empty_reach.rules import LADDER, StepDie, successes_on

from .conftest import Scripted

STEALTH = prepare(CheckRequest(attribute_die="D8", skill_die="D10", skill="Stealth"))
GUARD = prepare(CheckRequest(attribute_die="D8", skill_die="D6", skill="Observation"))


@pytest.mark.parametrize(
    ("faces", "net", "verdict"),
    [
        ((8, 10, 6, 2), 2, "win"),
        ((6, 2, 6, 3), 0, "tie"),
        ((2, 3, 4, 5), 0, "tie"),
        ((6, 2, 7, 6), -1, "loss"),
        ((8, 10, 2, 2), 3, "win"),
        ((1, 1, 1, 1), 0, "tie"),
    ],
)
def test_defender_successes_cancel(
    scripted: type[Scripted], faces: tuple[int, ...], net: int, verdict: str
) -> None:
    contest = roll_opposed(STEALTH, GUARD, scripted(*faces))
    assert contest.net == net
    assert contest.verdict == verdict
    assert contest.succeeded is (verdict == "win")
    assert contest.active.check is STEALTH
    assert contest.defender.check is GUARD


def test_a_tie_fails_the_active_side(scripted: type[Scripted]) -> None:
    contest = roll_opposed(STEALTH, GUARD, scripted(6, 2, 6, 3))
    assert contest.succeeded is False
    assert contest.headline == "Tie, 1 to 1: the active side fails"


def test_a_tie_that_needs_breaking_is_rolled_again_under_either_reading(
    scripted: type[Scripted],
) -> None:
    """ "If a tie needs to be broken, re-roll the opposed roll" (Opposed Rolls: Ties)."""
    contest = roll_opposed(STEALTH, GUARD, scripted(6, 2, 6, 3))
    broken = break_tie(contest, scripted(7, 2, 2, 2))
    assert broken.parent is contest
    assert broken.verdict == "win"
    assert [d.face for d in broken.active.dice] == [7, 2]
    assert broken.active.push_number == 0  # a new roll: the active side may push it
    with pytest.raises(RuleViolation, match="only a tie"):
        break_tie(broken, scripted(1, 1, 1, 1))
    rerolling = prepare(
        CheckRequest(attribute_die="D8", skill_die="D10", options=Options(tie_break="reroll"))
    )
    tie = roll_opposed(rerolling, GUARD, scripted(6, 2, 6, 3))
    assert tie.succeeded is None
    assert tie.headline == "Tie, 1 to 1: roll again to break it"
    assert break_tie(tie, scripted(2, 2, 7, 2)).verdict == "loss"


def test_the_active_side_may_push_after_seeing_the_defender(scripted: type[Scripted]) -> None:
    contest = roll_opposed(STEALTH, GUARD, scripted(6, 2, 6, 3))
    assert contest.verdict == "tie"
    pushed = push(contest.active, scripted(10))
    after = contest.with_active(pushed)
    assert after.parent is contest
    assert after.defender is contest.defender
    assert after.active is pushed
    assert after.verdict == "win"
    assert after.net == 2
    assert after.provenance == pushed.provenance
    assert contest.verdict == "tie"


def brute_opposed(active: list[int], defender: list[int]) -> dict[str, Fraction]:
    counts: Counter[str] = Counter()
    for faces_a in product(*(range(1, s + 1) for s in active)):
        for faces_d in product(*(range(1, s + 1) for s in defender)):
            net = sum(map(successes_on, faces_a)) - sum(map(successes_on, faces_d))
            counts["win" if net > 0 else "tie" if net == 0 else "loss"] += 1
    total = sum(counts.values())
    return {k: Fraction(counts[k], total) for k in ("win", "tie", "loss")}


POOLS = [(a, s) for a in LADDER for s in (None, *LADDER)]


@pytest.mark.parametrize("active", POOLS[::3])
def test_opposed_odds_equal_brute_force(active: tuple[StepDie, StepDie | None]) -> None:
    check = prepare(CheckRequest(attribute_die=active[0], skill_die=active[1]))
    for defender in POOLS[::2]:
        other = prepare(CheckRequest(attribute_die=defender[0], skill_die=defender[1]))
        odds = opposed_odds(check, other)
        assert sum(odds.values()) == 1
        sides = [d.value for d in check.pool.dice]
        assert odds == brute_opposed(sides, [d.value for d in other.pool.dice])


def test_opposed_odds_with_a_push_policy() -> None:
    odds = opposed_odds(STEALTH, GUARD, "always")
    assert sum(odds.values()) == 1
    assert odds["win"] > opposed_odds(STEALTH, GUARD)["win"]
    # winning needs at least one success, and more than the defender
    for policy in ("never", "always", "if-failed"):
        assert opposed_odds(STEALTH, GUARD, policy)["win"] < p_success(STEALTH, policy)


def test_interrogation_reading(scripted: type[Scripted]) -> None:
    """Ruling E20, through a table's roll from a sheet: Persuasion with the captive factor
    (+1, once) against the prisoner's Stamina dice, the GM's to enter as the defender's."""
    from rulebound.core.errors import InvalidInput
    from rulebound.rulesets.empty_reach.game import GAME
    from rulebound.rulesets.plays import TableRules, replay

    table = TableRules(GAME)
    iva = table.apply_sheet_form(
        table.new_sheet("Iva"), {"skills.Persuasion": "D8", "attributes.Empathy": "D8"}
    )
    form = {
        "skill": "Persuasion",
        "situations": ["negotiation-opponent-captive"],
        "opposed_attribute": "D8",  # the prisoner's Strength
        "opposed_skill": "D10",  # and Stamina
    }
    play = table.roll(iva, form, {}, scripted(6, 7, 1, 6))
    assert play.card.modifiers == ("Opponent is in your custody: +1",)  # counted once
    assert [d.label for d in play.card.dice] == ["D8", "D10", "defender D8", "defender D10"]
    result = replay(GAME, [play.record])
    assert (result.active.successes, result.defender.successes, result.net) == (2, 1, 1)
    assert play.card.succeeded is True  # 2 against 1
    assert "the active side fails" in table.roll(iva, form, {}, scripted(6, 2, 1, 6)).card.outcome
    with pytest.raises(InvalidInput, match="Persuasion"):  # the captive factor is Persuasion's
        table.roll(iva, form | {"skill": "Stealth"}, {}, scripted(6, 7, 1, 6))
