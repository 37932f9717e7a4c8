"""The Ghostburn designer table: total bonus by DL, the chance to reach the DL."""

from __future__ import annotations

from collections.abc import Sequence

from rulebound.rulesets.ghostburn.content import GhostburnContent, builtin_content
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.odds import p_success
from rulebound.rulesets.ghostburn.options import Options
from rulebound.rulesets.grid import Cell, OddsGrid, build_panel

BONUSES: tuple[int, ...] = tuple(range(21))
"""Total bonuses added to 2d10 (ability, skill, gear and augs after stacking)."""


def chance(bonus: int, difficulty: Difficulty) -> Cell:
    return p_success(bonus, difficulty)


def success_grid(
    bonuses: Sequence[int] = BONUSES,
    content: GhostburnContent | None = None,
    options: Options | None = None,
) -> OddsGrid:
    """Rows are total bonuses; columns are the ladder's levels (a homebrew ladder included)."""
    loaded = content or builtin_content()
    chosen = options or Options()
    levels = loaded.ladder.levels
    dls = [Difficulty.make(level.value, loaded.ladder, chosen) for level in levels]
    panel = build_panel("reach the DL", bonuses, dls, chance)
    return OddsGrid(
        ruleset="ghostburn",
        title="Ghostburn",
        measure="P(2d10 + bonus reaches the DL)",
        row_axis="total bonus",
        column_axis="DL",
        rows=tuple(f"{b:+d}" for b in bonuses),
        columns=tuple(f"{level.name} ({level.value})" for level in levels),
        panels=(panel,),
    )
