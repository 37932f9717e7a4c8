"""Assisted checks: a helper lends advantage or their proficiency; the helper never rolls.

Only a helper who holds the affinity or proficiency the check uses may assist, and the
helper makes no check of their own. ``assist`` therefore takes no random source: it returns
the assisted character's request with the help folded in, and that one roll
decides the outcome for both (rulings 39-41 in docs/rulings/legacy.md).
"""

from __future__ import annotations

from dataclasses import replace

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import ASSIST_MODES, Assist, AssistMode, CheckRequest
from rulebound.rulesets.legacy.content import Catalogue, catalogue

RULE = "assisted check"


def needed(
    request: CheckRequest, affinity: str | None, proficiency: str | None, cat: Catalogue
) -> tuple[str, str | None]:
    """(what a helper must hold, in words; its affinity key, None for a proficiency)."""
    if affinity is not None and proficiency is not None:
        raise InvalidInput(
            "assist", f"{affinity} and {proficiency}", "an affinity or a proficiency, not both"
        )
    if proficiency is not None:
        return f"{proficiency} proficiency", None
    if affinity is None and request.skill:
        raise InvalidInput("affinity", None, "the skill affinity this skill check uses")
    key = affinity or request.characteristic.lower()
    if not key:
        raise InvalidInput(
            "affinity", None, "the affinity the check uses (a raw target names no characteristic)"
        )
    return f"{cat.affinity(key).name} affinity", key


def lend(
    request: CheckRequest, helper: str, mode: str, relevant: str, rank: int | None
) -> CheckRequest:
    """The request with the help folded in: advantage, or the helper's proficiency and rank.

    A lent proficiency makes the check count as proficient (no untrained penalty, no
    harder class for a missing skill affinity) and adds the helper's rank bonus; a check
    carries one rank bonus, so the higher rank applies.
    """
    if any(a.helper == helper for a in request.assists):  # "either advantage ... or" (ruling 39)
        raise RuleViolation(RULE, f"{helper} already assists this check; a helper lends one thing")
    if mode == "advantage":
        lent = Assist(helper, "advantage", relevant)
        return replace(request, advantage=True, assists=(*request.assists, lent))
    if mode != "proficiency":
        raise InvalidInput("mode", mode, "one of " + ", ".join(ASSIST_MODES))
    if request.target is not None:
        raise InvalidInput(
            "request", f"target {request.target}", "a check built from a score to lend a rank to"
        )
    if rank is None:
        raise InvalidInput("assist.rank", None, "the helper's rank (1 to 6)")
    lent = Assist(helper, "proficiency", relevant, rank)
    return replace(
        request,
        rank=max(request.rank or 0, rank),
        has_skill_affinity=True,
        untrained_penalty=0,
        assists=(*request.assists, lent),
    )


def assist(
    helper: Character,
    request: CheckRequest,
    *,
    mode: AssistMode = "advantage",
    affinity: str | None = None,
    proficiency: str | None = None,
    cat: Catalogue | None = None,
) -> CheckRequest:
    """The request with ``helper``'s help: advantage, or their rank and proficiency (``lend``).

    ``affinity`` or ``proficiency`` names what the check uses; with neither, the
    affinity of the request's own characteristic. The helper must hold it and be
    able to act.
    """
    c = cat or catalogue()
    if mode not in ASSIST_MODES:
        raise InvalidInput("mode", mode, "one of " + ", ".join(ASSIST_MODES))
    if not helper.can_act:
        state = "dead" if helper.dead else "unconscious"
        raise RuleViolation(RULE, f"{helper.name} is {state} and can make no actions")
    relevant, key = needed(request, affinity, proficiency, c)
    holds = (
        helper.holds_proficiency(str(proficiency)) if key is None else helper.has_affinity(key, c)
    )
    if not holds:
        raise RuleViolation(
            RULE,
            f"{helper.name} does not hold the {relevant}; a helper must hold the affinity "
            "or proficiency the check uses",
        )
    return lend(request, helper.name, mode, relevant, helper.rank)
