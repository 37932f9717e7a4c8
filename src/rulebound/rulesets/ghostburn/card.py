"""The card of a Ghostburn result: dice, every candidate bonus, the DL, the band, the luck offer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.contract import ActionView, Card, DieView
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.odds import luck_advice
from rulebound.rulesets.ghostburn.roll import GhostburnResult
from rulebound.rulesets.ghostburn.rules import BonusKind

SPEND = "spend-luck"
REGAIN = "regain-luck"
ONE = "1 Luck Point"
NO_POOL = "no Luck Points to spend: roll with a character, or give --luck-bonus and --luck-points"


def _title(result: GhostburnResult, content: GhostburnContent) -> str:
    request, trick = result.request, result.request.trick
    spec = content.skills.get(request.skill or "")
    name = spec.name if spec else "Check"
    if trick is not None:
        name += ", improvised trick" if trick.key is None else f", {trick.kind} trick {trick.name}"
    return f"{name} vs {request.difficulty.label}"


def _modifiers(result: GhostburnResult) -> tuple[str, ...]:
    """Every candidate bonus, applied or not (and why not), then the Luck Bonus once spent."""
    lines = [
        f"{b.source} ({b.kind.value}): {b.value:+d}"
        + ("" if b.applied else " (not applied)")
        + (f" ({b.note})" if b.note else "")
        for b in result.bonuses
    ]
    luck = [f"{m.source} (luck): {m.value:+d}" for m in (result.luck,) if m is not None]
    return (*lines, *luck)


def luck_action(result: GhostburnResult) -> ActionView:
    """The spend, with what the roller's Luck Bonus would do; open while a point was left."""
    pool = result.request.pool
    if pool is None or pool.points < 1:
        why = "no Luck Points left to spend" if pool else NO_POOL
        return ActionView(SPEND, "Spend a Luck Point", spends=ONE, available=False, reason=why)
    advice = luck_advice(result, pool.bonus)
    chart = result.request.chart
    verb = "lift it to" if advice.changes_outcome else "leave it at"
    lines = (
        f"+{pool.bonus} would {verb} {chart.band(advice.band_with_luck).label} "
        f"(result {advice.total_with_luck})",
        f"{pool.points} Luck Point(s) when rolled",
    )
    why = "" if advice.changes_outcome else f"+{pool.bonus} cannot change the outcome"
    label = f"Spend a Luck Point (+{pool.bonus})"
    return ActionView(SPEND, label, (), lines, ONE, reason=why)  # allowed, shown as futile


def follow_ups(result: GhostburnResult) -> tuple[ActionView, ...]:
    """One Luck Bonus per roll: the spend is offered until it is made."""
    return (luck_action(result),) if result.luck is None else ()


def _outcome(result: GhostburnResult) -> str:
    """The band with the total it was read from, and a Luck Point's cost, on the card's face."""
    band, dl = result.band, result.request.difficulty
    text = f"{band.label} ({result.total} vs {dl.value}): {band.outcome}"
    return text + (f" A Luck Point was spent (+{result.luck.value})." if result.luck else "")


def card_for(result: GhostburnResult, content: GhostburnContent) -> Card:
    request = result.request
    dice = " + ".join(str(d.face) for d in result.dice)
    steps = [f"2d10: {dice} = {result.dice_sum}"]
    bonus = sum(m.value for m in result.modifiers if m.kind != BonusKind.LUCK.value)
    steps.append(f"bonuses {bonus:+d}: result {result.dice_sum + bonus}")
    if result.luck is not None:
        steps.append(f"Luck Point {result.luck.value:+d}: result {result.total}")
    steps.append(f"{result.total} vs {request.difficulty.label}: {result.band.label}")
    dl = request.difficulty
    named = f"DL {dl.label}" if dl.level else dl.label  # an off-ladder label says "DL" itself
    details = [f"{named}, {dl.source}"]
    if dl.shift:
        details[0] += f", shifted {dl.shift:+d} level(s) by the GM from {dl.base}"
    if request.substitution is not None:
        primary = content.abilities[request.substitution.primary].name
        used = content.abilities[request.substitution.used].name
        details.append(f"The GM called for {used} instead of {primary}")
    trick = content.tricks.get(request.trick.key or "") if request.trick else None
    if trick is not None and trick.summary:
        details.append(trick.summary)
    if result.parent is not None:
        details.append(f"Before the Luck Point: {result.parent.headline}")
    aside = [item.partition(":") for item in request.set_aside]
    if aside:
        details.append("Not in use: " + ", ".join(f"{name} ({kind})" for kind, _, name in aside))
    return Card(
        title=_title(result, content),
        outcome=_outcome(result),
        succeeded=result.succeeded,
        dice=tuple(map(DieView.of, result.dice)),
        modifiers=_modifiers(result),
        steps=tuple(steps),
        details=tuple(details),
        actions=follow_ups(result),
        outcome_key=result.band.key,
    )


def regain_card(record: Mapping[str, Any]) -> Card:
    try:
        name, points, before = str(record["name"]), int(record["points"]), int(record["before"])
    except (KeyError, TypeError, ValueError):
        raise InvalidInput("record", record, "a regain-luck record: name, points, before") from None
    text = f"{name} regains {points} Luck Point(s): {before} -> {before + points}"
    return Card("Luck Points regained", text, None)
