"""Exact odds equal brute force over all 100 dice pairs, icepool, and hand counts."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.ghostburn.content import builtin_content
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.odds import band_odds, luck_advice, luck_odds, p_success
from rulebound.rulesets.ghostburn.options import (
    DEFAULT_OPTIONS,
    BottomFade,
    OffLadderReading,
    Options,
)
from rulebound.rulesets.ghostburn.request import raw_request
from rulebound.rulesets.ghostburn.roll import roll
from rulebound.rulesets.ghostburn.rules import classify

PAIRS = list(itertools.product(range(1, 11), repeat=2))
CONTENT = builtin_content()
OPTIONS = [Options(a, b) for a in OffLadderReading for b in BottomFade]


def _difficulty(dl: int, options: Options = DEFAULT_OPTIONS, shift: int = 0) -> Difficulty:
    return Difficulty.make(dl, CONTENT.ladder, options, shift=shift)


def _brute(modifier: int, difficulty: Difficulty, chart: str) -> dict[str, Fraction]:
    the_chart = CONTENT.chart(chart)
    counts = Counter(classify(a + b + modifier, difficulty, the_chart).key for a, b in PAIRS)
    return {band.key: Fraction(counts[band.key], 100) for band in the_chart.bands}


@given(
    modifier=st.integers(-5, 20),
    dl=st.integers(1, 40),
    chart=st.sampled_from(["default", "graded"]),
    options=st.sampled_from(OPTIONS),
)
def test_band_odds_equal_brute_force(modifier: int, dl: int, chart: str, options: Options) -> None:
    difficulty = _difficulty(dl, options)
    odds = band_odds(modifier, difficulty, CONTENT.chart(chart))
    assert odds == _brute(modifier, difficulty, chart)
    assert sum(odds.values()) == 1
    reached = sum(1 for a, b in PAIRS if a + b + modifier >= dl)
    assert p_success(modifier, difficulty) == Fraction(reached, 100)


@pytest.mark.parametrize(("modifier", "dl"), [(0, 14), (4, 20), (6, 14), (9, 26), (-2, 8)])
def test_default_chart_odds_equal_icepool(modifier: int, dl: int) -> None:
    total = icepool.d10 + icepool.d10 + modifier
    difficulty = _difficulty(dl)
    fade_from = difficulty.threshold(-1)
    odds = band_odds(modifier, difficulty, CONTENT.chart("default"))
    assert odds["success"] == total.probability(">=", dl)
    fade = total.probability(">=", fade_from) - total.probability(">=", dl) if fade_from else 0
    assert odds["fade"] == fade
    assert odds["failure"] == 1 - odds["success"] - odds["fade"]


def test_hand_counted_values() -> None:
    # +6 against Hard: dice 14-20 succeed (7+6+...+1 = 28 pairs), 8-13 fade (51), 2-7 fail (21).
    odds = band_odds(6, _difficulty(20), CONTENT.chart("default"))
    assert odds == {
        "success": Fraction(28, 100),
        "fade": Fraction(51, 100),
        "failure": Fraction(21, 100),
    }
    # +0 against Moderate: dice 14-20 succeed (28 pairs), 8-13 fade (51).
    assert band_odds(0, _difficulty(14), CONTENT.chart("default"))["fade"] == Fraction(51, 100)
    # +0 against Easy: nothing below Easy, so no Fade; 2-7 fail (21 pairs).
    assert band_odds(0, _difficulty(8), CONTENT.chart("default"))["fade"] == 0


@given(modifier=st.integers(-5, 19), dl=st.integers(1, 40))
def test_success_rises_with_the_bonus_and_falls_with_the_dl(modifier: int, dl: int) -> None:
    assert p_success(modifier + 1, _difficulty(dl)) >= p_success(modifier, _difficulty(dl))
    if dl < 40:
        assert p_success(modifier, _difficulty(dl + 1)) <= p_success(modifier, _difficulty(dl))


@given(
    modifier=st.integers(-3, 15), dl=st.sampled_from([8, 14, 17, 20, 26]), bonus=st.integers(1, 8)
)
def test_luck_odds_equal_brute_force(modifier: int, dl: int, bonus: int) -> None:
    difficulty = _difficulty(dl)
    chart = CONTENT.chart("graded")
    keys = [band.key for band in chart.bands]
    helps = 0
    bands: Counter[str] = Counter()
    for a, b in PAIRS:
        plain = classify(a + b + modifier, difficulty, chart).key
        lifted = classify(a + b + modifier + bonus, difficulty, chart).key
        better = keys.index(lifted) < keys.index(plain)
        helps += better
        bands[lifted if better else plain] += 1
    odds = luck_odds(modifier, difficulty, chart, bonus)
    assert odds.p_luck_helps == Fraction(helps, 100)
    assert odds.bands_with_luck == {k: Fraction(bands[k], 100) for k in keys}
    assert odds.p_success_with_luck == p_success(modifier + bonus, difficulty)


@pytest.mark.parametrize(
    ("faces", "bonus", "band", "with_luck", "p_next"),
    [
        ((9, 6), 3, "fade", "success", 1),
        ((9, 6), 1, "fade", "fade", 0),
        ((1, 1), 20, "failure", "success", 1),
        ((10, 10), 5, "success", "success", 0),
    ],
)
def test_luck_advice_after_the_roll(
    faces: tuple[int, int], bonus: int, band: str, with_luck: str, p_next: int
) -> None:
    request = raw_request(CONTENT, dl="Hard", ability_score=3)
    result = roll(request, ReplaySource(Draw(10, f) for f in faces))
    advice = luck_advice(result, bonus)
    assert (advice.band, advice.band_with_luck) == (band, with_luck)
    assert advice.p_next_band == p_next
    assert advice.changes_outcome == (band != with_luck)
    assert advice.total_with_luck == result.total + bonus
