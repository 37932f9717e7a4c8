"""The card of a result (what the web table shows and the CLI prints): dice with marks,
modifiers and steps, costs and gear checks, and the push with its exact odds.

These were tests of the Empty Reach text renderer, which the one card presenter replaced.
"""

from __future__ import annotations

from rulebound.render.card_text import card_text
from rulebound.rulesets.empty_reach.card import card_for
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, prepare
from rulebound.rulesets.empty_reach.roll import push, roll_check

from .conftest import Scripted


def test_a_roll_shows_title_modifiers_steps_and_marked_dice(scripted: type[Scripted]) -> None:
    check = prepare(CheckRequest(attribute_die="D6", skill_die="D12", skill="Stealth", helpers=1))
    card = card_for(roll_check(check, scripted(1, 11)))
    assert card.title == "Stealth (Agility): D8 + D12"
    assert card.modifiers == ("help from 1 ally: +1",)
    assert card.steps == ("attribute die D6 -> D8",)
    attribute, skill = card.dice
    assert (attribute.role, attribute.face, attribute.marks) == ("attribute", 1, ("bane",))
    assert (skill.role, skill.face, skill.marks) == ("skill", 11, ("success", "success"))
    assert (card.outcome, card.succeeded) == ("2 successes", True)
    assert card.details == ("Modifier total: +1 (D6 + D12 -> D8 + D12)", "1 bane(s) showing")
    text = card_text(card).splitlines()
    assert any("[0] attribute" in line and " 1 " in line and "bane" in line for line in text)
    assert any("[1] skill" in line and "success, success" in line for line in text)
    assert "Result: 2 successes" in text


def test_capped_steps_are_listed(scripted: type[Scripted]) -> None:
    check = prepare(CheckRequest(attribute_die="D12", skill_die="D12", helpers=1))
    card = card_for(roll_check(check, scripted(2, 3)))
    assert card.steps == ("no effect: already two D12s",)  # said once
    assert (card.outcome, card.succeeded) == ("Failure: no success", False)


def test_a_push_shows_history_states_costs_and_gear_checks(scripted: type[Scripted]) -> None:
    check = prepare(
        CheckRequest(
            attribute_die="D6", skill_die="D6", skill="Force", gear=GearInUse(name="bar", bonus=1)
        )
    )
    result = roll_check(check, scripted(1, 3))
    card = card_for(push(result, scripted(1, 2)))
    locked, rerolled = card.dice
    assert (locked.state, locked.history) == ("locked", ())
    assert (rerolled.state, rerolled.history, rerolled.face) == ("rerolled", (3,), 1)
    assert "Push cost: 2 new bane(s): 1 damage, gear -1" in card.details
    assert "gear check d6: 2 (gear loses 1)" in card.details
    # what it cost the character, on the card's face: not only under Details
    assert card.outcome.endswith("(pushed 1x); pushing cost 1 damage, gear -1")
    assert card.actions == ()
    text = card_text(card)
    assert "[locked]" in text
    assert "(was 3) [rerolled]" in text


def test_the_push_offers_exact_odds_and_marks_the_recommendation(scripted: type[Scripted]) -> None:
    result = roll_check(
        prepare(CheckRequest(attribute_die="D8", skill_die="D10", skill="Force")), scripted(6, 3)
    )
    card = card_for(result)
    (action,) = card.actions
    assert (action.key, action.label, action.spends) == ("push", "Push the roll", "damage")
    assert action.fields[0].default == ("1",)
    assert [d.selectable for d in card.dice] == [True, True]
    recommended = [line for line in action.advice if line.endswith("(recommended)")]
    assert len(recommended) == 1
    # the roll already succeeds: no push can raise that, so keeping it is advised (issue 12)
    assert recommended[0].startswith("keep: success 100.0%")
    assert [line.split(":")[0] for line in action.advice] == [
        "keep",
        "reroll the D8 showing 6",  # as every front end shows the die, whatever it counts from
        "reroll the D10 showing 3",
        "reroll the D8 showing 6 and the D10 showing 3",
    ]
    # in a player's words, not a statistician's ("E[cost] 0.31")
    keep = "keep: success 100.0%, 1.00 successes on average, no cost (recommended)"
    assert action.advice[0] == keep
    assert not any("E[" in line for line in action.advice)
    assert action.advice[3].endswith(", bane 21.2%, 0.23 damage on average")  # 1/8 + 1/10


def test_a_push_with_gear_shows_the_risk_to_the_gear(scripted: type[Scripted]) -> None:
    check = prepare(
        CheckRequest(attribute_die="D6", skill_die="D6", gear=GearInUse(name="kit", bonus=2))
    )
    (action,) = card_for(roll_check(check, scripted(3, 5))).actions
    assert action.spends == "damage or stress and gear"
    assert all("gear loss" in line for line in action.advice if not line.startswith("keep"))


def test_every_die_a_one_offers_no_push(scripted: type[Scripted]) -> None:
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D10", skill="Force"))
    card = card_for(roll_check(check, scripted(1, 1)))
    assert card.actions == ()
    assert [d.selectable for d in card.dice] == [False, False]


def test_a_defenders_one_is_not_marked_a_bane(scripted: type[Scripted]) -> None:
    """A bane costs only the active side's push ("only you ... can push"): the defender's 1
    is a die without a success, not a bane."""
    active = prepare(CheckRequest(attribute_die="D6", skill_die="D6"))
    defender = prepare(CheckRequest(attribute_die="D6", skill_die="D6"))
    from rulebound.rulesets.empty_reach.opposed import roll_opposed

    card = card_for(roll_opposed(active, defender, scripted(1, 6, 1, 2)))
    mine, theirs = card.dice[:2], card.dice[2:]
    assert "bane" in mine[0].marks  # the active side's 1 is a bane
    assert [d.face for d in theirs] == [1, 2]
    assert all("bane" not in d.marks for d in theirs)
    assert "1 bane(s) showing" in card.details


def test_like_dice_are_advised_once(scripted: type[Scripted]) -> None:
    """Two dice alike (the same size and face) are the same choice: one line, not two."""
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D8", skill="Force"))
    (action,) = card_for(roll_check(check, scripted(3, 3))).actions
    choices = [line.split(":")[0] for line in action.advice]
    assert choices == ["keep", "reroll a D8 showing 3", "reroll both D8s showing 3"]


def test_like_dice_of_different_roles_are_named_by_role(scripted: type[Scripted]) -> None:
    """A gear D8 and an attribute D8 both showing 3 are different choices (a gear die's bane
    costs the gear): each line names which it rerolls, and no two lines read alike."""
    gear = GearInUse(name="kit", bonus=1, dice=("D8",))
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D8", gear=gear))
    (action,) = card_for(roll_check(check, scripted(3, 3, 3))).actions
    choices = [line.split(":")[0] for line in action.advice]
    named = {frozenset(c.removeprefix("reroll ").split(" and ")) for c in choices}
    assert len(named) == len(choices), choices  # in whatever order the dice are named
    assert "reroll the attribute D8 showing 3" in choices
    assert "reroll the gear D8 showing 3" in choices
    assert "reroll the D10 showing 3" in choices  # one of its kind: no role needed
