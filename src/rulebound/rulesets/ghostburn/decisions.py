"""What a Luck Point did to the chance of success (``Game.decision``): the dice are down, so
the chance goes from 0 or 1 to 0 or 1, and the point is the price."""

from __future__ import annotations

from fractions import Fraction

from rulebound.rulesets.contract import Decision, Params
from rulebound.rulesets.ghostburn.card import SPEND
from rulebound.rulesets.ghostburn.roll import GhostburnResult


def decision(
    result: GhostburnResult, action: str, params: Params, after: GhostburnResult
) -> Decision | None:
    if action != SPEND:
        return None
    before, now = Fraction(int(result.succeeded)), Fraction(int(after.succeeded))
    return Decision(before, now, after.succeeded, (("Luck Point", 1),), rolls=False)
