"""What a fate spend, a partial success's decision or an extended check's next turn did to
the chance of success (``Game.decision``), as the fate advice showed it."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulebound.rulesets.contract import Decision, Params
from rulebound.rulesets.legacy import odds
from rulebound.rulesets.legacy.chain import (
    DECISIONS,
    TURN,
    CheckState,
    ExtendedState,
    LegacyState,
)
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, luck_request
from rulebound.rulesets.legacy.extended import ExtendedStatus
from rulebound.rulesets.legacy.odds import p_success

REROLLS = ("fate-reroll", "luck-swap")


def decision(
    state: LegacyState, action: str, params: Params, after: LegacyState
) -> Decision | None:
    if action in DECISIONS:
        accepted = action == "accept-partial"
        return Decision(Fraction(0), Fraction(int(accepted)), accepted, rolls=False)
    if isinstance(state, ExtendedState) and isinstance(after, ExtendedState) and action == TURN:
        chance = odds.check_ends(state.check).success
        return Decision(chance, chance, _ended(after))
    if not isinstance(state, CheckState) or not isinstance(after, CheckState):
        return None
    now = Fraction(int(state.result.outcome.passed))
    paid = _paid(after.acted, after.roller)
    if action == "fate-reroll":
        chance = _fresh(state.result.request)
    elif action == "luck-swap" and after.acted is not None:
        chance = _fresh(luck_request(after.acted.lck, state.result.request.scale))
    else:  # a burn, or a LCK save against a critical failure: success is not in question
        return Decision(now, now, after.result.outcome.passed, paid, rolls=False)
    return Decision(now, chance, after.result.outcome.passed, paid)


@lru_cache(maxsize=256)
def _fresh(request: CheckRequest) -> Fraction:
    """P(a fresh roll of ``request`` passes): what the fate advice shows for a reroll or a
    luck swap (``advice.fate_reroll_advice``), worked out once per check."""
    return p_success(request)


def _ended(state: ExtendedState) -> bool | None:
    status = state.check.status
    if status is ExtendedStatus.IN_PROGRESS or status is ExtendedStatus.PARTIAL:
        return None
    return status is ExtendedStatus.SUCCEEDED


def _paid(before: Character | None, after: Character | None) -> tuple[tuple[str, int], ...]:
    """Fate points, STM and LCK the spend took from the roller."""
    if before is None or after is None:
        return ()
    spent = [
        ("fate point", before.fate - after.fate),
        ("STM", before.scores.get("STM", 0) - after.scores.get("STM", 0)),
        ("LCK", before.lck - after.lck),
    ]
    return tuple((name, amount) for name, amount in spent if amount > 0)
