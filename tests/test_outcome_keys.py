"""A card names the outcome it landed on among its game's odds, for every game, so a front end
marks it beside the chances without reading the card's words."""

from __future__ import annotations

import pytest

from rulebound.core.random_source import SeededSource
from rulebound.rulesets.plays import roll_play

from .test_game_contract import KEYS, sample


@pytest.mark.parametrize("key", KEYS)
def test_every_rolls_card_names_an_outcome_of_its_odds_the_one_its_success_agrees_with(
    key: str,
) -> None:
    game, request = sample(key)
    chances = {o.key: o for o in game.chances(request).outcomes}
    landed = set()
    for seed in range(60):
        result, _ = roll_play(game, request, SeededSource(seed))
        card = game.card(result)
        assert card.outcome_key in chances, (card.outcome, card.outcome_key, sorted(chances))
        outcome = chances[card.outcome_key]
        assert outcome.probability > 0
        if card.succeeded is not None:
            assert outcome.success == card.succeeded, (card.outcome, outcome)
        landed.add(card.outcome_key)
    assert len(landed) > 1  # the seeds reach more than one outcome: the key follows the dice
