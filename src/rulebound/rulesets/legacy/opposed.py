"""Opposed checks: both sides roll; the better weighted margin wins, then the larger bonus.

A success always beats a failure; among successes the larger margin wins, among
failures the smaller. Criticals count double. A partial success is only a
failure here (the text allows none in opposed checks). If margins and bonuses
tie, nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rulebound.core.random_source import RandomSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.checks import CheckRequest, LegacyResult, roll_check
from rulebound.rulesets.legacy.rules import Thresholds, classify, weighted_margin


class OpposedOutcome(StrEnum):
    WIN = "win"
    TIE = "tie"
    LOSS = "loss"


def standing(face: int, t: Thresholds) -> tuple[bool, int]:
    """The sort key of one side: (passed, weighted margin)."""
    outcome = classify(face, t)
    return (outcome.passed, weighted_margin(face, t, outcome))


def compare(a: tuple[bool, int], b: tuple[bool, int], bonus_a: int, bonus_b: int) -> OpposedOutcome:
    if a != b:
        return OpposedOutcome.WIN if a > b else OpposedOutcome.LOSS
    if bonus_a != bonus_b:
        return OpposedOutcome.WIN if bonus_a > bonus_b else OpposedOutcome.LOSS
    return OpposedOutcome.TIE


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Both rolls, and the outcome for the first side (the actor)."""

    actor: LegacyResult
    opponent: LegacyResult
    outcome: OpposedOutcome
    provenance: Provenance

    @property
    def succeeded(self) -> bool:
        return self.outcome is OpposedOutcome.WIN

    @property
    def headline(self) -> str:
        if self.outcome is OpposedOutcome.TIE:
            return "Tie: nothing changes"
        return "Actor wins" if self.succeeded else "Opponent wins"


def roll_opposed(
    actor: CheckRequest, opponent: CheckRequest, source: RandomSource
) -> OpposedResult:
    a = roll_check(actor, source)
    b = roll_check(opponent, source)
    outcome = compare(
        standing(a.face, a.thresholds),
        standing(b.face, b.thresholds),
        actor.ability_bonus,
        opponent.ability_bonus,
    )
    draws = a.provenance.draws + b.provenance.draws
    return OpposedResult(a, b, outcome, Provenance(a.provenance.source, draws))
