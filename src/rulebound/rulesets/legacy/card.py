"""The card of a Legacy result (one check, an opposed or an extended check) and its follow-ups.

Every follow-up the rules know is listed with the exact odds that inform it; one that
cannot be taken now (no fate left, LCK under 10, a partial already decided) is listed as
unavailable with the reason, and left off the card.
"""

from __future__ import annotations

from fractions import Fraction

from rulebound.rulesets.contract import ActionView, Card, DieView, Field
from rulebound.rulesets.fields import number, switch
from rulebound.rulesets.legacy import advice, chain, odds
from rulebound.rulesets.legacy.actions import critical_hit
from rulebound.rulesets.legacy.chain import TURN, CheckState, ExtendedState, LegacyState
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, LegacyResult, luck_request, resolve
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.extended import MAX_ROLLS, ExtendedStatus
from rulebound.rulesets.legacy.fate import BURN_LCK_COST, burnt
from rulebound.rulesets.legacy.opposed import OpposedOutcome
from rulebound.rulesets.legacy.rules import SCALES, VARIANTS, Outcome, weighted_margin
from rulebound.rulesets.legacy.rules import classify_without_critical_failure as judged
from rulebound.rulesets.variants import changed

STAMINA = switch("use_stamina", "Pay 1d10 STM instead (Warlock Soul)")
PURPOSE = Field("purpose", "What for", "text", default="avoid death")
TURN_FIELDS = (
    number("rolls", "Turns to roll now", 1, MAX_ROLLS, default=1),
    switch("until_done", "Roll until it ends"),
)


def pct(p: Fraction) -> str:
    """An exact chance as 'n/d (xx.x%)'."""
    return f"{p.numerator}/{p.denominator} ({float(p):.1%})"


def variant_details(request: CheckRequest) -> list[str]:
    """The variants the table changed from their defaults (a scale in words)."""
    chosen = {"scale": request.scale, "affinity_bonus": request.affinity_bonus}
    words = {key: SCALES[c].summary if key == "scale" else c for key, c in chosen.items()}
    return [f"Variant {key}: {words[key]}" for key, _ in changed(VARIANTS, chosen)]


def card(state: LegacyState) -> Card:
    if isinstance(state, ExtendedState):
        return extended_card(state)
    if isinstance(state, CheckState):
        return _check_card(state)
    return _opposed_card(state)


# --- one check --------------------------------------------------------------------------


def _outcome(state: CheckState) -> str:
    r = state.result
    if not r.dice:
        return f"{r.headline}: {r.note}"
    text = f"{r.headline} ({_margin(r.margin, r.degrees)})"
    if r.outcome is Outcome.PARTIAL:
        text += ", accepted" if state.decided == "accepted" else ": accept or decline it"
    elif state.decided == "declined" and r.parent and r.note:
        text += f" ({r.note})"
    return text + _paid(state)


def _margin(margin: int, degrees: int) -> str:
    """The margin, and the degrees where the scale counts them apart (d100: one per 10)."""
    if degrees == margin:
        return f"margin {margin:+d}"
    return f"margin {margin:+d}, {degrees:+d} degree{'' if abs(degrees) == 1 else 's'}"


def _paid(state: CheckState) -> str:
    """What the last follow-up took from the roller's fate and LCK, on the card's face."""
    before, after = state.acted, state.roller
    if before is None or after is None:
        return ""
    spent = [
        f"{name} {was} -> {now}"
        for name, was, now in (("fate", before.fate, after.fate), ("LCK", before.lck, after.lck))
        if was != now
    ]
    return "; " + ", ".join(spent) if spent else ""


def _basis(request: CheckRequest) -> str:
    """Where a target came from: given as it is, or a characteristic's (or a bare) score."""
    if request.target is not None:
        return "as given"
    return f"({request.characteristic or 'score'} {request.score})"


def _steps(r: LegacyResult) -> list[str]:
    req, t = r.request, r.thresholds
    total = sum(m.value for m in r.modifiers)
    halved = f", halved to {t.target - total}" if t.target - total != req.score else ""
    shown = f"{req.characteristic or 'score'} {req.score}{halved}"
    steps = [f"Target {t.target}: {shown}, modifiers {total:+d}"]
    if req.target is not None:  # a raw target: no characteristic, no modifiers
        steps = [f"Target {t.target} as given; ability bonus {t.partial_bonus}"]
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


