"""Assisted checks: a helper lends advantage or their proficiency; the helper never rolls.

"A character with the relevant affinity or proficiency can elect to assist another
character in their check." ``assist`` therefore takes no random source: it returns
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


def _relevant(
    helper: Character,
    request: CheckRequest,
    affinity: str | None,
    proficiency: str | None,
    cat: Catalogue,
) -> tuple[str, bool]:
    """(what the check needs, whether the helper holds it)."""
    if affinity is not None and proficiency is not None:
        raise InvalidInput(
            "assist", f"{affinity} and {proficiency}", "an affinity or a proficiency, not both"
        )
    if proficiency is not None:
        return f"{proficiency} proficiency", proficiency in helper.proficiencies
    if affinity is None and request.skill:
        raise InvalidInput("affinity", None, "the skill affinity this skill check uses")
    key = affinity or request.characteristic.lower()
    if not key:
        raise InvalidInput(
            "affinity", None, "the affinity the check uses (a raw target names no characteristic)"
        )
    found = cat.affinity(key)
    return f"{found.name} affinity", helper.has_affinity(key, cat)


def assist(
    helper: Character,
    request: CheckRequest,
    *,
    mode: AssistMode = "advantage",
    affinity: str | None = None,
    proficiency: str | None = None,
    cat: Catalogue | None = None,
) -> CheckRequest:
    """The request with ``helper``'s help: advantage, or their rank and proficiency.

    ``affinity`` or ``proficiency`` names what the check uses; with neither, the
    affinity of the request's own characteristic. The helper must hold it and be
    able to act. A lent proficiency makes the check count as proficient (no
    untrained penalty, no harder class for a missing skill affinity) and adds the
    helper's rank bonus; a check carries one rank bonus, so the higher rank applies.
    """
    c = cat or catalogue()
    if mode not in ASSIST_MODES:
        raise InvalidInput("mode", mode, "one of " + ", ".join(ASSIST_MODES))
    if not helper.can_act:
        state = "dead" if helper.dead else "unconscious"
        raise RuleViolation(RULE, f"{helper.name} is {state} and can make no actions")
    relevant, holds = _relevant(helper, request, affinity, proficiency, c)
    if not holds:
        raise RuleViolation(
            RULE,
            f"{helper.name} does not hold the {relevant}; only a character with the "
            "relevant affinity or proficiency can assist",
        )
    if mode == "advantage":
        lent = Assist(helper.name, "advantage", relevant)
        return replace(request, advantage=True, assists=(*request.assists, lent))
    if request.target is not None:
        raise InvalidInput(
            "request", f"target {request.target}", "a check built from a score to lend a rank to"
        )
    lent = Assist(helper.name, "proficiency", relevant, helper.rank)
    return replace(
        request,
        rank=max(request.rank or 0, helper.rank),
        has_skill_affinity=True,
        untrained_penalty=0,
        assists=(*request.assists, lent),
    )
