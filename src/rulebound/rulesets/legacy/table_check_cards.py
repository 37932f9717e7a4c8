"""The result card of a Legacy check chain, with the follow-ups it offers and their odds."""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.rulesets.legacy.advice import FateAdvice, fate_reroll_advice, luck_swap_advice
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, LegacyResult, luck_request, resolve
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.fate import BURN_LCK_COST
from rulebound.rulesets.legacy.odds import p_success
from rulebound.rulesets.legacy.rules import (
    Outcome,
    characteristic_bonus,
    classify_without_critical_failure,
)
from rulebound.rulesets.legacy.table_common import die_view, pct, variant_details
from rulebound.rulesets.table import ActionView, Card, Field

DECISIONS: tuple[str, ...] = ("accept-partial", "decline-partial")
FATE_ACTIONS: tuple[str, ...] = ("fate-reroll", "luck-swap", "burn-fate", "cancel-critical")


@dataclass(frozen=True, slots=True)
class CheckState:
    """Where a result chain stands: the result showing and the roller as the chain left them."""

    result: LegacyResult
    roller: Character
    affinity: str | None
    edges: tuple[str, ...]
    decided: str | None = None
    used: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()


# --- the card ---------------------------------------------------------------------------


def _outcome(state: CheckState) -> str:
    r = state.result
    if not r.dice:
        return f"{r.headline}: {r.note}"
    text_ = f"{r.headline} (margin {r.margin:+d}, {r.degrees:+d} degrees)"
    if r.outcome is Outcome.PARTIAL:
        text_ += ", accepted" if state.decided == "accepted" else ": accept or decline it"
    elif state.decided == "declined" and r.parent is not None and r.note:
        text_ += f" ({r.note})"
    return text_


def edge_sources(
    roller: Character,
    request: CheckRequest,
    affinity: str | None,
    situations: set[str],
    favour: bool,
) -> tuple[str, ...]:
    """Where advantage and disadvantage came from (``Character.check``'s rules, named)."""
    c = catalogue()
    lines = [
        f"advantage: assisted by {a.helper} ({a.relevant})"
        for a in request.assists
        if a.mode == "advantage"
    ]
    if favour:
        lines.append("advantage: favour spent")
    diff = c.difficulty(resolve(request).difficulty)
    if diff.edge:
        lines.append(f"{diff.edge}: {diff.name} difficulty")
    if roller.cursed and roller.can_act:
        lines.append("disadvantage: cursed (spent by this roll)")
    if roller.wearing_armour:
        situations = situations | {"armoured"}
    owners = [(t.name, t.edges) for t in roller.traits(c)]
    owners.append((c.soul(roller.soul).name, c.soul(roller.soul).edges))
    for owner, rules in owners:
        for rule in rules:
            if rule.characteristics and request.characteristic not in rule.characteristics:
                continue
            if rule.affinity is not None and rule.affinity != affinity:
                continue
            if rule.situation is not None and rule.situation not in situations:
                continue
            lines.append(f"{rule.edge}: {owner}")
    for edge, held in (("advantage", request.advantage), ("disadvantage", request.disadvantage)):
        if held and not any(x.startswith(edge + ":") for x in lines):
            lines.append(f"{edge}: called at the table")
    kinds = {x.split(":")[0] for x in lines}
    if {"advantage", "disadvantage"} <= kinds:
        lines.append("advantage and disadvantage cancel: one die")
    return tuple(lines)


def _steps(r: LegacyResult) -> list[str]:
    req, t = r.request, r.thresholds
    total = sum(m.value for m in r.modifiers)
    halved = t.target - total != req.score
    base = f"{req.characteristic} {req.score}" + (
        f", halved to {t.target - total}" if halved else ""
    )
    steps = [f"Target {t.target}: {base}, modifiers {total:+d}"]
    if req.characteristic:
        steps.append(
            f"Critical success on {max(t.crit_target, 1)} or less (bonus {t.partial_bonus} for "
            f"the score); partial success up to {t.target + t.partial_bonus}; "
            f"{t.die} fails critically"
        )
    if r.dice:
        how = {"advantage": " (the lower of two)", "disadvantage": " (the higher of two)"}
        steps.append(f"d{t.die} kept {r.face}{how.get(r.edge.value, '')}: {r.outcome.value}")
    return steps


