"""Caps on one free-dice expression, each refused with a message that names it.

The caps bound what a typed expression may cost: the text, the dice and draws of a roll,
and the work its exact odds need. An expression within the caps always rolls; its odds are
worked out only when an estimate made beforehand stays within ``max_odds_work`` (else the
odds say "odds not computed" and why), so no expression can stall a request.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, LimitExceeded


@dataclass(frozen=True, slots=True)
class DiceLimits:
    max_text: int = 500
    """Characters in one expression (a table-talk message is capped at 500 as well)."""
    max_digits: int = 7
    """Digits in one number, checked before the text becomes an int (so a 4,300-digit number
    is refused as bad input, never handed to ``int()``)."""
    max_number: int = 1_000_000
    max_dice: int = 100
    """Dice rolled at the start of one roll, over every term and repeat."""
    max_sides: int = 1000
    max_explosions: int = 10
    """Extra dice one die's explosions may add: the chain stops there, and the odds are exact
    for the roll as made, with the chance of reaching the cap stated."""
    max_draws: int = 2000
    """Dice drawn by one roll, rerolls and explosions included."""
    max_reroll_risk: float = 1e-12
    """Largest chance allowed that an ``rr`` (reroll until none match) would need more draws
    than ``max_draws``: an expression above it is refused before it rolls."""
    max_nodes: int = 100
    """Numbers, dice, operators and sets in one expression."""
    max_depth: int = 20
    """Parentheses, sets and signs nested inside one another."""
    max_set_items: int = 20
    max_operations: int = 8
    """Operations (kh3, rr1, e6...) on one dice term."""
    max_repeats: int = 20
    max_inline: int = 10
    """Inline rolls ([[1d20+3]]) in one message."""
    max_odds_work: int = 1_000_000
    """Estimated steps of the exact odds (a step is 20 to 40 ns here, so 20 to 40 ms at
    most, well under the 100 ms a request may spend on them); above it the roll still
    happens and says "odds not computed"."""
    max_odds_digits: int = 3000
    """Digits of the odds' common denominator: beyond it no fraction could be printed by
    Python (4,300 digits) with room to spare, so the odds are not computed."""

    def number(self, field: str, text: str, at: int) -> int:
        """The whole number spelled by ``text`` (digits only), refused before conversion when
        it has more digits than ``max_digits`` or exceeds ``max_number``."""
        if len(text) > self.max_digits:
            shown = f"{text[:12]}… ({len(text)} digits)"
            raise InvalidInput(
                field, shown, f"at position {at}: a whole number up to {self.max_number}"
            )
        value = int(text)
        if value > self.max_number:
            raise InvalidInput(
                field, text, f"at position {at}: a whole number up to {self.max_number}"
            )
        return value

    def text(self, field: str, text: str) -> None:
        if len(text) > self.max_text:
            raise LimitExceeded(
                field,
                f"{len(text)} characters",
                self.max_text,
                "characters (the cap on an expression's length)",
            )


DEFAULT_LIMITS = DiceLimits()
