"""Where a Legacy result chain stands, and what each follow-up does to it.

A roll gives a ``CheckState`` (one check, with the roller as the chain leaves them),
an ``OpposedState`` or an ``ExtendedState``. Follow-ups never mutate; each returns the
next state:

- ``accept-partial`` / ``decline-partial``: an undecided partial success (a single check,
  or an extended check that ran out of rolls with more success than failure);
- ``fate-reroll`` (``use_stamina`` for a Warlock Soul), ``luck-swap`` (an unmodified LCK
  test replaces the result), ``burn-fate`` (``purpose``; LCK -10, fate capped) and
  ``cancel-critical`` (a Halfling soul's LCK save), each paid from ``sheet``, the roller's;
- ``extended-roll``: the next ``rolls`` turns of an extended check (or ``until_done``).

Replaying a record runs the same functions on the same draws, so a curse, an unconscious
roller or a soul's price is judged exactly as it was at the table: under the rules the
chain's roll record names (``LegacyRoll.rules``, ``versions``), its follow-ups included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, trusted_builder
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Character, Event
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    LegacyResult,
    decline_partial,
    roll_check,
)
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.extended import ExtendedCheck, ExtendedStatus
from rulebound.rulesets.legacy.fate import burn, luck_swap, spend_reroll, use_favour
from rulebound.rulesets.legacy.opposed import OpposedResult, roll_opposed
from rulebound.rulesets.legacy.request import LegacyRoll
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.legacy.rules import BURN_LCK_COST, Outcome
from rulebound.rulesets.legacy.souls import cancel_critical_failure

DECISIONS: tuple[str, ...] = ("accept-partial", "decline-partial")
FATE_ACTIONS: tuple[str, ...] = ("fate-reroll", "luck-swap", "burn-fate", "cancel-critical")
TURN = "extended-roll"


def event_lines(events: Sequence[Event]) -> list[str]:
    return [f"{e.kind}: {e.detail}" for e in events]


@dataclass(frozen=True, slots=True)
class CheckState:
    """One check: the result showing and the roller as the chain left them.

    ``acted`` is the sheet the last step acted on (the roll's, or the one a fate
    follow-up paid from), None when it touched no sheet (a decision).
    """

    roll: LegacyRoll
    result: LegacyResult
    roller: Character | None
    acted: Character | None = None
    decided: str | None = None
    used: tuple[str, ...] = ()
    swapped: bool = False
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OpposedState:
    """Both sides rolled; the roller's sheet after it is ``roll.after()`` (no follow-up)."""

    roll: LegacyRoll
    duel: OpposedResult


@dataclass(frozen=True, slots=True)
class ExtendedState:
    """An extended check so far: its tallies, each roll made, and the decision at its end.

    ``spent`` is the roller's sheet after the roll that started it spent a curse or favour
    (``LegacyRoll.after``); a later turn, a follow-up, clears it, so that no play writes
    the sheet as it stood then back over what happened since.
    """

    check: ExtendedCheck
    name: str
    results: tuple[LegacyResult, ...] = ()
    decided: str | None = None
    spent: Character | None = None


LegacyState = CheckState | OpposedState | ExtendedState
_check_state = trusted_builder(CheckState)


def roll(request: LegacyRoll, source: RandomSource) -> LegacyState:
    """Roll the check. An opposed check's actor and an extended check's first turn are rolled
    as ``first_roll`` gives them (favour, a curse; an unconscious roller refused); the later
    turns roll the request itself."""
    if request.extended is not None:
        first = request.first_roll()
        ext = ExtendedCheck(request.extended, request.request, first=differs(first, request))
        state = turns(ExtendedState(ext, request.name), request.rolls, request.until_done, source)
        return replace(state, spent=request.after())
    if request.opposed is not None:
        return OpposedState(request, roll_opposed(request.first_roll(), request.opposed, source))
    if request.sheet is None:  # all but three fields their defaults: built at once
        result = roll_check(request.request, source)
        return _check_state(request, result, None, None, None, (), False, ())
    char, check, lines = request.sheet, request.request, []
    if request.favour:
        spent, check = use_favour(char, check)
        char, lines = spent.character, event_lines(spent.events)
    rolled = roll_as(char, check, source)
    lines += event_lines(rolled.events)
    return CheckState(
        request, rolled.results[0], rolled.character, request.sheet, lines=tuple(lines)
    )


def differs(first: CheckRequest, roll: LegacyRoll) -> CheckRequest | None:
    """The first roll's own check, when it is not the request itself (``ExtendedCheck.first``)."""
    return None if first == roll.request else first


def turns(
    state: ExtendedState, rolls: int, until_done: bool, source: RandomSource
) -> ExtendedState:
    """The next ``rolls`` turns (every one left with ``until_done``), stopping at the end;
    rolling a check that has already ended is refused. The result spends nothing on the
    sheet: only ``roll`` sets ``spent``."""
    check, results = state.check, list(state.results)
    for n in range(check.spec.max_rolls if until_done else rolls):
        if n and check.status is not ExtendedStatus.IN_PROGRESS:
            break
        check, result = check.roll(source)
        results.append(result)
    return replace(state, check=check, results=tuple(results), spent=None)


