"""The Legacy designer table: characteristic by difficulty class, per rank and scale reading."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from rulebound.rulesets.grid import Cell, GridPanel, OddsGrid, build_panel
from rulebound.rulesets.legacy.checks import CheckRequest
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.odds import p_success
from rulebound.rulesets.legacy.rules import SCALES, difficulty_keys, rank_bonus, scale

SCORES: tuple[int, ...] = tuple(range(15, 55, 5))
"""Characteristics run from about 17 to 45 at creation, higher with advances."""
RANKS: tuple[int | None, ...] = (None, 1, 3, 5)
"""No rank, then the first rank of each rank-bonus band."""


def chance(score: int, difficulty: str, rank: int | None, scale_key: str) -> Cell:
    """P(success), a critical success included."""
    return p_success(CheckRequest(score=score, rank=rank, difficulty=difficulty, scale=scale_key))


def _rank_words(rank: int | None) -> str:
    return "no rank" if rank is None else f"rank {rank} (+{rank_bonus(rank)})"


def _panel(rank: int | None, scale_key: str, difficulties: Sequence[str]) -> GridPanel:
    cell = partial(chance, rank=rank, scale_key=scale_key)
    return build_panel(f"{scale_key}, {_rank_words(rank)}", SCORES, difficulties, cell)


def success_grid(
    ranks: Sequence[int | None] = RANKS, scales: Sequence[str] | None = None
) -> OddsGrid:
    """One panel per (scale reading, rank): the as-written reading first, then each variant."""
    keys = tuple(scales) if scales is not None else tuple(SCALES)
    for key in keys:
        scale(key)
    difficulties = difficulty_keys()
    names = {d: catalogue().difficulty(d).name for d in difficulties}
    return OddsGrid(
        ruleset="legacy",
        title="Legacy Machines and Magic",
        measure="P(success), critical successes included",
        row_axis="characteristic",
        column_axis="difficulty",
        rows=tuple(str(s) for s in SCORES),
        columns=tuple(names[d] for d in difficulties),
        panels=tuple(_panel(rank, key, difficulties) for key in keys for rank in ranks),
        panels_per_row=len(ranks),
    )
