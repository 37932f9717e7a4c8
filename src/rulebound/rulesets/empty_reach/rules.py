"""The Empty Reach's numbers, in one place that both the roller and the odds engine read."""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.contract import Variant


class StepDie(IntEnum):
    """A base die; the value is its number of sides, the order is the step ladder."""

    D6 = 6
    D8 = 8
    D10 = 10
    D12 = 12

    @property
    def label(self) -> str:
        return f"D{self.value}"

    @property
    def rung(self) -> int:
        """Position on the ladder: D6 is 0, D12 is 3."""
        return LADDER.index(self)

    @staticmethod
    def parse(field: str, text: object) -> StepDie:
        if isinstance(text, StepDie):
            return text
        if isinstance(text, str):
            cleaned = text.strip().upper().removeprefix("D")
            if cleaned.isdecimal() and int(cleaned) in _BY_SIDES:
                return _BY_SIDES[int(cleaned)]
        raise InvalidInput(field, text, "one of D6, D8, D10, D12")


LADDER: tuple[StepDie, ...] = (StepDie.D6, StepDie.D8, StepDie.D10, StepDie.D12)
_BY_SIDES = {die.value: die for die in LADDER}

MAX_BASE_DICE = 2
"""Never more than two base dice (and never above two D12s)."""

SUCCESS_FACE = 6
"""A face at or above this is one success."""
DOUBLE_SUCCESS_FACE = 10
"""A face at or above this is two successes (only a D10 or D12 can show it)."""
BANE_FACE = 1
"""A 1 is a bane, and a die showing it can never be rerolled."""

BASE_PUSHES = 1
PUSH = "push"
"""The follow-up that pushes a roll."""
MAX_HELPERS = 3
HELP_PER_HELPER = 1

GEAR_CHECK_SIDES = 6
GEAR_LOSS_FACES = frozenset({1, 2})
"""On a pushed bane with gear in use, a d6 showing one of these costs the gear a point."""

MAX_SPECIALTY_RANKS = 3
"""Tough and Hardened may each be taken up to three times."""

CostKind = Literal["damage", "stress"]
GearBanes = Literal["base-dice", "gear-dice"]
"""The ``gear_banes`` variant: which banes risk the gear (see the rulings)."""


def successes_on(face: int) -> int:
    if face >= DOUBLE_SUCCESS_FACE:
        return 2
    return 1 if face >= SUCCESS_FACE else 0


def is_bane(face: int) -> bool:
    return face == BANE_FACE


def may_reroll(face: int) -> bool:
    """A push may reroll any die not showing a 1."""
    return not is_bane(face)


def rerolled_by_default(face: int) -> bool:
    """The default push choice: a die showing neither a success nor a 1.

    The roller's default selection and the odds engine's push policies both read this.
    """
    return may_reroll(face) and not successes_on(face)


def bane_counts(role: str, gear_banes: str) -> bool:
    """Whether a 1 on a die of ``role`` is a bane: always on the base dice, and on an
    item's extra dice only under ``gear_banes = "gear-dice"``."""
    return role != "gear" or gear_banes == "gear-dice"


def risks_gear(role: str, gear_banes: str) -> bool:
    """Whether a charged bane on a die of ``role`` gets the 2-in-6 gear check (with gear in
    use): every charged bane under "base-dice", only those on the item's dice under
    "gear-dice"."""
    return bane_counts(role, gear_banes) and (gear_banes != "gear-dice" or role == "gear")


def marks_for(face: int, *, bane_counts: bool) -> tuple[str, ...]:
    """The labels a card shows on a die."""
    hits = successes_on(face)
    if hits == 2:
        return ("success", "success")
    if hits == 1:
        return ("success",)
    if is_bane(face):
        return ("bane",) if bane_counts else ("one",)
    return ()


RULE_NUMBERS: tuple[tuple[str, str], ...] = (
    ("base dice", "an attribute die and a skill die, each D6, D8, D10 or D12"),
    ("a success", f"a face of {SUCCESS_FACE} or more"),
    ("two successes", f"a face of {DOUBLE_SUCCESS_FACE} or more (a D10 or D12)"),
    ("a bane", f"a {BANE_FACE} on a base die: it cannot be rerolled"),
    ("pushes", f"{BASE_PUSHES}, or {BASE_PUSHES + 1} with a specialty for the attribute rolled"),
    ("help", f"+{HELP_PER_HELPER} a person, at most {MAX_HELPERS} people"),
    ("modifiers", "a step each: at most two D12s; past two D6s one die goes; at least one D6"),
    ("gear check", f"d{GEAR_CHECK_SIDES} per pushed bane with gear in use: 1 or 2 costs a point"),
    ("Tough, Hardened", f"+1 maximum Health or Resolve, up to {MAX_SPECIALTY_RANKS} times"),
)
"""The rules' numbers in words, for ``rulebound content empty-reach``."""

VARIANTS: tuple[Variant, ...] = (
    Variant(
        "gear_banes",
        ("base-dice", "gear-dice"),
        "base-dice",
        "Which banes get the 2-in-6 gear check: those on the base dice when gear is used, "
        "or only 1s on the extra dice an item grants.",
        label="Which banes risk the gear",
        choice_labels=("banes on the base dice", "1s on the item's extra dice only"),
    ),
    Variant(
        "tie_break",
        ("fail", "reroll"),
        "fail",
        "An opposed tie fails the active side (break-tie re-rolls one that needs breaking), "
        "or every tie decides nothing until both sides roll again.",
        label="An opposed tie",
        choice_labels=("fails the active side", "is always rolled again"),
    ),
)
"""The rules variants; ``check.Options`` holds a table's choices."""
