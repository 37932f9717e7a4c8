"""The Rainwall designer table: dice (trait) by skill, for a given DR, per bonus.

The table is one sweep, not a hundred requests: for a skill and a bonus the counts
of fixed dice (``odds._fixed_table``) serve every number of dice at once, and a
cell only adds up ``comb(n, raw) * free**raw`` times the ways the failures reach
what the DR still needs. Every cell equals ``check_odds(...).p_success``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

from rulebound.core.distribution import exact, exact_over
from rulebound.rulesets.grid import Cell, GridPanel, OddsGrid
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.odds import (
    first_success,
    fixed_table,
    pool_faces,
    success_chance,
    success_weights,
)
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.rules import Options

SCORES: tuple[int, ...] = tuple(range(rules.MIN_SCORE, rules.MAX_SCORE + 1))
"""The rows and the columns: consecutive scores (``_unbought_rows`` relies on it)."""
_SLOT = (rules.DIE_SIDES ** SCORES[-1]).bit_length() + 1
"""Bits per count in ``_unbought_rows``' packed powers: any sum of a row's counts is at
most 10^10, under ``2**_SLOT - 1`` (``odds.SLOT`` serves pools of up to 19 dice)."""


def chance(dice: int, skill: int, dr: int, bonus: int, options: Options) -> Cell:
    """P(success) after the optimal spend of the bonus points, for one cell."""
    request = RainwallRequest(dice=dice, skill=skill, dr=dr, bonus=bonus, options=options)
    return success_chance(request.checked())


def _unbought_rows(dr: int, options: Options) -> tuple[tuple[Fraction, ...], ...]:
    """Without bonus points no failure is fixed: each cell is a binomial tail, read off
    one power of ``free * X + failing`` (as ``odds.success_weights`` does for one cell).
    Row ``n`` multiplies each skill's power from row ``n - 1`` once, the successes a row
    needs are the same for every skill, and a row shares its denominator. The rows of
    fewer dice than the DR share one row of one zero (results are immutable): fewer
    objects to build and, on a first call, for the collector to count."""
    packs, powers = [], []
    for skill in SCORES:
        free = rules.success_face_count(skill, options)  # no prices: nothing is bought
        packs.append((free << _SLOT) + rules.DIE_SIDES - free)
        powers.append(packs[-1] ** (SCORES[0] - 1))
    mask, flub_column = (1 << _SLOT) - 1, SCORES.index(rules.FLUB_SKILL)
    rows = []
    unreachable = (exact(0, 1),) * len(SCORES)
    for dice in SCORES:
        need = first_success(dr, dice)
        powers = [power * packed for power, packed in zip(powers, packs, strict=True)]
        if need > dice:  # no roll of these dice succeeds, the flub cell's included
            rows.append(unreachable)
            continue
        hits = [(power >> (_SLOT * need)) % mask for power in powers]
        if dice == rules.FLUB_TRAIT:
            hits[flub_column] = success_weights(dice, rules.FLUB_SKILL, 0, options, dr)
        rows.append(tuple(exact_over(hits, rules.DIE_SIDES**dice)))
    return tuple(rows)


def _column(skill: int, dr: int, bonus: int, options: Options) -> list[Fraction]:
    """P(success) for every number of dice in ``SCORES``, sharing one table of fixes."""
    free, _, _ = pool_faces(skill, bonus, options)
    failing = rules.DIE_SIDES - free
    fixed = fixed_table(skill, bonus, options, SCORES[-1])
    # tails[m][k]: ways m failing dice leave k or more of them fixed
    tails = []
    for counts in fixed:
        tail, running = [], 0
        for count in reversed(counts):
            running += count
            tail.append(running)
        tails.append(tail[::-1])
    column = []
    for dice in SCORES:
        if dice == rules.FLUB_TRAIT and skill == rules.FLUB_SKILL:
            hits = success_weights(dice, skill, bonus, options, dr)
        else:
            need = first_success(dr, dice)
            hits = 0
            for raw in range(dice + 1) if free else (0,):
                rest, short = dice - raw, need - raw
                if short <= 0:
                    hits += comb(dice, raw) * free**raw * failing**rest
                elif short < len(tails[rest]):
                    hits += comb(dice, raw) * free**raw * tails[rest][short]
        column.append(exact(hits, rules.DIE_SIDES**dice))
    return column


def _panel(dr: int, bonus: int, options: Options) -> GridPanel:
    if bonus:
        columns = [_column(skill, dr, bonus, options) for skill in SCORES]
        cells = tuple(tuple(column[row] for column in columns) for row in range(len(SCORES)))
    else:
        cells = _unbought_rows(dr, options)
    return GridPanel(f"DR {dr}, bonus +{bonus}", cells)


def success_grid(
    dr: int, bonuses: Sequence[int] = (0,), options: Options | None = None
) -> OddsGrid:
    """One panel per bonus; rows are the dice rolled, columns the skill score."""
    chosen = options or Options()
    for bonus in bonuses:  # names a bad DR or bonus before any work
        RainwallRequest(dice=1, skill=1, dr=dr, bonus=bonus, options=chosen).checked()
    labels = tuple(map(str, SCORES))
    return OddsGrid(
        ruleset="rainwall",
        title=f"Rainwall, DR {dr}",
        measure="P(success) after the optimal spend",
        row_axis="dice",
        column_axis="skill",
        rows=labels,
        columns=labels,
        panels=tuple(_panel(dr, bonus, chosen) for bonus in bonuses),
    )
