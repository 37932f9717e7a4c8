"""The text view shows what the record holds: substitution, shift, luck, bands."""

from __future__ import annotations

from fractions import Fraction

from rulebound.core.random_source import Draw, ReplaySource
from rulebound.render.ghostburn_text import luck_advice_text, odds_text, result_text
from rulebound.rulesets.ghostburn.character import Character
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.luck import with_luck
from rulebound.rulesets.ghostburn.odds import luck_advice
from rulebound.rulesets.ghostburn.request import character_request
from rulebound.rulesets.ghostburn.roll import roll


def test_result_text_shows_substitution_shift_and_luck(
    vex: Character, content: GhostburnContent
) -> None:
    request = character_request(
        vex, content, skill="firearms", ability="strength", dl=14, dl_shift=1
    )
    result = roll(request, ReplaySource([Draw(10, 2), Draw(10, 9)]))
    text = result_text(result)
    assert "2d10: 2 + 9 = 11" in text
    assert "Strength            +1  applied (GM called for it instead of Agility)" in text
    assert "Hard (20), set by the GM, shifted +1 level(s) by the GM from 14" in text
    assert "Result    14\nBand      Fade" in text
    lucky = result_text(with_luck(result, 6))
    assert "after spending a Luck Point" in lucky
    assert "Luck Point          +6  applied" in lucky
    assert "Result    20\nBand      Success" in lucky


def test_luck_advice_text_uses_band_labels(vex: Character, content: GhostburnContent) -> None:
    result = roll(
        character_request(vex, content, trick="aimed-shot"),
        ReplaySource([Draw(10, 4), Draw(10, 4)]),
    )
    advice = luck_advice(result, 3)
    assert luck_advice_text(result, advice, 3, 2).endswith("would lift it to Success (result 16)")


def test_odds_text_draws_bars_in_proportion() -> None:
    text = odds_text(
        "t", {"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"a": "A", "b": "B"}, Fraction(1, 2)
    )
    bars = [line.count("█") for line in text.splitlines()[2:]]
    assert bars == [15, 15]
