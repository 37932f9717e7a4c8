"""The card of an Empty Reach result: marked dice, modifiers and steps, costs, the follow-ups
(a push with its odds, breaking an opposed tie, sharing Second Wind's successes)."""

from __future__ import annotations

from dataclasses import replace

from rulebound.core.trace import StepChange
from rulebound.rulesets.contract import ActionView, Card, DieView
from rulebound.rulesets.empty_reach.advisor import push_action
from rulebound.rulesets.empty_reach.flow import BREAK_TIE, PUSH, SPLIT, Played, offers
from rulebound.rulesets.empty_reach.gear import repair_outcome
from rulebound.rulesets.empty_reach.opposed import OpposedResult
from rulebound.rulesets.empty_reach.roll import EmptyReachResult
from rulebound.rulesets.empty_reach.specialties import (
    SecondWindSplit,
    default_split,
    split,
    split_range,
)
from rulebound.rulesets.fields import number


def _outcome(result: EmptyReachResult) -> str:
    request = result.check.request
    if request.repair is not None:
        return f"{result.headline}: {repair_outcome(result).describe()}"
    if request.second_wind is None:
        return result.headline + _paid(result)
    if SPLIT in offers(result):
        low, high = split_range(result)
        return f"{result.headline}: {low} to {high} of them to Health, the rest to Resolve"
    return f"{result.headline}: {split(result).describe()}"


def _paid(result: EmptyReachResult) -> str:
    """What pushing cost the character, on the card's face where anyone looks."""
    costs = result.costs
    if costs is None or not (costs.points or costs.gear_loss):
        return ""
    return f"; pushing cost {costs.toll()}"


def _split_action(result: EmptyReachResult) -> ActionView:
    low, high = split_range(result)
    help = "Each other success gives back a point of Resolve."
    field = number("to_health", "Successes to Health", low, high, default=default_split(result))
    return ActionView(SPLIT, "Share the successes", (replace(field, help=help),))


def _title(result: EmptyReachResult) -> str:
    check = result.check
    title = (check.request.skill or "Roll") + (f" ({check.attribute})" if check.attribute else "")
    title = f"{title}: {check.pool.describe()}"
    if check.request.repair is not None:
        return f"Repair {check.request.repair.name}: {title}"
    return f"Second Wind: {title}" if check.request.second_wind is not None else title


def _details(result: EmptyReachResult) -> list[str]:
    check = result.check
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
    return details


def _step_words(step: StepChange) -> str:
    """A step as the card says it: one the caps stopped says so once."""
    said = step.applied or step.description.startswith("no effect")
    return step.description if said else f"{step.description} (no effect)"


def _check_card(result: EmptyReachResult, actions: tuple[ActionView, ...]) -> Card:
    pushing = any(a.key == PUSH for a in actions)
    rerollable = result.rerollable() if pushing else ()
    check = result.check
    return Card(
        title=_title(result),
        outcome=_outcome(result),
        succeeded=result.succeeded,
        dice=tuple(DieView.of(d, selectable=i in rerollable) for i, d in enumerate(result.dice)),
        modifiers=tuple(m.describe() for m in check.modifiers),
        steps=tuple(map(_step_words, check.steps)),
        details=tuple(_details(result)),
        actions=actions,
        outcome_key=str(result.successes),
    )


def _opposed_actions(contest: OpposedResult, advised: bool) -> tuple[ActionView, ...]:
    offered = offers(contest)
    actions = []
    if PUSH in offered:
        beat = contest.defender.successes
        actions.append(push_action(contest.active, beat, "win", advised=advised))
    if BREAK_TIE in offered:
        when = "" if not contest.tie_decides else " (when the GM says this tie needs breaking)"
        actions.append(ActionView(BREAK_TIE, "Break the tie: both sides roll again" + when))
    return tuple(actions)


def _opposed_card(contest: OpposedResult) -> Card:
    card = _check_card(contest.active, _opposed_actions(contest, advised=True))
    defender = contest.defender
    them = tuple(  # only the active side pushes, so a defender's 1 is no bane
        replace(DieView.of(d, "defender", marks=tuple(m for m in d.marks if m != "bane")), role="")
        for d in defender.dice
    )
    against = f"defender {defender.check.pool.describe()}: {defender.headline}"
    return replace(
        card,
        title=f"{card.title} vs defender {defender.check.pool.describe()}",
        outcome=contest.headline,
        succeeded=contest.succeeded,
        dice=(*card.dice, *them),
        details=(*card.details, against),
        outcome_key=contest.verdict,
    )


def card_for(result: Played) -> Card:
    if isinstance(result, OpposedResult):
        return _opposed_card(result)
    if isinstance(result, SecondWindSplit):
        card = _check_card(result.parent, ())
        return replace(card, outcome=f"{result.parent.headline}: {result.describe()}")
    return _check_card(result, actions_of(result))


def actions_of(result: Played, *, advised: bool = True) -> tuple[ActionView, ...]:
    """What ``result`` offers; ``advised``: the push with its exact odds for every choice
    of dice, as the card shows it (checking a follow-up needs only what is offered)."""
    if isinstance(result, OpposedResult):
        return _opposed_actions(result, advised)
    if isinstance(result, SecondWindSplit):
        return ()
    offered = offers(result)
    actions = [push_action(result, advised=advised)] if PUSH in offered else []
    actions += [_split_action(result)] if SPLIT in offered else []
    return tuple(actions)
