"""Opposed rolls: each defender success cancels one active success; a tie fails the active side.

Only the active side may push, and it may push after seeing the defender's
roll, so an opposed result is rebuilt around the active side's latest result.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.empty_reach.check import PreparedCheck
from rulebound.rulesets.empty_reach.odds import Verdict, opposed_odds
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, roll_check

__all__ = ["OpposedResult", "Verdict", "break_tie", "opposed_odds", "roll_opposed"]


@dataclass(frozen=True, slots=True)
class OpposedResult:
    active: EmptyReachResult
    defender: EmptyReachResult
    parent: OpposedResult | None = None

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
    def succeeded(self) -> bool:
        return self.verdict == "win"

    @property
    def headline(self) -> str:
        if self.verdict == "win":
            return f"Active side wins with {self.net} success(es) to spare"
        if self.verdict == "tie":
            return "Tie: the active side fails"
        return "Defender wins"

    @property
    def provenance(self) -> Provenance:
        return self.active.provenance

    def with_active(self, pushed: EmptyReachResult) -> OpposedResult:
        """The contest after the active side pushes (the defender's dice stand)."""
        return OpposedResult(pushed, self.defender, self)


def roll_opposed(
    active: PreparedCheck, defender: PreparedCheck, source: RandomSource
) -> OpposedResult:
    return OpposedResult(roll_check(active, source), roll_check(defender, source))


def break_tie(contest: OpposedResult, source: RandomSource) -> OpposedResult:
    """The optional tie-break: both sides roll the opposed roll again."""
    if contest.active.check.request.options.tie_break != "reroll":
        raise RuleViolation("tie-break", "this table plays a tie as a failure (option tie_break)")
    if contest.verdict != "tie":
        raise RuleViolation(
            "tie-break", f"only a tie is rerolled; this contest is a {contest.verdict}"
        )
    return OpposedResult(
        roll_check(contest.active.check, source),
        roll_check(contest.defender.check, source),
        contest,
    )