def _check_card(state: CheckState) -> Card:
    r, roller = state.result, state.roller
    details = list(state.lines)
    if roller is not None:
        details.append(f"{roller.name} now: fate {roller.fate}, LCK {roller.lck}")
    helped = [f"{a.helper} ({a.mode}, {a.relevant})" for a in state.roll.request.assists]
    details += [f"Assisted by {', '.join(helped)}; the helper does not roll"] if helped else []
    details += ["A critical hit: +1 critical damage on the target (tick it)"] * critical_hit(r)
    accepted = state.decided == "accepted"
    who = f"{roller.name}: " if roller is not None else ""
    return Card(
        title=f"{who}{r.request.label or r.request.characteristic or 'Check'}",
        outcome=_outcome(state),
        succeeded=(accepted or None) if r.outcome is Outcome.PARTIAL else r.outcome.passed,
        dice=tuple(DieView.of(d) for d in r.dice),
        modifiers=(
            *(m.describe() for m in r.modifiers),
            *(() if state.swapped else state.roll.edge_sources()),
        ),
        steps=tuple(_steps(r)),
        details=(*details, *variant_details(r.request)),
        actions=_check_actions(state),
        outcome_key=r.outcome.value,
    )


LABELS = {
    "accept-partial": "Accept the partial success",
    "decline-partial": "Decline it",
    "fate-reroll": "Spend a fate point to reroll",
    "luck-swap": "Spend a fate point: take a LCK test instead",
    "burn-fate": "Burn a fate point",
    "cancel-critical": "LCK save against the critical failure",
}


CANNOT_BURN = "a critical success: burning fate cannot change it"


def _check_actions(state: CheckState) -> tuple[ActionView, ...]:
    roller, why = state.roller, chain.offers(state)
    if state.result.outcome is Outcome.CRITICAL_SUCCESS and why.get("burn-fate") == "":
        why["burn-fate"] = CANNOT_BURN  # listed with why, as the spends are; not taken
    soul = catalogue().soul(roller.soul) if roller is not None else None
    lines = _lines(state, roller, why) if roller is not None else {}
    lines |= {"accept-partial": ["A success at a cost the GM names"]}
    lines |= {"decline-partial": ["The check counts as failed"]}
    stamina = soul is not None and soul.stamina_for_fate
    pay: tuple[tuple[Field, ...], str] = ((STAMINA,), "1 fate point (or 1d10 STM)")
    pay = pay if stamina else ((), "1 fate point")
    more = {"fate-reroll": pay, "luck-swap": ((), "") if chain.free_swap(state) else pay}
    more["burn-fate"] = ((PURPOSE,), f"1 fate point and {BURN_LCK_COST} LCK")
    views = []
    for key, label in ((k, v) for k, v in LABELS.items() if k in why):
        label = f"{soul.name} soul: LCK save" if soul and key == "cancel-critical" else label
        fields, spends = more.get(key, ((), ""))
        shown = () if why[key] else tuple(lines.get(key, ()))
        views.append(ActionView(key, label, fields, shown, spends, not why[key], why[key]))
    return tuple(views)


def _lines(state: CheckState, roller: Character, why: dict[str, str]) -> dict[str, list[str]]:
    """The advice for each fate follow-up the roller can take (computed only for those)."""
    r, c = state.result, catalogue()
    soul, out = c.soul(roller.soul), {}
    can = {key for key, reason in why.items() if not reason}
    pays = [f"{roller.name} has {roller.fate} fate"]
    pays += ["God-Fragment: a passed LCK check keeps the point"] if soul.spend_luck_check else []
    if "fate-reroll" in can:
        out["fate-reroll"] = [*_advice(advice.fate_reroll_advice(r), "A reroll"), *pays]
    if "luck-swap" in can:
        test = f"An unmodified LCK test ({roller.lck})"
        free = [f"{soul.name}: free for this check"] if chain.free_swap(state) else pays
        out["luck-swap"] = [*_advice(advice.luck_swap_advice(r, roller.lck), test), *free]
    if "burn-fate" in can:
        lck, fate = burnt(roller)
        out["burn-fate"] = [f"LCK {roller.lck} -> {lck}, fate {roller.fate} -> {fate}"]
        out["burn-fate"] += ["Soulless: a passed LCK check makes it a spend"] * soul.burn_luck_check
    if "cancel-critical" in can:
        p = odds.p_success(luck_request(roller.lck, r.request.scale))
        then = judged(r.face, r.thresholds).value
        out["cancel-critical"] = [f"The save passes {pct(p)}; the roll is then a {then}"]
    return out


def _advice(a: advice.FateAdvice, what: str) -> list[str]:
    return [
        f"{what} improves the outcome: {pct(a.p_better)}",
        f"Same outcome {pct(a.p_same)}, worse {pct(a.p_worse)}; it passes {pct(a.p_success)}",
        "The new result stands, better or worse",
    ]


