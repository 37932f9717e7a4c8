"""Ghostburn's rules tables, read by both the roller and the odds engine.

Keeping the dice, the band lookup and the stacking rule here means a roll and
its exact odds cannot disagree about what a result of 17 against Hard means.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from rulebound.core.distribution import Distribution
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.core.random_source import trusted_builder
from rulebound.core.trace import Modifier
from rulebound.rulesets.ghostburn.chart import Band, Chart
from rulebound.rulesets.ghostburn.ladder import MAX_DL, MIN_DL, Difficulty
from rulebound.rulesets.ghostburn.options import BottomFade

DICE = 2
SIDES = 10


@cache
def dice_distribution() -> Distribution[int]:
    """The sum of 2d10, shared by every odds query."""
    return Distribution.die(SIDES).repeat(DICE)


FLOOR = -(10**9)
"""A threshold every result reaches: the floor band's, and an open bottom Fade's."""


def band_thresholds(difficulty: Difficulty, chart: Chart) -> tuple[tuple[Band, int | None], ...]:
    """Each band with the least result that lands in it; None marks a band no result reaches.

    A band whose level lies past the ladder's end is empty, unless the open
    bottom-fade reading makes a band below the ladder catch every lower result.
    """
    rows: list[tuple[Band, int | None]] = []
    caught = False
    for band in chart.bands:
        if caught:
            rows.append((band, None))
            continue
        if band.from_level is None:
            rows.append((band, FLOOR))
            continue
        threshold = difficulty.threshold(band.from_level)
        if (
            threshold is None
            and band.from_level < 0
            and difficulty.options.bottom_fade is BottomFade.OPEN
        ):
            threshold, caught = FLOOR, True
        rows.append((band, threshold))
    return tuple(rows)


Thresholds = tuple[tuple[Band, int | None], ...]
_THRESHOLDS: dict[tuple[object, ...], tuple[object, Chart, Thresholds]] = {}
_MAX_THRESHOLDS = 256


def thresholds_of(difficulty: Difficulty, chart: Chart) -> Thresholds:
    """``band_thresholds``, worked out once per DL, options, ladder and chart (a bounded
    memo: the ladder and the chart are the very objects, so the rows cannot go stale)."""
    ladder = difficulty.ladder
    key = (difficulty.value, difficulty.options, id(ladder), id(chart))
    hit = _THRESHOLDS.get(key)
    if hit is not None and hit[0] is ladder and hit[1] is chart:
        return hit[2]
    rows = band_thresholds(difficulty, chart)
    if len(_THRESHOLDS) >= _MAX_THRESHOLDS:
        _THRESHOLDS.clear()
    _THRESHOLDS[key] = (ladder, chart, rows)
    return rows


def classify(total: int, difficulty: Difficulty, chart: Chart) -> Band:
    """The best band whose threshold the result reaches."""
    for band, threshold in thresholds_of(difficulty, chart):
        if threshold is not None and total >= threshold:
            return band
    raise AssertionError("unreachable: the floor band catches every result")


class BonusKind(StrEnum):
    ABILITY = "ability"
    SKILL = "skill"
    GEAR = "gear"
    AUG = "aug"
    LUCK = "luck"


STACKING_KINDS: tuple[BonusKind, ...] = (
    BonusKind.ABILITY,
    BonusKind.SKILL,
    BonusKind.GEAR,
    BonusKind.AUG,
)


@dataclass(frozen=True, slots=True)
class Bonus:
    """A candidate bonus and where it comes from, before stacking picks one per kind."""

    kind: BonusKind
    source: str
    value: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class BonusLine:
    """A candidate after stacking: whether it applied, and if not, why."""

    kind: BonusKind
    source: str
    value: int
    applied: bool
    note: str = ""


_line = trusted_builder(BonusLine)


def stack(candidates: Iterable[Bonus]) -> tuple[BonusLine, ...]:
    """At most one bonus of each kind applies: the highest, the first listed on a tie.

    The lines are built from the candidates' own (checked) values (``trusted_builder``)."""
    by_kind: dict[BonusKind, list[Bonus]] = {}
    for bonus in candidates:
        by_kind.setdefault(bonus.kind, []).append(bonus)
    lines: list[BonusLine] = []
    for kind in STACKING_KINDS:
        same = by_kind.get(kind)
        if not same:
            continue
        if len(same) == 1:
            only = same[0]
            lines.append(_line(kind, only.source, only.value, True, only.note))
            continue
        best = max(range(len(same)), key=lambda i: (same[i].value, -i))
        for i, bonus in enumerate(same):
            note = bonus.note
            if i != best:
                reason = f"does not stack; {same[best].source} ({same[best].value:+d}) applies"
                note = f"{note}; {reason}" if note else reason
            lines.append(_line(kind, bonus.source, bonus.value, i == best, note))
    return tuple(lines)


_modifier = trusted_builder(Modifier)
_KIND_TEXT = {kind: kind.value for kind in BonusKind}
Stacked = tuple[tuple[BonusLine, ...], tuple[Modifier, ...], int]
_STACKS: dict[tuple[object, ...], Stacked] = {}
_MAX_STACKS = 1024


def stacked(candidates: Sequence[Bonus]) -> Stacked:
    """``stack(candidates)``, the modifiers of the lines that apply (source, value, kind)
    and their total, worked out once per candidates' values (a bounded memo; lines and
    modifiers are immutable, so every result of the same bonuses shares them)."""
    key = tuple([(b.kind, b.source, b.value, b.note) for b in candidates if type(b.value) is int])
    hit = _STACKS.get(key) if len(key) == len(candidates) else None
    if hit is not None:
        return hit
    lines = stack(candidates)
    modifiers = tuple(
        _modifier(line.source, line.value, _KIND_TEXT.get(line.kind, line.kind))
        for line in lines
        if line.applied
    )
    found = (lines, modifiers, sum(m.value for m in modifiers))
    if len(key) == len(candidates):
        if len(_STACKS) >= _MAX_STACKS:
            _STACKS.clear()
        _STACKS[key] = found
    return found


def applied_total(lines: Iterable[BonusLine]) -> int:
    return sum(line.value for line in lines if line.applied)


def stacked_total(candidates: Iterable[Bonus]) -> int:
    """``applied_total(stack(candidates))`` without building the lines: the highest
    candidate of each stacking kind, summed."""
    best: dict[BonusKind, int] = {}
    for bonus in candidates:
        if bonus.kind in STACKING_KINDS and bonus.value > best.get(bonus.kind, bonus.value - 1):
            best[bonus.kind] = bonus.value
    return sum(best.values())


_CAP = DEFAULT_LIMITS.max_modifier
RULE_NUMBERS: tuple[tuple[str, str], ...] = (
    ("the roll", f"{DICE}d{SIDES}, summed, plus one ability score (always) and the bonuses"),
    ("stacking", "at most one skill, one gear, one aug and one luck bonus: the highest of each"),
    ("Luck Bonus", "after the result, one a roll, for a Luck Point; its size is the sheet's"),
    ("outcome", "the result (with any Luck Bonus) read on the trick's chart against the DL"),
    ("limits", f"an ability score within ±{_CAP}, each bonus 0 to {_CAP} (Luck 1 to {_CAP})"),
    ("the total", f"before the Luck Bonus within ±{_CAP}; a DL from {MIN_DL} to {MAX_DL}"),
)
"""The rules' numbers in words, for ``rulebound content ghostburn``."""