def _advice(a: FateAdvice, what: str) -> list[str]:
    return [
        f"{what} improves the outcome: {pct(a.p_better)}",
        f"Same outcome {pct(a.p_same)}, worse {pct(a.p_worse)}; it passes {pct(a.p_success)}",
        "The new result stands, better or worse",
    ]


def _actions(state: CheckState) -> tuple[ActionView, ...]:
    r, roller, c = state.result, state.roller, catalogue()
    acts: list[ActionView] = []
    if r.outcome is Outcome.PARTIAL and state.decided is None:
        acts += [
            ActionView(
                "accept-partial",
                "Accept the partial success",
                (),
                ("A success at a cost the GM names",),
            ),
            ActionView("decline-partial", "Decline it", (), ("The check counts as failed",)),
        ]
    if state.decided == "accepted" or not r.dice:
        return tuple(acts)
    soul = c.soul(roller.soul)
    can_pay = roller.fate >= 1 or soul.stamina_for_fate
    stamina = (Field("use_stamina", "Pay 1d10 STM instead (Warlock Soul)", "bool", default=False),)
    fields = stamina if soul.stamina_for_fate else ()
    pays = [f"{roller.name} has {roller.fate} fate"]
    if soul.spend_luck_check:
        pays.append("God-Fragment: a passed LCK check keeps the point")
    if can_pay and r.outcome is not Outcome.CRITICAL_SUCCESS:
        advice = _advice(fate_reroll_advice(r), "A reroll")
        acts.append(
            ActionView("fate-reroll", "Spend a fate point to reroll", fields, (*advice, *pays))
        )
    free = state.affinity is not None and state.affinity == soul.free_luck_swap_affinity
    if (can_pay or free) and r.outcome is not Outcome.CRITICAL_SUCCESS:
        advice = _advice(luck_swap_advice(r, roller.lck), f"An unmodified LCK test ({roller.lck})")
        extra = [f"{soul.name}: free for this check"] if free else pays
        acts.append(
            ActionView(
                "luck-swap",
                "Spend a fate point: take a LCK test instead",
                () if free else fields,
                (*advice, *extra),
            )
        )
    if roller.fate >= 1 and roller.lck >= BURN_LCK_COST:
        lck = roller.lck - BURN_LCK_COST
        cap = characteristic_bonus(lck) + c.origin(roller.origin).bonus_fate
        lines = [f"LCK {roller.lck} -> {lck}, fate {roller.fate} -> {min(roller.fate - 1, cap)}"]
        if soul.burn_luck_check:
            lines.append("Soulless: a passed LCK check makes it a spend")
        purpose = Field("purpose", "What for", "text", default="avoid death")
        acts.append(ActionView("burn-fate", "Burn a fate point", (purpose,), tuple(lines)))
    cancels = "cancel-critical-failure" in soul.powers
    if cancels and r.outcome is Outcome.CRITICAL_FAILURE and "cancel-critical" not in state.used:
        p = p_success(luck_request(roller.lck, r.request.scale))
        judged = classify_without_critical_failure(r.face, r.thresholds).value
        acts.append(
            ActionView(
                "cancel-critical",
                f"{soul.name} soul: LCK save",
                (),
                (f"The save passes {pct(p)}; the roll is then a {judged}",),
            )
        )
    return tuple(acts)


def _succeeded(state: CheckState) -> bool | None:
    """An undecided partial success is neither yet; an accepted one is a success."""
    if state.result.outcome is Outcome.PARTIAL:
        return True if state.decided == "accepted" else None
    return state.result.outcome.passed


def card_for(state: CheckState) -> Card:
    r, roller = state.result, state.roller
    req = r.request
    details = list(state.lines)
    details.append(f"{roller.name} now: fate {roller.fate}, LCK {roller.lck}")
    details += variant_details(req.scale, req.affinity_bonus)
    return Card(
        title=f"{roller.name}: {req.label or req.characteristic}",
        outcome=_outcome(state),
        succeeded=_succeeded(state),
        dice=tuple(die_view(d) for d in r.dice),
        modifiers=(*(m.describe() for m in r.modifiers), *state.edges),
        steps=tuple(_steps(r)),
        details=tuple(details),
        actions=_actions(state),
    )