# --- opposed and extended checks ----------------------------------------------------------


def _opposed_card(state: chain.OpposedState) -> Card:
    actor, opponent, outcome = state.duel.actor, state.duel.opponent, state.duel.outcome
    sides = ((state.roll.name or "actor", actor), ("opponent", opponent))
    steps = [
        f"{who}: d{r.thresholds.die} {r.face} vs {r.thresholds.target}, {r.outcome.value}, "
        f"weighted margin {weighted_margin(r.face, r.thresholds, r.outcome):+d}"
        for who, r in sides
    ]
    name = state.roll.name  # the rolling character, where the check came from a sheet
    headline = {
        "win": f"{name} wins" if name else "Actor wins",
        "loss": f"{name} loses" if name else "Opponent wins",
        "tie": "Tie: nothing changes",
    }
    return Card(
        title=f"Opposed check: {actor.request.label or 'actor'} vs {opponent.request.label}",
        outcome=headline[outcome.value],
        succeeded=None if outcome is OpposedOutcome.TIE else outcome is OpposedOutcome.WIN,
        dice=tuple(DieView.of(d, who) for who, r in sides for d in r.dice),
        modifiers=tuple(f"{who}: {m.describe()}" for who, r in sides for m in r.modifiers),
        steps=tuple(steps),
        details=(
            "A success beats a failure; criticals double the margin; a tie goes to the "
            "larger ability bonus, then nothing changes",
            *variant_details(actor.request),
        ),
        outcome_key=outcome.value,
    )


def extended_actions(state: ExtendedState) -> tuple[ActionView, ...]:
    """The next turn while it runs; at its end, a partial success to accept or decline."""
    check = state.check
    if check.status is ExtendedStatus.IN_PROGRESS:
        tally = check.success, check.failure, check.rolls_made
        ends = odds.extended_chances(check.request, check.spec, *tally, first=check.first)
        lines = ("From here:", *(f"{status.value}: {pct(p)}" for status, p in ends.items() if p))
        return (ActionView(TURN, "Roll the next turn", TURN_FIELDS, lines),)
    if check.status is not ExtendedStatus.PARTIAL or state.decided:
        return ()
    more = ("More success than failure after the allotted rolls",)
    return (
        ActionView("accept-partial", "Accept a partial success", (), more),
        ActionView("decline-partial", "Decline it", (), ("The extended check fails",)),
    )


def extended_card(state: ExtendedState) -> Card:
    check, steps, success, failure = state.check, [], 0, 0
    for n, (step, result) in enumerate(zip(check.log, state.results, strict=True), start=1):
        success, failure = success + step.success, failure + step.failure
        double = " (critical: doubled)" if result.outcome.critical else ""
        gained = f"+{step.success} success" if result.outcome.passed else f"+{step.failure} failure"
        steps.append(
            f"Roll {n}: d{result.thresholds.die} {step.face} vs {result.thresholds.target}, "
            f"{step.outcome}, margin {result.margin:+d}: {gained}{double} "
            f"(so far {success} / {failure})"
        )
    spec, status = check.spec, check.status
    tally = (
        f"success {check.success} / {spec.success_threshold}, failure {check.failure} / "
        f"{spec.failure_threshold}, {check.rolls_made} of {spec.max_rolls} rolls"
    )
    undecided = status in (ExtendedStatus.IN_PROGRESS, ExtendedStatus.PARTIAL)
    succeeded = None if undecided else status is ExtendedStatus.SUCCEEDED
    outcome = f"{status.value.capitalize()}: {tally}"
    if status is ExtendedStatus.PARTIAL and state.decided:
        succeeded = state.decided == "accept-partial"
        word = "Partial success accepted" if succeeded else "Failed (partial success declined)"
        outcome = f"{word}: {tally}"
    request, resolved = check.request, resolve(check.request)
    who = ", ".join(x for x in (state.name, request.label or request.characteristic) if x)
    return Card(
        title=f"Extended check: {who or 'a raw target'}",
        outcome=outcome,
        succeeded=succeeded,
        dice=tuple(DieView.of(d) for d in (state.results[-1].dice if state.results else ())),
        modifiers=tuple(m.describe() for m in resolved.modifiers),
        steps=tuple(steps),
        details=(
            f"Target {resolved.thresholds.target} {_basis(request)}; "
            "criticals count double; a single roll's partial success counts as its failure",
            *variant_details(request),
        ),
        actions=extended_actions(state),
        outcome_key="" if undecided else status.value,
    )
