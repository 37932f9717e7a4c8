"""``Game.decision`` of each game: the chance before and after a follow-up as the game's own
advice shows it, whether its dice decide success, and what it cost."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulebound.core.random_source import SeededSource
from rulebound.rulesets.contract import Game
from rulebound.rulesets.empty_reach.advisor import evaluate
from rulebound.rulesets.legacy.advice import fate_reroll_advice
from rulebound.rulesets.plays import TableRules, params_of
from rulebound.rulesets.registry import get_game

from .plays import followed, raw_request, rolled


def test_a_push_moves_the_chance_as_the_advisor_showed_it() -> None:
    game, request = raw_request("empty-reach")
    pushed = 0
    for seed in range(40):
        result, _ = rolled(game, request, seed)
        if not result.default_reroll() or result.pushes_left < 1:
            continue
        after, record = followed(game, result, "push", {"reroll": list(result.default_reroll())})
        decision = game.decision(result, "push", params_of(record), after)
        assert decision is not None
        assert decision.rolls
        assert decision.before == Fraction(int(result.succeeded))
        assert decision.after == evaluate(result, result.default_reroll()).p_success
        assert decision.succeeded is after.succeeded
        points = after.costs.points if after.costs else 0
        assert dict(decision.paid).get("damage or stress", 0) == points
        pushed += 1
    assert pushed > 5


def test_a_luck_point_is_a_decision_the_dice_do_not_decide() -> None:
    game, request = raw_request("ghostburn")
    result, _ = rolled(game, request, 4)
    after, record = followed(game, result, "spend-luck", {})
    decision = game.decision(result, "spend-luck", params_of(record), after)
    assert decision is not None
    assert not decision.rolls
    assert decision.before == int(result.succeeded)
    assert decision.after == int(after.succeeded)
    assert decision.paid == (("Luck Point", 1),)


def test_moving_bonus_points_is_a_decision_too() -> None:
    game, request = raw_request("rainwall")
    result, _ = rolled(game, request, 2)
    after, record = followed(game, result, "reallocate", {"allocation": [0] * 5})
    decision = game.decision(result, "reallocate", params_of(record), after)
    assert decision is not None
    assert not decision.rolls
    assert decision.before == int(result.succeeded)
    assert decision.after == int(after.succeeded)
    assert decision.paid == ()


def test_a_fate_reroll_has_the_odds_of_the_fate_advice() -> None:
    legacy = get_game("legacy")
    rules = TableRules(legacy)
    sheet = rules.sheets.starter("Ana")
    for seed in range(30):
        form = {"characteristic": "STR"}
        result, _ = rules.rolled(sheet, form, rules.variants(None), SeededSource(seed))
        offered = {a.key: a.available for a in legacy.follow_ups(result)}
        if not offered.get("fate-reroll"):
            continue
        after, play = rules.followed(sheet, result, "fate-reroll", {}, SeededSource(seed + 100))
        decision = legacy.decision(result, "fate-reroll", params_of(play.record), after)
        assert decision is not None
        assert decision.rolls
        assert decision.after == fate_reroll_advice(result.result).p_success
        assert decision.before == int(result.result.outcome.passed)
        assert decision.succeeded is after.result.outcome.passed
        assert ("fate point", 1) in decision.paid
        return
    raise AssertionError("no roll offered a fate reroll")


def test_the_contract_says_nothing_by_default() -> None:
    silent: Game[Any, Any] = Game()
    assert silent.decision(None, "push", {}, None) is None
