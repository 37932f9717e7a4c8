"""Rolling a Ghostburn check: 2d10 plus the bonuses that stack, read against a chart."""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import DieRecord, Modifier, Provenance
from rulebound.rulesets.ghostburn.chart import Band
from rulebound.rulesets.ghostburn.request import CheckRequest
from rulebound.rulesets.ghostburn.rules import DICE, SIDES, BonusKind, BonusLine, classify


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


def roll(request: CheckRequest, source: RandomSource) -> GhostburnResult:
    recorder = RecordingSource(source)
    dice = tuple(
        DieRecord(f"d{SIDES} #{i + 1}", SIDES, recorder.draw(SIDES), role="check")
        for i in range(DICE)
    )
    bonuses = request.bonuses
    modifiers = tuple(Modifier(b.source, b.value, b.kind.value) for b in bonuses if b.applied)
    total = sum(die.face for die in dice) + sum(m.value for m in modifiers)
    return GhostburnResult(
        request=request,
        dice=dice,
        bonuses=bonuses,
        modifiers=modifiers,
        total=total,
        band=classify(total, request.difficulty, request.chart),
        provenance=Provenance.of(recorder.describe(), recorder.draws),
    )
