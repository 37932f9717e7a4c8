"""What the text leaves open, as rulings G1's neighbours read it: no Luck Bonus before the
roll (step 9 comes after the result), no critical or fumble on 2d10 (G19), and Luck Points
that come back only when the GM gives them (G20)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.ghostburn.content import builtin_content
from rulebound.rulesets.ghostburn.game import GAME
from rulebound.rulesets.ghostburn.request import CheckRequest, raw_request
from rulebound.rulesets.ghostburn.roll import roll
from rulebound.rulesets.ghostburn.rules import Bonus, BonusKind
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)


def test_a_luck_bonus_is_refused_before_the_roll() -> None:
    """Step 9: the Luck Bonus is bought "After you roll the dice and determine the result"."""
    plain = raw_request(builtin_content(), dl="Hard", ability_score=2)
    lucky = (*plain.candidates, Bonus(BonusKind.LUCK, "luck", 3))
    with pytest.raises(InvalidInput) as error:
        CheckRequest(lucky, plain.difficulty, plain.chart)
    assert (error.value.field, error.value.value) == ("bonus", "luck")
    assert "after" in error.value.expected


def _rolled(faces: tuple[int, int], dl: int, ability: int = 0) -> Any:
    request = raw_request(builtin_content(), dl=dl, ability_score=ability)
    return roll(request, ReplaySource(Draw(10, f) for f in faces))


@given(st.integers(1, 10), st.integers(1, 10), st.integers(2, 40))
def test_two_d10_have_no_critical_or_fumble_only_their_sum(a: int, b: int, dl: int) -> None:
    """Ruling G19: a double is its sum; the band follows the total alone."""
    rolled = _rolled((a, b), dl)
    assert rolled.total == a + b
    assert rolled.succeeded == (a + b >= dl)
    for other in [(x, a + b - x) for x in range(1, 11) if 1 <= a + b - x <= 10]:
        same = _rolled(other, dl)
        assert (same.band, same.headline, same.succeeded) == (
            rolled.band,
            rolled.headline,
            rolled.succeeded,
        )


def test_double_ones_reach_a_low_dl_and_double_tens_miss_a_high_one() -> None:
    assert _rolled((1, 1), 2).succeeded  # no fumble
    assert not _rolled((10, 10), 21).succeeded  # no critical
    assert "ritical" not in _rolled((10, 10), 21).headline


def _vex(points: int) -> dict[str, Any]:
    form = {"abilities.agility": "3", "luck_points": str(points), "luck_bonus": "3"}
    return TABLE.apply_sheet_form(TABLE.new_sheet("Vex"), form)


def test_luck_points_come_back_only_when_the_gm_gives_them() -> None:
    """Ruling G20: a roll, a spend or a new roll never refills the pool; the GM's action does."""
    sheet = _vex(1)
    form = {"skill": "firearms", "dl": "Hard"}
    rolled = TABLE.roll(sheet, form, {}, SeededSource(3))
    assert rolled.sheet is None  # a roll leaves the pool as it is
    spent = TABLE.act(sheet, [rolled.record], "spend-luck", {}, {}, SeededSource(0))
    assert spent.sheet is not None
    assert spent.sheet["luck_points"] == 0
    again = TABLE.roll(spent.sheet, form, {}, SeededSource(4))
    assert again.sheet is None
    (regain,) = TABLE.sheet_actions(spent.sheet, {})
    back = TABLE.sheet_act(spent.sheet, regain.key, {"points": "2"}, {}, SeededSource(0))
    assert back.sheet is not None
    assert back.sheet["luck_points"] == 2
