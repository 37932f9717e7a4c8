"""The card shows what the record holds: substitution, shift, luck, bands, the luck offer."""

from __future__ import annotations

from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.ghostburn.character import Character
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.game import GAME
from rulebound.rulesets.ghostburn.luck import with_luck
from rulebound.rulesets.ghostburn.request import character_request, raw_request
from rulebound.rulesets.ghostburn.roll import roll


def test_card_shows_substitution_shift_and_luck(vex: Character, content: GhostburnContent) -> None:
    request = character_request(
        vex, content, skill="firearms", ability="strength", dl=14, dl_shift=1
    )
    result = roll(request, ReplaySource([Draw(10, 2), Draw(10, 9)]))
    card = GAME.card(result)
    assert card.title == "Firearms, improvised trick vs Hard (20)"
    assert card.steps[0] == "2d10: 2 + 9 = 11"
    assert "Strength (ability): +1 (GM called for it instead of Agility)" in card.modifiers
    assert "DL Hard (20), set by the GM, shifted +1 level(s) by the GM from 14" in card.details
    assert "The GM called for Strength instead of Agility" in card.details
    assert card.steps[-1] == "14 vs Hard (20): Fade"
    assert (card.outcome, card.succeeded) == (  # the total on the card's face, not in Details
        "Fade (14 vs 20): A partial result, or success at a cost the GM names.",
        False,
    )
    lucky = GAME.card(with_luck(result, 6))
    assert lucky.outcome.startswith("Success (20 vs 20): ")
    assert lucky.outcome.endswith(" A Luck Point was spent (+6).")
    assert "Before the Luck Point: Fade: 14 vs Hard (20)" in lucky.details
    assert lucky.modifiers[-1] == "Luck Point (luck): +6"
    assert "Luck Point +6: result 20" in lucky.steps
    assert lucky.steps[-1] == "20 vs Hard (20): Success"
    assert lucky.succeeded is True
    assert lucky.actions == ()


def test_the_luck_offer_uses_band_labels(vex: Character, content: GhostburnContent) -> None:
    result = roll(
        character_request(vex, content, trick="aimed-shot"),
        ReplaySource([Draw(10, 4), Draw(10, 4)]),
    )
    (action,) = GAME.card(result).actions
    assert (action.key, action.label, action.spends) == (
        "spend-luck",
        "Spend a Luck Point (+3)",
        "1 Luck Point",
    )
    assert action.advice == (
        "+3 would lift it to Success (result 16)",
        "2 Luck Point(s) when rolled",
    )


def test_no_offer_without_a_point(content: GhostburnContent) -> None:
    result = roll(raw_request(content, dl=14), ReplaySource([Draw(10, 4), Draw(10, 4)]))
    assert GAME.card(result).actions == GAME.follow_ups(result)  # shown greyed, with why
    (spend,) = GAME.follow_ups(result)
    assert not spend.available
    assert "--luck-bonus" in spend.reason


def test_an_off_ladder_dl_is_named_once(content: GhostburnContent) -> None:
    result = roll(raw_request(content, dl=17), ReplaySource([Draw(10, 9), Draw(10, 9)]))
    card = GAME.card(result)
    assert card.title.endswith("vs DL 17")
    assert card.details[0] == "DL 17, given directly"
    on_ladder = GAME.card(
        roll(raw_request(content, dl=14), ReplaySource([Draw(10, 9), Draw(10, 9)]))
    )
    assert on_ladder.details[0].startswith("DL Moderate (14), ")
