"""Designer tables: every cell equals the ruleset's own exact odds, and a few by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.empty_reach.check import CheckRequest as ReachRequest
from rulebound.rulesets.empty_reach.check import ExtraModifier, prepare
from rulebound.rulesets.empty_reach.odds import PushPolicy
from rulebound.rulesets.empty_reach.odds import p_success as reach_p_success
from rulebound.rulesets.empty_reach.tables import success_grid as reach_grid
from rulebound.rulesets.ghostburn.content import builtin_content
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.odds import band_odds
from rulebound.rulesets.ghostburn.options import Options as GhostOptions
from rulebound.rulesets.ghostburn.tables import success_grid as ghost_grid
from rulebound.rulesets.grid import GridPanel, OddsGrid
from rulebound.rulesets.legacy.checks import CheckRequest as LegacyRequest
from rulebound.rulesets.legacy.odds import check_chances
from rulebound.rulesets.legacy.rules import Outcome
from rulebound.rulesets.legacy.tables import success_grid as legacy_grid
from rulebound.rulesets.rainwall.odds import check_odds
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.tables import success_grid as rain_grid


def cell(grid: OddsGrid, panel: str, row: str, column: str) -> Fraction | None:
    found = {(p, r, c): v for p, r, c, v in grid.records()}
    return found[(panel, row, column)]


def test_empty_reach_grid_every_cell() -> None:
    grid = reach_grid()
    assert len(grid.panels) == 14
    assert grid.rows == ("D6", "D8", "D10", "D12")
    assert grid.columns == ("none", "D6", "D8", "D10", "D12")
    for title, row, column, chance in grid.records():
        modifier = int(title.split(",")[0].removeprefix("modifier "))
        policy: PushPolicy = "always" if "push always" in title else "never"
        extra = (ExtraModifier(source="m", value=modifier),) if modifier else ()
        skill = None if column == "none" else column
        check = prepare(ReachRequest(attribute_die=row, skill_die=skill, modifiers=extra))
        assert chance == reach_p_success(check, policy)
    assert cell(grid, "modifier +0, push always", "D8", "D10") == Fraction(139, 160)
    assert cell(grid, "modifier +0, no push", "D6", "none") == Fraction(1, 6)
    # -3 from D6+D8 leaves a lone D6 (a cap): the floor of the table
    assert cell(grid, "modifier -3, no push", "D6", "D8") == Fraction(1, 6)


def test_rainwall_grid_every_cell() -> None:
    grid = rain_grid(4, bonuses=(0, 1))
    assert [p.title for p in grid.panels] == ["DR 4, bonus +0", "DR 4, bonus +1"]
    for title, dice, skill, chance in grid.records():
        bonus = int(title.rsplit("+", 1)[1])
        request = RainwallRequest(dice=int(dice), skill=int(skill), dr=4, bonus=bonus)
        assert chance == check_odds(request).p_success
    assert cell(grid, "DR 4, bonus +1", "7", "5") == Fraction(10583, 16000)
    assert cell(grid, "DR 4, bonus +0", "3", "10") == 0  # three dice cannot make four successes


def test_legacy_grid_every_cell_in_every_reading() -> None:
    grid = legacy_grid()
    readings = {title.split(",")[0] for title in (p.title for p in grid.panels)}
    assert readings == {"as-written", "halved", "d100"}
    assert grid.panels[0].title == "as-written, no rank"
    keys = {
        "Very Easy": "very-easy",
        "Easy": "easy",
        "Routine": "routine",
        "Ordinary": "ordinary",
        "Challenging": "challenging",
        "Difficult": "difficult",
        "Hard": "hard",
        "Very Hard": "very-hard",
        "Impossible": "impossible",
    }
    assert set(grid.columns) == set(keys)
    for title, score, difficulty, chance in grid.records():
        scale, rank_words = title.split(", ")
        rank = None if rank_words == "no rank" else int(rank_words.split()[1])
        req = LegacyRequest(score=int(score), rank=rank, difficulty=keys[difficulty], scale=scale)
        chances = check_chances(req)
        assert chance == chances[Outcome.CRITICAL_SUCCESS] + chances[Outcome.SUCCESS]
    # score 30 as written against a d20: everything but a 20
    assert cell(grid, "as-written, no rank", "30", "Challenging") == Fraction(19, 20)
    assert cell(grid, "halved, no rank", "30", "Challenging") == Fraction(15, 20)
    assert cell(grid, "d100, rank 3 (+4)", "30", "Hard") == Fraction(30, 100)


def test_ghostburn_grid_every_cell() -> None:
    content = builtin_content()
    grid = ghost_grid()
    assert grid.columns == tuple(f"{lv.name} ({lv.value})" for lv in content.ladder.levels)
    by_label = {f"{lv.name} ({lv.value})": lv.value for lv in content.ladder.levels}
    default = content.chart("default")
    for _, bonus, dl, chance in grid.records():
        difficulty = Difficulty.make(by_label[dl], content.ladder, GhostOptions())
        assert chance == band_odds(int(bonus), difficulty, default)["success"]
    assert cell(grid, "reach the DL", "+5", "Moderate (14)") == Fraction(18, 25)
    assert cell(grid, "reach the DL", "+0", "Daunting (26)") == 0


def test_a_grid_refuses_ragged_panels() -> None:
    with pytest.raises(InvalidInput, match="2 rows of 1 cells"):
        OddsGrid("x", "t", "m", "r", "c", ("a", "b"), ("c",), (GridPanel("p", ((Fraction(1),),)),))
