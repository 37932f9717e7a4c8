"""Free rolls as plays, for any table: ``/r 4d6kh3`` and inline ``[[1d20+3]]`` in chat.

A free roll's record is its canonical expression (or, for inline rolls, the message) and
its draws; its card and summary follow from the roll alone, so ``rulebound verify`` rebuilds
them from the record (``free_roll_parts``) and compares. The odds lines of a card's details
are the only part that is not rebuilt: they describe the expression, not the dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from rulebound.core.dice import (
    Expression,
    InlineMessage,
    InlineRoll,
    NotComputed,
    Odds,
    Roll,
    parse,
    parse_inline,
    roll,
    roll_inline,
    roll_lines,
)
from rulebound.core.dice.exact import kind_of
from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import Card, DieView, Play
from rulebound.rulesets.plays import make_record, recorded

KIND = "free-roll"
REBUILT = ("title", "outcome", "succeeded", "dice")
"""The card fields a replay of the record must give again (the details hold the odds)."""
WRITTEN_IN = 5
"""The card words (``Card.wording``) from which an inline message's title has its rolls
written in; before, it was the message as typed, which its record holds anyway."""


@dataclass(frozen=True, slots=True)
class Parts:
    """What a free roll's record determines: its card (without the odds) and summary."""

    card: Card
    summary: str


def die_views(rolled: Roll | InlineRoll) -> tuple[DieView, ...]:
    rolls = rolled.rolls if isinstance(rolled, InlineRoll) else (rolled,)
    return tuple(
        DieView(
            die.label,
            die.sides,
            die.value,
            die.marks,
            "rerolled" if len(die.faces) > 1 else "rolled",
            die.faces[:-1],
        )
        for one in rolls
        for die in one.dice
    )


def outcome(rolled: Roll) -> tuple[str, bool | None]:
    """The card's outcome in words, and whether it succeeded (for a comparison)."""
    totals = rolled.totals
    if len(totals) > 1:
        return "Totals " + ", ".join(map(str, totals)), None
    total = totals[0]
    kind = kind_of(rolled.expression)
    if kind == "comparison":
        return f"Total {total}: {'success' if total else 'failure'}", bool(total)
    if kind == "count":
        return f"Total {total}: {total} success{'' if total == 1 else 'es'}", None
    return f"Total {total}", None


def roll_parts(rolled: Roll, details: tuple[str, ...] = ()) -> Parts:
    text = rolled.expression.text()
    words, succeeded = outcome(rolled)
    card = Card(
        title=f"/r {text}",
        outcome=words,
        succeeded=succeeded,
        dice=die_views(rolled),
        details=(*details, *roll_lines(rolled)),
    )
    return Parts(card, f"rolled {text}: {', '.join(map(str, rolled.totals))}")


def odds_details(rolled: Roll, found: Odds | NotComputed) -> tuple[str, ...]:
    """The odds lines of a card: the expression's line, and the chance of doing as well."""
    lines = [found.line()]
    if isinstance(found, Odds) and found.kind != "comparison" and len(rolled.totals) == 1:
        high = found.at_least(rolled.total)
        lines.append(f"{rolled.total} or more: {float(high):.1%}")
    return tuple(lines)


def free_roll_play(expression: Expression, source: RandomSource, found: Odds | NotComputed) -> Play:
    """``expression`` rolled from ``source``: its record, and its card with ``found``'s odds."""
    rolled, draws = recorded(partial(roll, expression), source)
    record = make_record(KIND, {"expression": expression.text()}, draws)
    parts = roll_parts(rolled, odds_details(rolled, found))
    return Play(record, parts.card, None, parts.summary)


def inline_parts(rolled: InlineRoll) -> Parts:
    said = rolled.text()
    card = Card(
        title=said,  # the message with its rolls written in (as typed, before wording 5)
        outcome="; ".join(
            f"{one.expression.text()} = {', '.join(map(str, one.totals))}" for one in rolled.rolls
        ),
        succeeded=None,
        dice=die_views(rolled),
        details=tuple(line for one in rolled.rolls for line in roll_lines(one)),
    )
    return Parts(card, said)


def inline_play(message: InlineMessage, source: RandomSource, speaker: str) -> Play:
    """A chat message with inline rolls, rolled in order; its summary is the speaker's
    message with each roll written in."""
    rolled, draws = recorded(partial(roll_inline, message), source)
    record = make_record(KIND, {"message": message.text}, draws)
    parts = inline_parts(rolled)
    return Play(record, parts.card, None, f"{speaker}: {parts.summary}")


def replayed_parts(record: Mapping[str, Any], source: RandomSource) -> Parts:
    """The card (without odds) and summary a free roll's record gives when its draws are
    fed back: for an inline message, the summary without the speaker's name."""
    if "message" in record:
        message = parse_inline(str(record["message"]), "record.message")
        if message is None:
            raise InvalidInput("record.message", record["message"], "a message with [[rolls]]")
        return inline_parts(roll_inline(message, source))
    expression = parse(record.get("expression"), "record.expression")
    return roll_parts(roll(expression, source))
