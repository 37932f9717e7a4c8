"""What a push or a tie-break did to the chance of success (``Game.decision``), as the push
advisor showed it: the chosen dice's exact odds against keeping the dice."""

from __future__ import annotations

from fractions import Fraction

from rulebound.rulesets.contract import Decision, Params
from rulebound.rulesets.empty_reach.advisor import evaluate
from rulebound.rulesets.empty_reach.flow import BREAK_TIE, PUSH, SPLIT, Played, pushable
from rulebound.rulesets.empty_reach.opposed import OpposedResult, opposed_chances
from rulebound.rulesets.empty_reach.roll import EmptyReachResult


def decision(result: Played, action: str, params: Params, after: Played) -> Decision | None:
    rolled, new = pushable(result), pushable(after)
    if action == PUSH and rolled is not None and new is not None:
        beat = result.defender.successes if isinstance(result, OpposedResult) else 0
        chosen = tuple(params.get("reroll") or ())
        before = evaluate(rolled, (), beat).p_success
        chance = evaluate(rolled, chosen, beat).p_success if chosen else before
        return Decision(before, chance, _succeeded(after), _paid(new), rolls=bool(chosen))
    if action == BREAK_TIE and isinstance(result, OpposedResult):
        fresh = opposed_chances(result.active.check, result.defender.check).success
        return Decision(Fraction(0), fresh, _succeeded(after))
    if action == SPLIT:  # sharing Second Wind's successes: success is not in question
        done = Fraction(int(bool(_succeeded(result))))
        return Decision(done, done, _succeeded(after), rolls=False)
    return None


def _succeeded(result: Played) -> bool | None:
    if isinstance(result, OpposedResult | EmptyReachResult):
        return result.succeeded
    return result.parent.succeeded  # a Second Wind split stands on its roll


def _paid(pushed: EmptyReachResult) -> tuple[tuple[str, int], ...]:
    costs = pushed.costs
    if costs is None:
        return ()
    paid = [(costs.kind or "damage or stress", costs.points)] if costs.points else []
    return (*paid, *([("gear bonus", costs.gear_loss)] if costs.gear_loss else []))