def follow(
    state: LegacyState, action: str, params: Mapping[str, Any], source: RandomSource
) -> LegacyState:
    if isinstance(state, ExtendedState):
        return extended_follow(state, action, params, source)
    if isinstance(state, OpposedState):
        raise RuleViolation("follow-up", "an opposed check has no follow-up")
    if action in DECISIONS:
        return _decide(state, action)
    if action not in FATE_ACTIONS:
        raise InvalidInput("action", action, "one of " + ", ".join((*DECISIONS, *FATE_ACTIONS)))
    result, roller = state.result, state.roller
    if state.decided == "accepted":
        raise RuleViolation("fate", "the partial success was accepted: the result stands")
    if roller is None:
        raise RuleViolation("fate", "fate is the roller's: roll from a character sheet")
    char = validated(params.get("sheet") or {})
    if char.name != roller.name:
        raise RuleViolation("fate", f"only {roller.name}, who rolled, can spend fate on it")
    if action in state.used and action == "cancel-critical":
        raise RuleViolation("Halfling soul", "one LCK save per critical failure")
    stamina, scale = bool(params.get("use_stamina")), result.request.scale
    rules = state.roll.rules  # a follow-up replays under its chain's (``versions``)
    if action == "fate-reroll":
        change, new = spend_reroll(char, result, source, use_stamina=stamina)
        line = f"Fate reroll: {result.outcome.value} -> {new.outcome.value}"
    elif action == "luck-swap":
        affinity = showing_affinity(state)
        change, new = luck_swap(
            char, source, affinity=affinity, use_stamina=stamina, scale=scale, rules=rules
        )
        new = replace(new, parent=result, note="luck swap")
        line = f"Replaced by an unmodified LCK test: {result.outcome.value} -> {new.outcome.value}"
    elif action == "burn-fate":
        purpose = str(params.get("purpose") or "avoid death")
        change, new = burn(char, source, purpose, scale=scale), result
        line = f"Fate burnt for {purpose}"
    else:
        change, new = cancel_critical_failure(char, result, source, rules=rules)
        line = "Halfling soul: LCK save after the critical failure"
    lines = (*state.lines, line, *event_lines(change.events))
    after = replace(state, roller=change.character, acted=char, lines=lines)
    if new is result:  # the same roll stands: a burn, or a LCK save that failed
        return replace(after, used=(*state.used, action))
    swapped = state.swapped or action == "luck-swap"
    return replace(after, result=new, decided=None, used=(), swapped=swapped)


def _decide(state: CheckState, action: str) -> CheckState:
    if state.result.outcome is not Outcome.PARTIAL or state.decided is not None:
        raise RuleViolation(
            "partial success", "only a partial success not yet decided can be accepted or declined"
        )
    if action == "accept-partial":
        line = "Partial success accepted: a success, at a cost the GM names"
        return replace(state, decided="accepted", acted=None, lines=(*state.lines, line))
    line = "Partial success declined: counted as a failure"
    return replace(
        state,
        result=decline_partial(state.result),
        decided="declined",
        acted=None,
        lines=(*state.lines, line),
    )


def extended_follow(
    state: ExtendedState, action: str, params: Mapping[str, Any], source: RandomSource
) -> ExtendedState:
    if action == TURN:
        return turns(state, int(params.get("rolls") or 1), bool(params.get("until_done")), source)
    if action not in DECISIONS:
        raise InvalidInput("action", action, "one of " + ", ".join((TURN, *DECISIONS)))
    if state.check.status is not ExtendedStatus.PARTIAL or state.decided:
        raise RuleViolation("extended check", "no partial success to accept or decline")
    return replace(state, decided=action, spent=None)


def settle(state: LegacyState) -> Character | None:
    """The roller after the last step, when that step acted on the roller's sheet (``acted``,
    the sheet the play was made from) and changed it: an opposed or extended check's roll
    spends favour and a curse (a later turn changes nothing)."""
    if isinstance(state, OpposedState):
        return state.roll.after()
    if isinstance(state, ExtendedState):
        return state.spent
    if state.acted is None or state.roller is None:
        return None
    return None if state.roller == state.acted else state.roller


def offers(state: CheckState) -> dict[str, str]:
    """The follow-ups one check offers now, each with why it cannot be taken ("" if it can).

    Nothing after an accepted partial or an automatic failure; the decisions while a partial
    success stands (or once it was declined); the fate spends when rolled from a sheet; the
    soul's LCK save after a critical failure.
    """
    r, roller, out = state.result, state.roller, {}
    if state.decided == "accepted" or not r.dice:
        return {}
    if r.outcome is Outcome.PARTIAL or state.decided == "declined":
        out = dict.fromkeys(DECISIONS, "the partial success was declined" if state.decided else "")
    if roller is None:
        return out
    soul = catalogue().soul(roller.soul)
    best = "a critical success: nothing to improve" if r.outcome is Outcome.CRITICAL_SUCCESS else ""
    broke = "" if roller.fate >= 1 or soul.stamina_for_fate else "no fate points left to spend"
    out["fate-reroll"] = best or broke
    out["luck-swap"] = best or ("" if free_swap(state) else broke)
    out["burn-fate"] = (
        "no fate points left to burn"
        if roller.fate < 1
        else f"LCK {roller.lck} is under {BURN_LCK_COST}: no fate to burn"
        if roller.lck < BURN_LCK_COST
        else ""
    )
    if r.outcome is Outcome.CRITICAL_FAILURE:
        out["cancel-critical"] = (
            f"only a soul that cancels critical failures ({soul.name} does not)"
            if "cancel-critical-failure" not in soul.powers
            else "one LCK save per critical failure"
            if "cancel-critical" in state.used
            else ""
        )
    return out


def showing_affinity(state: CheckState) -> str | None:
    """The affinity of the test showing: the roll's, until a luck swap replaced it with a
    LCK test, which has none."""
    return None if state.swapped else state.roll.affinity


def free_swap(state: CheckState) -> bool:
    """An Elf Soul's luck swap on an Arcane check costs no fate (once: the LCK test it gives
    is no Arcane check)."""
    affinity = showing_affinity(state)
    if state.roller is None or affinity is None:
        return False
    return affinity == catalogue().soul(state.roller.soul).free_luck_swap_affinity
