"""The terminal text view: dice with marks, modifiers and steps, costs and gear checks."""

from __future__ import annotations

from rulebound.render.empty_reach_text import render_push_options, render_result
from rulebound.rulesets.empty_reach.advisor import push_options, recommend
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, prepare
from rulebound.rulesets.empty_reach.roll import push, roll_check


def test_a_roll_shows_title_modifiers_steps_and_marked_dice(scripted) -> None:
    check = prepare(CheckRequest(attribute_die="D6", skill_die="D12", skill="Stealth", helpers=1))
    text = render_result(roll_check(check, scripted(1, 11)))
    lines = text.splitlines()
    assert lines[0] == "The Empty Reach: Stealth (Agility)"
    assert "  help from 1 ally: +1" in lines
    assert "  total: +1" in lines
    assert "Steps: D6 + D12 -> D8 + D12" in lines
    assert "  +1: attribute die D6 -> D8" in lines
    assert any("[0] attribute" in line and " 1 " in line and "bane" in line for line in lines)
    assert any("[1] skill" in line and "success, success" in line for line in lines)
    assert lines[-1] == "Result: 2 successes, 1 bane(s)"


def test_capped_steps_are_listed(scripted) -> None:
    check = prepare(CheckRequest(attribute_die="D12", skill_die="D12", helpers=1))
    text = render_result(roll_check(check, scripted(2, 3)))
    assert "+1: no effect: already two D12s" in text
    assert "Result: Failure: no success" in text


def test_a_push_shows_history_states_costs_and_gear_checks(scripted) -> None:
    check = prepare(
        CheckRequest(
            attribute_die="D6", skill_die="D6", skill="Force", gear=GearInUse(name="bar", bonus=1)
        )
    )
    result = roll_check(check, scripted(1, 3))
    pushed = push(result, scripted(1, 2))
    text = render_result(pushed)
    assert "[locked]" in text
    assert "(was 3) [rerolled]" in text
    assert "Costs: 2 new bane(s): 1 damage, gear -1" in text
    assert "gear check d6: 2 (gear loses 1)" in text
    assert "(pushed 1x)" in text


def test_push_options_table_marks_the_recommendation(scripted) -> None:
    result = roll_check(
        prepare(CheckRequest(attribute_die="D8", skill_die="D10", skill="Force")), scripted(6, 3)
    )
    text = render_push_options(push_options(result), recommend(result))
    lines = text.splitlines()
    assert lines[0] == "Push options (exact odds after the push):"
    assert any(line.strip().startswith("don't push") and "100.0%" in line for line in lines)
    starred = [line for line in lines if line.endswith(" *")]
    assert len(starred) == 1
    assert "reroll 1 " in starred[0]
    assert lines[-1] == "  * recommended to succeed: reroll 1"
    assert render_push_options([], None) == "No push left for this roll."
