"""What a request rolls, what may follow it, and what it leaves on the sheet.

A check rolls its dice; an opposed check (``request.opposed``) rolls the defender's too,
and the active side may push after seeing them, or both sides roll again to break a tie.
A Second Wind roll offers the split of its successes when there is a choice to make; a
repair roll lands on the item it repairs. The game's front end (``game.py``) and the
sheets (``sheets.py``) only call these.

Follow-up records: ``{"kind": "push", "reroll": [die indices]}``, ``{"kind": "break-tie"}``
and ``{"kind": "split", "to_health": N}``.
"""

from __future__ import annotations

from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import UNSEEN, Params, Record
from rulebound.rulesets.empty_reach.character import Character, apply_push_costs
from rulebound.rulesets.empty_reach.check import PreparedCheck
from rulebound.rulesets.empty_reach.gear import settle_repair
from rulebound.rulesets.empty_reach.opposed import OpposedResult, break_tie, roll_opposed
from rulebound.rulesets.empty_reach.roll import (
    EmptyReachResult,
    check_may_push,
    push,
    roll_check,
    validate_selection,
)
from rulebound.rulesets.empty_reach.rules import PUSH
from rulebound.rulesets.empty_reach.specialties import (
    SecondWindSplit,
    needs_choice,
    restore,
    split,
)

__all__ = ["BREAK_TIE", "PUSH", "SPLIT", "Played", "follow", "follow_params", "offers", "roll"]

Played = EmptyReachResult | OpposedResult | SecondWindSplit
"""Any result a chain of Empty Reach records rebuilds."""

BREAK_TIE, SPLIT = "break-tie", "split"


def roll(check: PreparedCheck, source: RandomSource) -> Played:
    if check.defender is not None:
        return roll_opposed(check, check.defender, source)
    return roll_check(check, source)


def pushable(result: Played) -> EmptyReachResult | None:
    """The roll a push would reroll: the check itself, or an opposed roll's active side."""
    if isinstance(result, OpposedResult):
        return result.active
    return result if isinstance(result, EmptyReachResult) else None


def follow_params(result: Played, action: str, params: Params, reroll: Any) -> Record:
    """A follow-up's params, checked by the rules (``reroll``: the dice chosen, or None)."""
    rolled = pushable(result)
    if action == PUSH and rolled is not None:
        check_may_push(rolled)
        if params.get(UNSEEN):  # its roller cannot see the dice: the default, even none (E1)
            return {"reroll": list(rolled.default_reroll()), UNSEEN: True}
        return {"reroll": list(validate_selection(rolled, reroll))}
    if action == BREAK_TIE and isinstance(result, OpposedResult):
        if result.verdict != "tie":
            raise RuleViolation("tie-break", f"only a tie is rolled again, not a {result.verdict}")
        return {}
    if action == SPLIT and isinstance(result, EmptyReachResult) and offers_split(result):
        raw = params.get("to_health")
        to_health = None if raw in (None, "") else raw
        if to_health is not None and not isinstance(to_health, int):
            raise InvalidInput("to_health", to_health, "a whole number of successes")
        return {"to_health": split(result, to_health).to_health}
    offered = ", ".join(offers(result)) or "none"
    raise InvalidInput("action", action, f"a follow-up this result offers: {offered}")


def follow(result: Played, action: str, params: Params, source: RandomSource) -> Played:
    if action == PUSH:
        rolled = pushable(result)
        assert rolled is not None
        pushed = push(rolled, source, params["reroll"], none_left=bool(params.get(UNSEEN)))
        return result.with_active(pushed) if isinstance(result, OpposedResult) else pushed
    if action == BREAK_TIE and isinstance(result, OpposedResult):
        return break_tie(result, source)
    if action == SPLIT and isinstance(result, EmptyReachResult):
        return split(result, params["to_health"])
    raise InvalidInput("action", action, f"a follow-up this result offers: {offers(result)}")


def offers_split(result: Played) -> bool:
    """A Second Wind roll whose successes can be shared more than one way."""
    return (
        isinstance(result, EmptyReachResult)
        and result.check.request.second_wind is not None
        and needs_choice(result)
    )


def offers(result: Played) -> tuple[str, ...]:
    """The follow-ups the rules allow now (the card shows them with their odds)."""
    rolled = pushable(result)
    found = []
    if rolled is not None and rolled.pushes_left > 0 and rolled.rerollable():
        found.append(PUSH)
    if isinstance(result, OpposedResult) and result.verdict == "tie":
        found.append(BREAK_TIE)
    if offers_split(result):
        found.append(SPLIT)
    return tuple(found)


def settle(character: Character, result: Played) -> Character | None:
    """The sheet after ``result`` (a roll or a follow-up), or None when it is unchanged.

    A push costs damage or stress and gear points; a Second Wind roll gives its successes
    back (or, with a choice to make, marks Second Wind used until the split); a repair
    roll sets the item as its outcome says, recomputed after every push.
    """
    if isinstance(result, SecondWindSplit):
        return restore(character, result)
    if isinstance(result, OpposedResult):
        return apply_push_costs(character, result.active) if result.active.costs else None
    request = result.check.request
    after = apply_push_costs(character, result) if result.costs else character
    if request.second_wind is not None:
        if needs_choice(result):
            return after.model_copy(update={"second_wind_used": True})
        return restore(after, split(result))
    if request.repair is not None:
        return settle_repair(after, result)
    return after if result.costs else None
