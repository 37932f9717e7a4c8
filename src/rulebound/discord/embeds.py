"""A logged entry as a Discord message: an embed (dice, the outcome in the game's words,
the exact chance) and its follow-ups as buttons, with select menus for dice to choose.

A button's ``custom_id`` names what it does, ``rb:OP:ENTRY:ACTION[:DICE]``: ``f`` press
a follow-up, ``a`` take it with the dice the rules choose, ``c`` confirm one, ``d`` the dice
chosen for one, ``k`` keep, ``x`` cancel (``followups``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulebound.rulesets.contract import Chances

EPHEMERAL = 64
SUCCESS, FAILURE, NEUTRAL = 0x2E7D32, 0xC62828, 0x546E7A
PRIMARY, SECONDARY, SUCCESS_STYLE, DANGER = 1, 2, 3, 4
ROW, BUTTON, STRING_SELECT = 1, 2, 3
MAX_FIELD = 1024
MAX_TITLE = 45
"""Discord's cap on a modal's title (and on a text input's label)."""


@dataclass(frozen=True, slots=True)
class Decided:
    """What a follow-up did to its roll's chance of success (``Game.decision``)."""

    label: str
    """The follow-up, in the words of its button ("Push the roll")."""
    success: str
    """What success is called ("success")."""
    before: Fraction
    """P(success) of keeping the result as it stood."""
    after: Fraction
    """P(success) once the follow-up was chosen, before its own dice."""

    def lines(self) -> list[str]:
        return [
            f"P({self.success}) after {self.label.lower()}: {percent(self.after)}",
            f"Keeping the result instead: {percent(self.before)}",
        ]


def percent(value: Fraction) -> str:
    """A chance exactly, "impossible" and "certain" for 0 and 1 (as the web table says)."""
    if value <= 0:
        return "impossible"
    if value >= 1:
        return "certain"
    return f"{value.numerator}/{value.denominator} ({float(value):.2%})"


def die_text(die: Mapping[str, Any]) -> str:
    """A die, its face, and each of its marks once (a kept die is not "kept, kept")."""
    marks = [str(m) for m in die.get("marks") or ()]
    state = str(die.get("state") or "rolled")
    words = f"{die.get('label', 'd')}: **{die.get('face')}**"
    extra = list(dict.fromkeys([*marks, *([state] if state != "rolled" else [])]))
    return words + (f" ({', '.join(extra)})" if extra else "")


def marked(chances: Chances, card: Mapping[str, Any]) -> str | None:
    """The key of the outcome a card landed on (its ``outcome_key``), if the odds name it."""
    key = card.get("outcome_key")
    return key if key and any(o.key == key for o in chances.outcomes) else None


def chance_lines(chances: Chances, card: Mapping[str, Any] | None = None) -> list[str]:
    """P(success) and each outcome's chance, the one ``card`` landed on marked."""
    landed = None if card is None else marked(chances, card)
    lines = [f"P({chances.success_label}) = {percent(chances.success)}"]
    for o in chances.outcomes:
        mark = " ← this roll" if o.key == landed else ""
        lines.append(f"{o.label}: {percent(o.probability)}{mark}")
    return lines


def _clip(text: str, size: int = MAX_FIELD) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def described(outcome: str, summary: str) -> str:
    """The outcome (in bold) and the summary, the outcome said once: the summary of a roll
    ("Ana: Success") usually says it already."""
    if not outcome:
        return summary
    if outcome in summary:
        return summary.replace(outcome, f"**{outcome}**", 1)
    return f"**{outcome}**\n{summary}"


def card_embed(
    card: Mapping[str, Any],
    summary: str,
    chances: Chances | None = None,
    after: Chances | None = None,
    decided: Decided | None = None,
) -> dict[str, Any]:
    """The embed of a result card (``to_jsonable(Card)``), with the odds the roll had (and,
    ``after``, the odds from where the result stands; ``decided``, the odds the follow-up
    that made it gave)."""
    outcome = str(card.get("outcome") or "")
    succeeded = card.get("succeeded")
    color = NEUTRAL if succeeded is None else SUCCESS if succeeded else FAILURE
    fields = []
    dice = [die_text(d) for d in card.get("dice") or ()]
    if dice:
        fields.append({"name": "Dice", "value": _clip("\n".join(dice)), "inline": False})
    modifiers = [str(m) for m in card.get("modifiers") or ()]
    if modifiers:
        fields.append({"name": "Modifiers", "value": _clip("\n".join(modifiers))})
    if chances is not None:
        lines = chance_lines(chances, card)
        fields.append({"name": "Exact chance", "value": _clip("\n".join(lines))})
    if after is not None:
        lines = chance_lines(after)
        fields.append({"name": "Exact chance from here", "value": _clip("\n".join(lines))})
    if decided is not None:
        words = "\n".join(decided.lines())
        fields.append({"name": "Exact chance after the follow-up", "value": _clip(words)})
    details = [str(d) for d in card.get("details") or ()]
    if details:
        fields.append({"name": "Details", "value": _clip("\n".join(details))})
    return {
        "title": _clip(str(card.get("title") or "Roll"), 256),
        "description": _clip(described(outcome, summary), 4096),
        "color": color,
        "fields": fields[:25],
        "footer": {"text": "rulebound: committed dice, verifiable in the table's log"},
    }


def odds_embed(title: str, chances: Chances) -> dict[str, Any]:
    lines = chance_lines(chances)
    for extra in chances.extras:
        value = percent(extra.value) if extra.kind == "probability" else f"{float(extra.value):.3f}"
        lines.append(f"{extra.label}: {value}")
    return {
        "title": _clip(f"Odds: {title}", 256),
        "description": _clip("\n".join(lines), 4096),
        "color": NEUTRAL,
    }


def default_dice(field: Mapping[str, Any]) -> str:
    """The dice the rules choose for a dice field (its default), as a custom id holds them."""
    default = field.get("default")
    given = default if isinstance(default, list | tuple) else ()
    return ".".join(str(int(i)) for i in given if str(i).isdecimal())


def dice_words(chosen: str) -> str:
    """Dice as the select menu numbers them, from a custom id's "0.2": "dice #1, #3"."""
    numbers = [f"#{int(i) + 1}" for i in chosen.split(".") if i.isdecimal()]
    return ("die " if len(numbers) == 1 else "dice ") + ", ".join(numbers)


def buttons(
    entry_id: int,
    actions: Sequence[Mapping[str, Any]],
    dice: Sequence[Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """A follow-up button per offered action, then keep (rows of five). A follow-up that
    chooses dice has two, when the rules have a choice of their own (the dice a push
    rerolls by default): one takes it in a press, the other opens the menu of ``dice``."""
    shown = []
    for action in actions:
        label = str(action.get("label") or action.get("key"))
        spends = str(action.get("spends") or "")
        cost = f" · costs {spends}" if spends else ""
        available = bool(action.get("available", True))
        chooses = [f for f in action.get("fields") or () if f.get("kind") == "dice"]
        default = default_dice(chooses[0]) if chooses and dice else ""
        if default:
            shown.append(
                {
                    "type": BUTTON,
                    "style": PRIMARY,
                    "label": _clip(f"{label}: {dice_words(default)}{cost}", 80),
                    "custom_id": f"rb:a:{entry_id}:{action.get('key')}"[:100],
                    "disabled": not available,
                }
            )
        words = f"{label}: choose the dice" if default else label
        shown.append(
            {
                "type": BUTTON,
                "style": SECONDARY if default else PRIMARY,
                "label": _clip(words + cost, 80),
                "custom_id": f"rb:f:{entry_id}:{action.get('key')}"[:100],
                "disabled": not available,
            }
        )
    if not shown:
        return []
    shown.append(
        {"type": BUTTON, "style": SECONDARY, "label": "Keep", "custom_id": f"rb:k:{entry_id}:"}
    )
    return [{"type": ROW, "components": shown[i : i + 5]} for i in range(0, len(shown), 5)][:5]


def confirm(entry_id: int, action: str, words: str, dice: str = "") -> list[dict[str, Any]]:
    return [
        {
            "type": ROW,
            "components": [
                {
                    "type": BUTTON,
                    "style": DANGER,
                    "label": _clip(f"Confirm: {words}", 80),
                    "custom_id": f"rb:c:{entry_id}:{action}:{dice}"[:100],
                },
                _cancel(entry_id),
            ],
        }
    ]


def _cancel(entry_id: int) -> dict[str, Any]:
    return {"type": BUTTON, "style": SECONDARY, "label": "Cancel", "custom_id": f"rb:x:{entry_id}:"}


def dice_menu(
    entry_id: int, action: str, dice: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """A select menu of the dice a follow-up may choose (the selectable ones), and cancel."""
    options = [
        {"label": _clip(f"#{i + 1} {d.get('label', '')}: {d.get('face')}", 100), "value": str(i)}
        for i, d in enumerate(dice)
        if d.get("selectable")
    ][:25]
    return [
        {
            "type": ROW,
            "components": [
                {
                    "type": STRING_SELECT,
                    "custom_id": f"rb:d:{entry_id}:{action}"[:100],
                    "placeholder": "Choose the dice",
                    "min_values": 1,
                    "max_values": max(1, len(options)),
                    "options": options,
                }
            ],
        },
        {"type": ROW, "components": [_cancel(entry_id)]},
    ]
