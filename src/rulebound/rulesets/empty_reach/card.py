"""The card of an Empty Reach result: marked dice, modifiers and steps, costs, the push."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rulebound.rulesets.contract import ActionView, Card, DieView, Field
from rulebound.rulesets.empty_reach.advisor import push_options, recommend
from rulebound.rulesets.empty_reach.roll import EmptyReachResult

PUSH = "push"
REROLL = Field("reroll", "Dice to reroll", "dice", help="Click the dice to reroll; 1s are locked.")


def _pct(p: Fraction) -> str:
    return f"{float(p):.1%}"


def push_action(result: EmptyReachResult) -> ActionView | None:
    """The push with exact odds for every choice of dice; None when the rules allow no push
    (a passive roll, no push left) or every die shows a 1."""
    if result.pushes_left <= 0 or not result.rerollable():
        return None
    best = recommend(result)
    advice = []
    for option in push_options(result):
        if not option.selection:
            continue
        label = "reroll " + ", ".join(f"#{i}" for i in option.selection)
        advice.append(
            f"{label}: success {_pct(option.p_success)}, "
            f"E[successes] {float(option.expected_successes):.2f}, "
            f"bane {_pct(option.p_bane)}, E[cost] {float(option.expected_points):.2f}"
            + (f", gear loss {_pct(option.p_gear_loss)}" if result.check.gear_in_use else "")
            + (" (recommended)" if option == best else "")
        )
    dice = replace(REROLL, default=tuple(map(str, result.default_reroll())))
    gear = " and gear" if result.check.gear_in_use else ""
    risked = (result.check.cost or "damage or stress") + gear
    return ActionView(PUSH, "Push the roll", (dice,), tuple(advice), spends=risked)


def card_for(result: EmptyReachResult) -> Card:
    check = result.check
    title = (check.request.skill or "Roll") + (f" ({check.attribute})" if check.attribute else "")
    action = push_action(result)
    rerollable = result.rerollable() if action else ()
    dice = tuple(DieView.of(d, selectable=i in rerollable) for i, d in enumerate(result.dice))
    details = list(check.notes)
    if check.modifiers:
        pools = f"{check.start.describe()} -> {check.pool.describe()}"
        details.insert(0, f"Modifier total: {check.net:+d} ({pools})")
    if result.banes:
        details.append(f"{result.banes} bane(s) showing")
    if result.costs is not None:
        details.append("Push cost: " + result.costs.describe())
        details += [
            f"gear check d6: {d.face} ({', '.join(d.marks)})" for d in result.costs.gear_checks
        ]
    return Card(
        title=f"{title}: {check.pool.describe()}",
        outcome=result.headline,
        succeeded=result.succeeded,
        dice=dice,
        modifiers=tuple(m.describe() for m in check.modifiers),
        steps=tuple(s.description + ("" if s.applied else " (no effect)") for s in check.steps),
        details=tuple(details),
        actions=(action,) if action else (),
    )


def tool_card(result: EmptyReachResult, outcome: str, title: str = "", prefix: str = "") -> Card:
    """A sheet action's roll (repair, Second Wind): its dice, in the action's words."""
    card = card_for(result)
    dice = tuple(replace(die, selectable=False) for die in card.dice)
    title = title or prefix + card.title
    return replace(card, title=title, outcome=outcome, dice=dice, details=(), actions=())
