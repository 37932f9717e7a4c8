"""Exact Ghostburn odds: each band's chance before the roll, and what luck would do after it.

Everything is read off the same 2d10 distribution and the same band lookup the
roller uses (``rules``), so a roll and its odds cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulebound.core.distribution import Distribution
from rulebound.rulesets.contract import Breakdown, Chances, Extra, Outcome
from rulebound.rulesets.ghostburn.chart import Chart
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.roll import GhostburnResult
from rulebound.rulesets.ghostburn.rules import classify, dice_distribution


def result_distribution(modifier: int) -> Distribution[int]:
    return dice_distribution().map(lambda dice: dice + modifier)


def band_odds(modifier: int, difficulty: Difficulty, chart: Chart) -> dict[str, Fraction]:
    """The chance of every band on the chart, best first, zeros included."""
    bands = result_distribution(modifier).map(lambda t: classify(t, difficulty, chart).key)
    return {band.key: bands.probability(band.key) for band in chart.bands}


def p_success(modifier: int, difficulty: Difficulty) -> Fraction:
    """The chance the result reaches the DL."""
    return result_distribution(modifier).probability_where(lambda t: t >= difficulty.value)


@dataclass(frozen=True, slots=True)
class LuckOdds:
    """Before the roll: what a Luck Point spent only when it lifts the band is worth."""

    p_luck_helps: Fraction
    """The chance the roll lands where the Luck Bonus would lift it into a better band."""
    p_success_with_luck: Fraction
    bands_with_luck: dict[str, Fraction]


def luck_odds(modifier: int, difficulty: Difficulty, chart: Chart, bonus: int) -> LuckOdds:
    rank = {band.key: i for i, band in enumerate(chart.bands)}

    def outcome(total: int) -> tuple[str, bool]:
        plain = classify(total, difficulty, chart).key
        lifted = classify(total + bonus, difficulty, chart).key
        return (lifted, True) if rank[lifted] < rank[plain] else (plain, False)

    outcomes = result_distribution(modifier).map(outcome)
    bands = outcomes.map(lambda o: o[0])
    return LuckOdds(
        p_luck_helps=outcomes.probability_where(lambda o: o[1]),
        p_success_with_luck=result_distribution(modifier).probability_where(
            lambda t: t + bonus >= difficulty.value
        ),
        bands_with_luck={band.key: bands.probability(band.key) for band in chart.bands},
    )


@dataclass(frozen=True, slots=True)
class LuckAdvice:
    """After the roll the dice are known, so the chance of the next band is 0 or 1."""

    band: str
    band_with_luck: str
    total_with_luck: int
    next_band: str | None
    p_next_band: Fraction
    changes_outcome: bool


def luck_advice(result: GhostburnResult, bonus: int) -> LuckAdvice:
    request = result.request
    chart = request.chart
    keys = [band.key for band in chart.bands]
    index = keys.index(result.band.key)
    lifted = classify(result.total + bonus, request.difficulty, chart)
    next_band = keys[index - 1] if index > 0 else None
    reaches = next_band is not None and keys.index(lifted.key) <= index - 1
    return LuckAdvice(
        band=result.band.key,
        band_with_luck=lifted.key,
        total_with_luck=result.total + bonus,
        next_band=next_band,
        p_next_band=Fraction(int(reaches)),
        changes_outcome=lifted.key != result.band.key,
    )


SUCCESS_LABEL = "success (reach the DL)"
"""P(success) in ``Chances.as_mapping()``; then one label per band."""


def chances(
    modifier: int, difficulty: Difficulty, chart: Chart, luck_bonus: int | None = None
) -> Chances:
    """The game's typed odds: each band of the chart (a partition: they sum to 1), success as
    reaching the DL, and with a Luck Bonus what spending it only when it lifts the band adds."""
    odds = band_odds(modifier, difficulty, chart)
    labels = [band.label for band in chart.bands]
    outcomes = tuple(
        Outcome(
            band.key,
            band.label if labels.count(band.label) == 1 else f"{band.label} ({band.key})",
            odds[band.key],
            band.succeeded,
        )
        for band in chart.bands
    )
    if luck_bonus is None:
        return Chances(outcomes, success_label=SUCCESS_LABEL, outcome_name="bands")
    luck = luck_odds(modifier, difficulty, chart, luck_bonus)
    spend = f"a Luck Point (+{luck_bonus})"
    extras = (
        Extra("p_luck_helps", f"{spend} would lift the band", luck.p_luck_helps),
        Extra(
            "p_success_with_luck",
            f"success spending {spend} when it helps",
            luck.p_success_with_luck,
        ),
    )
    bands = tuple(luck.bands_with_luck.items())
    breakdown = Breakdown("bands_with_luck", f"bands spending {spend} when it helps", bands)
    return Chances(outcomes, extras, (breakdown,), SUCCESS_LABEL, "bands")
