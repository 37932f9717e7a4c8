"""Opposed rolls: each defender success cancels one active success; a tie as the text has it.

Only the active side may push, and it may push after seeing the defender's
roll, so an opposed result is rebuilt around the active side's latest result.
A tie fails the active side ("Typically, your action will fail"); when a tie
needs to be broken, both sides roll the opposed roll again (``break_tie``). Under
the ``tie_break = "reroll"`` variant every tie needs breaking, so a tie decides
nothing until it is rolled again.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulebound.core.distribution import Distribution, sum_all
from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.core.trace import Provenance
from rulebound.rulesets import contract
from rulebound.rulesets.contract import Chances, Extra
from rulebound.rulesets.empty_reach.check import PreparedCheck
from rulebound.rulesets.empty_reach.odds import (
    Verdict,
    opposed_odds,
    success_distribution,
    tie_settled,
)
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, roll_check
from rulebound.rulesets.empty_reach.rules import rerolled_by_default, successes_on

__all__ = [
    "OpposedResult",
    "Verdict",
    "break_tie",
    "opposed_chances",
    "opposed_odds",
    "p_win_pushing_when_behind",
    "roll_opposed",
]


@dataclass(frozen=True, slots=True)
class OpposedResult:
    active: EmptyReachResult
    defender: EmptyReachResult
    parent: OpposedResult | None = None

    @property
    def check(self) -> PreparedCheck:
        return self.active.check

    @property
    def net(self) -> int:
        """Active successes left after the defender's cancel theirs."""
        return self.active.successes - self.defender.successes

    @property
    def verdict(self) -> Verdict:
        if self.net > 0:
            return "win"
        return "tie" if self.net == 0 else "loss"

    @property
    def tie_decides(self) -> bool:
        """Whether a tie stands as the active side's failure (the default) or awaits a re-roll."""
        return self.check.request.options.tie_break == "fail"

    @property
    def succeeded(self) -> bool | None:
        """True on a win; None for a tie that must still be broken (variant ``reroll``)."""
        if self.verdict == "tie" and not self.tie_decides:
            return None
        return self.verdict == "win"

    @property
    def headline(self) -> str:
        score = f"{self.active.successes} to {self.defender.successes}"
        pushed = self.active.push_number
        score += f", pushed {pushed}x" if pushed else ""
        if self.verdict == "win":
            return f"Active side wins, {score}: {self.net} success(es) to spare"
        if self.verdict == "loss":
            return f"Defender wins, {score}"
        if self.tie_decides:
            return f"Tie, {score}: the active side fails"
        return f"Tie, {score}: roll again to break it"

    @property
    def provenance(self) -> Provenance:
        return self.active.provenance

    def with_active(self, pushed: EmptyReachResult) -> OpposedResult:
        """The contest after the active side pushes (the defender's dice stand)."""
        return OpposedResult(pushed, self.defender, self)


def roll_opposed(
    active: PreparedCheck, defender: PreparedCheck, source: RandomSource
) -> OpposedResult:
    """The active side's dice, then the defender's, from one source."""
    return OpposedResult(roll_check(active, source), roll_check(defender, source))


def break_tie(contest: OpposedResult, source: RandomSource) -> OpposedResult:
    """A tie that must be broken is rolled again (Opposed Rolls): both sides roll anew.

    The re-roll is a new opposed roll of the same checks, so the active side may push it.
    """
    if contest.verdict != "tie":
        raise RuleViolation(
            "tie-break", f"only a tie is rolled again; this contest is a {contest.verdict}"
        )
    fresh = roll_opposed(contest.active.check, contest.defender.check, source)
    return OpposedResult(fresh.active, fresh.defender, contest)


def _pushed_once(check: PreparedCheck) -> Distribution[tuple[int, int]]:
    """(successes as rolled, successes after one push of the default dice), every die at once."""
    dice = [*check.pool.dice, *check.gear_dice]

    def one(sides: int) -> Distribution[tuple[int, int]]:
        def after(face: int) -> Distribution[tuple[int, int]]:
            first = successes_on(face)
            if not rerolled_by_default(face):
                return Distribution.single((first, first))
            return Distribution.die(sides).map(lambda new: (first, successes_on(new)))

        return Distribution.die(sides).flat_map(after)

    return sum_all(one(die.value) for die in dice)


def p_win_pushing_when_behind(active: PreparedCheck, defender: PreparedCheck) -> Fraction:
    """P(the active side wins) when it pushes once, rerolling the default dice, whenever the
    defender's roll leaves it without a win (ties fail)."""
    rolls = _pushed_once(active)
    against = success_distribution(defender)
    return rolls.combine(against, lambda r, d: r[0] > d or (r[0] <= d and r[1] > d)).probability(
        True
    )


def opposed_chances(active: PreparedCheck, defender: PreparedCheck) -> Chances:
    """The verdicts before any push; a tie is a failure, or under ``tie_break = "reroll"``
    rolled again until it breaks (win and loss in proportion, the first tie an extra)."""
    verdicts, first_tie = tie_settled(opposed_odds(active, defender), active)
    extras: list[Extra] = []
    if active.max_pushes:
        label = "win if pushed when not ahead"
        extras.append(Extra("p_win_if_pushed", label, p_win_pushing_when_behind(active, defender)))
    extras += first_tie
    outcomes = tuple(
        contract.Outcome(v, f"opposed: {v}", p, v == "win") for v, p in verdicts.items()
    )
    return Chances(outcomes, tuple(extras), success_label="win", outcome_name="opposed")
