"""Building blocks of an immutable roll record.

A result is the whole story of a roll: what was asked, every die with its
history, every modifier with its source, every step the modifiers caused, the
outcome, and the draws that replay it. Rulesets compose their own result types
from these pieces; renderers (text, JSON, HTML) read them and never the reverse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rulebound.core.random_source import Draw, RandomSource, sorted_description, trusted_builder


class DieState(StrEnum):
    ROLLED = "rolled"
    """Rolled once, never offered for a reroll."""
    KEPT = "kept"
    """Could have been rerolled on a push; the player kept it."""
    LOCKED = "locked"
    """The rules forbid rerolling it (an Empty Reach bane, for example)."""
    REROLLED = "rerolled"
    """Rerolled: ``face`` is the new face and ``history`` holds the old ones."""


@dataclass(frozen=True, slots=True)
class DieRecord:
    """One die as it stands in a result."""

    label: str
    sides: int
    face: int
    role: str = ""
    state: DieState = DieState.ROLLED
    history: tuple[int, ...] = ()
    marks: tuple[str, ...] = ()

    def rerolled(self, face: int, marks: tuple[str, ...]) -> DieRecord:
        """This die rerolled to ``face`` (a face the roller drew and recorded)."""
        history = (*self.history, self.face)
        return _die(self.label, self.sides, face, self.role, DieState.REROLLED, history, marks)

    def with_state(self, state: DieState) -> DieRecord:
        return _die(self.label, self.sides, self.face, self.role, state, self.history, self.marks)


_die = trusted_builder(DieRecord)
"""Copies of a record with one field changed: the values come from a record already made."""


@dataclass(frozen=True, slots=True)
class Modifier:
    """A modifier and where it came from, e.g. ("help from 2 allies", +2)."""

    source: str
    value: int
    kind: str = ""

    def describe(self) -> str:
        return f"{self.source}: {self.value:+d}"


@dataclass(frozen=True, slots=True)
class StepChange:
    """One step a modifier caused, or tried to cause; ``applied`` is false when a cap stopped it."""

    direction: int
    description: str
    applied: bool = True


@dataclass(frozen=True, slots=True)
class Provenance:
    """Everything needed to replay a roll exactly: the source's description and each draw."""

    source: tuple[tuple[str, str], ...]
    draws: tuple[Draw, ...] = field(default=())

    @staticmethod
    def of(description: dict[str, object], draws: tuple[Draw, ...]) -> Provenance:
        return _provenance(tuple(sorted([(k, str(v)) for k, v in description.items()])), draws)

    @staticmethod
    def of_source(source: RandomSource, draws: tuple[Draw, ...]) -> Provenance:
        """``of(source.describe(), draws)``, without a dict per roll where the source's
        description is known (``random_source.sorted_description``)."""
        return _provenance(sorted_description(source), draws)


_provenance = trusted_builder(Provenance)
"""A provenance from a source's description (its keys are unique names) and its draws."""
