"""Inline rolls in a chat message: ``Opening the door [[1d20+3]]``.

Each ``[[...]]`` span is an expression (annotations' single brackets may sit inside it); the
spans are rolled in order from one source, so the message's draws replay like a free roll's.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.dice.limits import DEFAULT_LIMITS, DiceLimits
from rulebound.core.dice.nodes import Expression
from rulebound.core.dice.parser import parse
from rulebound.core.dice.roller import roll
from rulebound.core.dice.story import Roll
from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.random_source import RandomSource


@dataclass(frozen=True, slots=True)
class InlineMessage:
    """A message cut into its words and its expressions, in order."""

    text: str
    pieces: tuple[str | Expression, ...]

    @property
    def expressions(self) -> tuple[Expression, ...]:
        return tuple(p for p in self.pieces if isinstance(p, Expression))


@dataclass(frozen=True, slots=True)
class InlineRoll:
    message: InlineMessage
    pieces: tuple[str | Roll, ...]

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return tuple(p for p in self.pieces if isinstance(p, Roll))

    def text(self) -> str:
        """The message with each roll written in: ``Opening the door [1d20+3 = 17]``."""
        return "".join(
            piece
            if isinstance(piece, str)
            else f"[{piece.expression.text()} = {', '.join(map(str, piece.totals))}]"
            for piece in self.pieces
        )


def spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each ``[[...]]`` span, brackets included; an unclosed one is none."""
    found: list[tuple[int, int]] = []
    at = 0
    while (start := text.find("[[", at)) >= 0:
        depth, i = 0, start + 2
        while i < len(text):
            if text[i] == "[":
                depth += 1
            elif text[i] == "]":
                if depth:
                    depth -= 1
                elif text.startswith("]]", i):
                    found.append((start, i + 2))
                    break
            i += 1
        else:
            break
        at = i + 2
    return found


def parse_inline(
    text: str, field: str = "text", limits: DiceLimits = DEFAULT_LIMITS
) -> InlineMessage | None:
    """The message with its inline expressions parsed, or None when it has none."""
    found = spans(text)
    if not found:
        return None
    if len(found) > limits.max_inline:
        raise LimitExceeded(
            field, f"{len(found)} inline rolls", limits.max_inline, "inline rolls in one message"
        )
    pieces: list[str | Expression] = []
    at = 0
    for start, end in found:
        if start > at:
            pieces.append(text[at:start])
        inner = text[start + 2 : end - 2]
        try:
            pieces.append(parse(inner, field, limits))
        except InvalidInput as exc:
            raise InvalidInput(
                field, exc.value, f"in [[{inner[:40]}]]: {exc.expected}", tip=exc.tip
            ) from None
        at = end
    if at < len(text):
        pieces.append(text[at:])
    return InlineMessage(text, tuple(pieces))


def roll_inline(
    message: InlineMessage, source: RandomSource, limits: DiceLimits = DEFAULT_LIMITS
) -> InlineRoll:
    """Every inline expression rolled in order, from ``source``."""
    return InlineRoll(
        message,
        tuple(p if isinstance(p, str) else roll(p, source, limits) for p in message.pieces),
    )
