"""The card of a Rainwall result: dice and their bonus moves, IoS, degree, the reallocation."""

from __future__ import annotations

from collections.abc import Sequence

from rulebound.core import wording
from rulebound.core.trace import DieRecord
from rulebound.rulesets.contract import ActionView, Card, DieView, Field
from rulebound.rulesets.fields import number
from rulebound.rulesets.rainwall.bonus import alternatives
from rulebound.rulesets.rainwall.roll import RainwallResult
from rulebound.rulesets.rainwall.rules import VARIANTS
from rulebound.rulesets.variants import changed
from rulebound.rulesets.views import moved

ADVICE_LIMIT = 8


def _title(result: RainwallResult) -> str:
    request = result.request
    skill = request.skill_name or "Skill"
    trait = f"{request.trait_name} " if request.trait_name else ""
    return f"{skill}: {trait}{request.dice}d10 vs {request.skill}, DR {request.dr}"


def _number(index: int) -> str:
    """A pool die as the card's words name it: by its place (#1), never "d1", which reads as
    a die size. Words only: the dice keep their labels (a replayed card's dice must equal the
    logged ones), and so do the reallocation's field names, which records hold."""
    return f"#{index + 1}"


def _die_view(die: DieRecord, spent: int) -> DieView:
    marks = (*die.marks[:-1], moved(die.face - spent), die.marks[-1]) if spent else die.marks
    return DieView.of(die, marks=marks)


def _moves(allocation: Sequence[int], faces: Sequence[int]) -> list[tuple[str, int]]:
    """Each die the bonus lowers, as "#4: 6 -> 5", with the points spent on it."""
    return [
        (f"{_number(n)}: {face} -> {face - spent}", spent)
        for n, (face, spent) in enumerate(zip(faces, allocation, strict=True))
        if spent
    ]


def allocation_text(allocation: Sequence[int], faces: Sequence[int]) -> str:
    return ", ".join(move for move, _ in _moves(allocation, faces)) or "no points spent"


def _points(index: int, die: DieRecord, spent: int, bonus: int) -> Field:
    """What a die's face may be lowered by: at most the bonus, and never to 0."""
    label, most = f"Die {_number(index)} (rolled {die.face})", min(bonus, die.face - 1)
    return number(f"allocation.{die.label}", label, 0, most, default=spent, group="allocation")


def reallocate_action(result: RainwallResult) -> ActionView | None:
    bonus = result.request.bonus
    if bonus <= 0:
        return None
    dice = zip(result.dice, result.allocation, strict=True)
    fields = tuple(_points(n, die, spent, bonus) for n, (die, spent) in enumerate(dice))
    options = alternatives(result.request, result.faces)
    advice = [
        f"{wording.successes(alt.successes)}, IoS {alt.ios}, {alt.degree.label}, {alt.spent} of "
        f"{bonus} points: {allocation_text(alt.allocation, result.faces)}"
        + (" (current)" if alt.allocation == result.allocation else "")
        for alt in options[:ADVICE_LIMIT]
    ]
    if len(options) > ADVICE_LIMIT:
        advice.append(f"... and {len(options) - ADVICE_LIMIT} more")
    return ActionView("reallocate", f"Reallocate the +{bonus} bonus points", fields, tuple(advice))


def card_for(result: RainwallResult) -> Card:
    request = result.request
    spent = request.bonus - result.unspent
    details = [
        f"Successes: {result.raw_successes} rolled, {result.successes} after {spent} bonus "
        f"point(s) ({result.allocation_kind.value}"
        + (f", {result.unspent} unspent)" if result.unspent else ")"),
        f"IoS: {result.ios}",
    ]
    if request.dr > request.dice:
        details.append(f"DR {request.dr} is more than the {request.dice} dice: it cannot be met")
    if result.parent is not None:
        details.append(f"Reallocated by hand; before: {result.parent.headline}")
    details += [f"Variant {k}: {c}" for k, c in changed(VARIANTS, request.options.as_mapping())]
    action = reallocate_action(result)
    return Card(
        title=_title(result),
        outcome=result.headline,
        succeeded=result.succeeded,
        dice=tuple(map(_die_view, result.dice, result.allocation)),
        modifiers=tuple(m.describe() for m in result.modifiers),
        steps=tuple(
            f"{move} (bonus {spent})" for move, spent in _moves(result.allocation, result.faces)
        ),
        details=tuple(details),
        actions=(action,) if action else (),
        outcome_key=result.degree.value,
    )
