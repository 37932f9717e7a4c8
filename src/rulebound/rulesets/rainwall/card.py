"""The card of a Rainwall result: dice and their bonus moves, IoS, degree, the reallocation."""

from __future__ import annotations

from collections.abc import Sequence

from rulebound.rulesets.contract import ActionView, Card, DieView, Field
from rulebound.rulesets.rainwall.bonus import alternatives
from rulebound.rulesets.rainwall.roll import RainwallResult
from rulebound.rulesets.rainwall.rules import Options

ADVICE_LIMIT = 8


def _title(result: RainwallResult) -> str:
    request = result.request
    skill = request.skill_name or "Skill"
    trait = f"{request.trait_name} " if request.trait_name else ""
    return f"{skill}: {trait}{request.dice}d10 vs {request.skill}, DR {request.dr}"


def _die_view(result: RainwallResult, index: int) -> DieView:
    die = result.dice[index]
    spent = result.allocation[index]
    marks = (*die.marks[:-1], f"now {die.face - spent}", die.marks[-1]) if spent else die.marks
    return DieView(die.label, die.sides, die.face, marks, die.state.value, die.history, die.role)


def allocation_text(allocation: Sequence[int], faces: Sequence[int]) -> str:
    moves = [
        f"d{n}: {face} -> {face - spent}"
        for n, (face, spent) in enumerate(zip(faces, allocation, strict=True), start=1)
        if spent
    ]
    return ", ".join(moves) or "no points spent"


def reallocate_action(result: RainwallResult) -> ActionView | None:
    bonus = result.request.bonus
    if bonus <= 0:
        return None
    fields = tuple(
        Field(
            f"allocation.{die.label}",
            f"{die.label} (shows {die.face})",
            "int",
            default=result.allocation[i],
            minimum=0,
            maximum=min(bonus, die.face - 1),
            group="allocation",
        )
        for i, die in enumerate(result.dice)
    )
    options = alternatives(result.request, result.faces)
    advice = [
        f"{alt.successes} successes, IoS {alt.ios}, {alt.degree.label}, {alt.spent} of "
        f"{bonus} points: {allocation_text(alt.allocation, result.faces)}"
        + (" (current)" if alt.allocation == result.allocation else "")
        for alt in options[:ADVICE_LIMIT]
    ]
    if len(options) > ADVICE_LIMIT:
        advice.append(f"... and {len(options) - ADVICE_LIMIT} more")
    return ActionView(
        "reallocate",
        f"Reallocate the +{bonus} bonus points",
        fields,
        tuple(advice),
    )


def card_for(result: RainwallResult) -> Card:
    request = result.request
    spent = request.bonus - result.unspent
    details = [
        f"Successes: {result.raw_successes} rolled, {result.successes} after {spent} bonus "
        f"point(s) ({result.allocation_kind.value}"
        + (f", {result.unspent} unspent)" if result.unspent else ")"),
        f"IoS: {result.ios}",
    ]
    if result.parent is not None:
        details.append(f"Reallocated by hand; before: {result.parent.headline}")
    defaults = Options().as_mapping()
    details += [
        f"Variant {key}: {value}"
        for key, value in request.options.as_mapping().items()
        if defaults[key] != value
    ]
    action = reallocate_action(result)
    return Card(
        title=_title(result),
        outcome=result.headline,
        succeeded=result.succeeded,
        dice=tuple(_die_view(result, i) for i in range(len(result.dice))),
        modifiers=tuple(m.describe() for m in result.modifiers),
        steps=tuple(s.description for s in result.steps),
        details=tuple(details),
        actions=(action,) if action else (),
    )
