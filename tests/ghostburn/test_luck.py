"""Luck: one spend per roll, a new linked result, the pool shrinking with it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.ghostburn.character import Character, parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent, builtin_content
from rulebound.rulesets.ghostburn.luck import spend_character_luck, spend_luck, with_luck
from rulebound.rulesets.ghostburn.request import LuckPool, character_request, raw_request
from rulebound.rulesets.ghostburn.roll import GhostburnResult, roll


def _fade(content: GhostburnContent) -> GhostburnResult:
    request = raw_request(content, dl="Hard", ability_score=3)
    return roll(request, ReplaySource([Draw(10, 9), Draw(10, 6)]))  # 18: a Fade


def test_spending_links_a_new_result_and_takes_a_point(content: GhostburnContent) -> None:
    before = _fade(content)
    spent = spend_luck(before, LuckPool(2, 3))
    assert spent.pool == LuckPool(1, 3)
    assert spent.result.parent is before
    assert (spent.result.total, spent.result.band.key) == (21, "success")
    assert spent.result.luck is not None
    assert spent.result.luck.value == 3
    assert (before.total, before.band.key, before.luck) == (18, "fade", None)


def test_no_points_no_spend(content: GhostburnContent) -> None:
    with pytest.raises(RuleViolation, match="no Luck Points"):
        spend_luck(_fade(content), LuckPool(0, 3))


def test_one_luck_bonus_per_roll(content: GhostburnContent) -> None:
    once = spend_luck(_fade(content), LuckPool(2, 3))
    with pytest.raises(RuleViolation, match="at most one Luck Bonus"):
        spend_luck(once.result, once.pool)


@pytest.mark.parametrize(
    ("points", "bonus", "field"), [(-1, 2, "luck_points"), (1, 0, "luck_bonus")]
)
def test_a_bad_pool_is_rejected(points: int, bonus: int, field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        LuckPool(points, bonus)
    assert err.value.field == field


def test_a_character_spend_returns_the_result_and_the_sheet_together(
    vex: Character, content: GhostburnContent
) -> None:
    result = roll(character_request(vex, content, trick="aimed-shot"), SeededSource(1))
    spent = spend_character_luck(result, vex)
    assert spent.character.luck_points == vex.luck_points - 1
    assert spent.result.total == result.total + vex.luck_bonus
    assert vex.luck_points == 2


def test_a_character_with_no_points_keeps_the_sheet(
    sheet: dict[str, Any], content: GhostburnContent
) -> None:
    broke = parse_character({**sheet, "luck_points": 0})
    result = roll(character_request(broke, content, trick="aimed-shot"), SeededSource(1))
    with pytest.raises(RuleViolation):
        spend_character_luck(result, broke)
    assert broke.luck_points == 0


def test_only_the_roller_spends_on_their_roll(
    sheet: dict[str, Any], vex: Character, content: GhostburnContent
) -> None:
    result = roll(character_request(vex, content, trick="aimed-shot"), SeededSource(1))
    with pytest.raises(RuleViolation, match="Vex's, not Ana's"):
        spend_character_luck(result, parse_character({**sheet, "name": "Ana"}))


def test_the_child_replays_from_the_parents_draws(content: GhostburnContent) -> None:
    request = raw_request(content, dl="Hard", ability_score=3)
    child = spend_luck(roll(request, SeededSource(11)), LuckPool(1, 2)).result
    parent = roll(request, ReplaySource(child.provenance.draws))
    replayed = with_luck(replace(parent, provenance=child.provenance), 2)
    assert replayed == child


@given(
    seed=st.integers(min_value=0, max_value=2**32),
    bonus=st.integers(min_value=1, max_value=10),
    dl=st.sampled_from([8, 14, 17, 20, 26, 32]),
)
def test_luck_never_lowers_the_band(seed: int, bonus: int, dl: int) -> None:
    content = builtin_content()
    request = raw_request(content, dl=dl, ability_score=2, chart="graded")
    before = roll(request, SeededSource(seed))
    after = with_luck(before, bonus)
    keys = [band.key for band in request.chart.bands]
    assert keys.index(after.band.key) <= keys.index(before.band.key)
    assert after.total == before.total + bonus
