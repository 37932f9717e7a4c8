"""What moving the bonus points did to the chance of success (``Game.decision``): the dice
are down, so success goes from 0 or 1 to 0 or 1; the points are the table's to move."""

from __future__ import annotations

from fractions import Fraction

from rulebound.rulesets.contract import Decision, Params
from rulebound.rulesets.rainwall.roll import RainwallResult


def decision(
    result: RainwallResult, action: str, params: Params, after: RainwallResult
) -> Decision | None:
    if action != "reallocate":
        return None
    before, now = Fraction(int(result.succeeded)), Fraction(int(after.succeeded))
    spent = sum(after.allocation)
    paid = (("bonus points", spent),) if spent else ()
    return Decision(before, now, after.succeeded, paid, rolls=False)
