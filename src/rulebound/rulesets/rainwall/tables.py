"""The Rainwall designer table: dice (trait) by skill, for a given DR, per bonus."""

from __future__ import annotations

from collections.abc import Sequence

from rulebound.rulesets.grid import Cell, GridPanel, OddsGrid, build_panel
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.odds import success_chance
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Options

SCORES: tuple[int, ...] = tuple(range(rules.MIN_SCORE, rules.MAX_SCORE + 1))


def chance(dice: int, skill: int, dr: int, bonus: int, options: Options) -> Cell:
    """P(success) after the optimal spend of the bonus points."""
    request = RainwallRequest(dice=dice, skill=skill, dr=dr, bonus=bonus, options=options)
    return success_chance(request.checked())


def _panel(dr: int, bonus: int, options: Options) -> GridPanel:
    return build_panel(
        f"DR {dr}, bonus +{bonus}",
        SCORES,
        SCORES,
        lambda dice, skill: chance(dice, skill, dr, bonus, options),
    )


def success_grid(
    dr: int, bonuses: Sequence[int] = (0,), options: Options | None = None
) -> OddsGrid:
    """One panel per bonus; rows are the dice rolled, columns the skill score."""
    chosen = options or Options()
    RainwallRequest(dice=1, skill=1, dr=dr)  # names a bad DR before any work
    return OddsGrid(
        ruleset="rainwall",
        title=f"Rainwall, DR {dr}",
        measure="P(success) after the optimal spend",
        row_axis="dice",
        column_axis="skill",
        rows=tuple(str(n) for n in SCORES),
        columns=tuple(str(n) for n in SCORES),
        panels=tuple(_panel(dr, bonus, chosen) for bonus in bonuses),
    )
