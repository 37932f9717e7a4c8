"""Plain text of any game's card and chances: what the CLI prints, and what the web shows.

The card is the one view of a result every front end shares, so the terminal shows
exactly what the table shows: the dice with their history, modifiers with their
sources, the steps, the outcome in the game's words, and the follow-ups on offer
with the exact odds that inform them.
"""

from __future__ import annotations

from fractions import Fraction

from rulebound.render.bars import bar_chart
from rulebound.rulesets.contract import ActionView, Card, Chances, DieView


def _die(index: int, die: DieView) -> str:
    marks = ", ".join(die.marks) if die.marks else "-"
    history = f" (was {', '.join(map(str, die.history))})" if die.history else ""
    state = "" if die.state in ("rolled", "kept") else f" [{die.state}]"
    role = f"{die.role:<9} " if die.role else ""
    return f"  [{index}] {role}{die.label:<4} {die.face:>3}  {marks}{history}{state}"


def _action(action: ActionView) -> list[str]:
    head = f"  {action.key}: {action.label}"
    if action.spends:
        head += f" (spends {action.spends})"
    if not action.available:
        head += f" (cannot change the result: {action.reason})" if action.reason else " (no use)"
    lines = [head]
    lines += [f"      {field.name}: {field.label}" for field in action.fields[:6]]
    if len(action.fields) > 6:
        lines.append(f"      ... and {len(action.fields) - 6} more fields")
    lines += [f"    {line}" for line in action.advice]
    return lines


def card_text(card: Card) -> str:
    lines = [card.title]
    if card.modifiers:
        lines.append("Modifiers:")
        lines += [f"  {m}" for m in card.modifiers]
    if card.steps:
        lines.append("Steps:")
        lines += [f"  {s}" for s in card.steps]
    if card.dice:
        lines.append("Dice:")
        lines += [_die(i, d) for i, d in enumerate(card.dice)]
    lines.append(f"Result: {card.outcome}")
    lines += [f"  {d}" for d in card.details]
    if card.actions:
        lines.append("Follow-ups (or keep the result):")
        for action in card.actions:
            lines += _action(action)
    return "\n".join(lines)


def _number(value: Fraction, kind: str) -> str:
    if kind == "probability":
        return f"{float(value):.2%}  ({value.numerator}/{value.denominator})"
    shown = f"{float(value):.4g}"
    exact = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else ""
    return f"{shown}  ({exact})" if exact else shown


def chances_text(title: str, chances: Chances) -> str:
    lines = [title, bar_chart([(chances.success_label, chances.success)]), ""]
    lines.append(f"{chances.outcome_name}:")
    lines.append(bar_chart([(o.label, o.probability) for o in chances.outcomes]))
    if chances.extras:
        lines.append("")
        width = max(len(e.label) for e in chances.extras)
        lines += [f"{e.label:<{width}}  {_number(e.value, e.kind)}" for e in chances.extras]
    for breakdown in chances.breakdowns:
        lines += ["", f"{breakdown.label}:", bar_chart(list(breakdown.values))]
    return "\n".join(lines)
