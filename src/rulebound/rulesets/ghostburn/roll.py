"""Rolling a Ghostburn check: 2d10 plus the bonuses that stack, read against a chart."""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.random_source import RandomSource, RecordingSource, trusted_builder
from rulebound.core.trace import DieRecord, DieState, Modifier, Provenance
from rulebound.rulesets.ghostburn.chart import Band
from rulebound.rulesets.ghostburn.request import CheckRequest
from rulebound.rulesets.ghostburn.rules import DICE, SIDES, BonusKind, BonusLine, classify, stacked


@dataclass(frozen=True, slots=True)
class GhostburnResult:
    """One check as it stands; a luck spend is a new result whose ``parent`` is this one."""

    request: CheckRequest
    dice: tuple[DieRecord, ...]
    bonuses: tuple[BonusLine, ...]
    """Every candidate bonus, with whether stacking let it apply."""
    modifiers: tuple[Modifier, ...]
    """The bonuses that count, the luck bonus last once spent."""
    total: int
    band: Band
    provenance: Provenance
    parent: GhostburnResult | None = None

    @property
    def dice_sum(self) -> int:
        return sum(die.face for die in self.dice)

    @property
    def luck(self) -> Modifier | None:
        return next((m for m in self.modifiers if m.kind == BonusKind.LUCK.value), None)

    @property
    def succeeded(self) -> bool:
        """The result reaches the DL, whatever the chart calls that band."""
        return self.total >= self.request.difficulty.value

    @property
    def headline(self) -> str:
        return f"{self.band.label}: {self.total} vs {self.request.difficulty.label}"


_die = trusted_builder(DieRecord)
_result = trusted_builder(GhostburnResult)
_LABELS = tuple(f"d{SIDES} #{i + 1}" for i in range(DICE))
_DICE: tuple[tuple[DieRecord, ...], ...] = tuple(
    tuple(_die(label, SIDES, face, "check", DieState.ROLLED, (), ()) for face in range(SIDES + 1))
    for label in _LABELS
)
"""Each die as rolled, by position and face (index 0 unused): immutable values every
roll shares, instead of two new records per check."""


def roll(request: CheckRequest, source: RandomSource) -> GhostburnResult:
    """Draw and record the dice once, and build the result from the checked values."""
    recorder = RecordingSource(source)
    faces = recorder.draw_many(SIDES, DICE)
    dice = tuple(
        [
            _DICE[i][face] if type(face) is int and 0 < face <= SIDES else _fresh(i, face)
            for i, face in enumerate(faces)
        ]
    )
    bonuses, modifiers, added = stacked(request.candidates)
    total = sum(faces) + added
    return _result(
        request,
        dice,
        bonuses,
        modifiers,
        total,
        classify(total, request.difficulty, request.chart),
        Provenance.of_source(source, recorder.draws),
        None,
    )


def _fresh(index: int, face: int) -> DieRecord:
    return _die(_LABELS[index], SIDES, face, "check", DieState.ROLLED, (), ())
