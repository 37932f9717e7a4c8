"""A roll in plain text: each die as it went, each part with its operators, the total.

``4d6kh3 (6, 4, 4, ~3) = 14``: a dropped die is marked ``~``, a reroll shows every face in
turn (``1→5``), a die moved by mi or ma shows where it went (``1→2``), an explosion ``!``,
a counted success ``*``. Markup-free, so the web table, Discord and the terminal all print
it as it is.
"""

from __future__ import annotations

from rulebound.core.dice.nodes import (
    Annotated,
    Binary,
    Count,
    Dice,
    Literal,
    NumberSet,
    Paren,
    Pool,
    Unary,
    flatten,
    number_text,
    op_text,
    text_of,
)
from rulebound.core.dice.story import DieRoll, Part, Roll


def die_text(die: DieRoll) -> str:
    steps = [str(face) for face in die.faces]
    if die.value != die.faces[-1]:
        steps.append(str(die.value))
    shown = "→".join(steps)
    if die.exploded:
        shown += "!"
    if die.success:
        shown += "*"
    return shown if die.kept else f"~{shown}"


def part_text(part: Part) -> str:
    node = part.node
    if isinstance(node, Literal):
        return number_text(node.value)
    if part.dice or isinstance(node, Count) or _is_dice(part):
        return f"{text_of(node)} ({', '.join(die_text(d) for d in part.dice)})"
    if isinstance(node, Pool | NumberSet):
        shown = ", ".join(part_text(p) if p.kept else f"~{part_text(p)}" for p in part.parts)
        if isinstance(node, NumberSet) and len(part.parts) == 1:
            shown += ","
        ops = "".join(op_text(op) for op in node.ops) if isinstance(node, Pool) else ""
        return f"({shown}){ops}"
    if isinstance(node, Paren):
        return f"({part_text(part.parts[0])})"
    if isinstance(node, Annotated):
        labels = " ".join(f"[{label}]" for label in node.labels)
        return f"{part_text(part.parts[0])} {labels}"
    if isinstance(node, Unary):
        return node.op + part_text(part.parts[0])
    assert isinstance(node, Binary)
    return f"{part_text(part.parts[0])} {node.op} {part_text(part.parts[1])}"


def _is_dice(part: Part) -> bool:
    return isinstance(part.node, Dice | Pool) and isinstance(flatten(part.node).base, Dice)


def roll_lines(roll: Roll) -> tuple[str, ...]:
    """One line per repeat: the breakdown and its total."""
    return tuple(
        f"{part_text(part)} = {total}" for part, total in zip(roll.rolls, roll.totals, strict=True)
    )
