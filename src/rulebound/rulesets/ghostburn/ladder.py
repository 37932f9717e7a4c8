"""The Difficulty Level ladder and a DL positioned on it.

A chart's bands are written as "levels from the DL", so the ladder is what turns
"one level lower" into a number. A DL taken from a trait may fall between
levels; ``Options.off_ladder`` says how its neighbouring levels are found.
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from rulebound.core.errors import InvalidInput
from rulebound.core.keys import key_of
from rulebound.rulesets.ghostburn.options import OffLadderReading, Options

MIN_DL = 1
MAX_DL = 100


@dataclass(frozen=True, slots=True)
class Level:
    """A named Difficulty Level ("Hard", 20): the ladder's bands lie between them."""

    name: str
    value: int


@dataclass(frozen=True, slots=True)
class Ladder:
    """Named levels in strictly ascending order of value."""

    levels: tuple[Level, ...]

    def __post_init__(self) -> None:
        if not self.levels:
            raise InvalidInput("ladder", (), "at least one level")
        values = [level.value for level in self.levels]
        if any(b <= a for a, b in itertools.pairwise(values)):
            raise InvalidInput("ladder", values, "level values in strictly ascending order")
        names = [key_of(level.name) for level in self.levels]
        if len(set(names)) != len(names):
            raise InvalidInput("ladder", names, "distinct level names")

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(level.value for level in self.levels)

    def describe(self) -> str:
        return ", ".join(f"{level.name} ({level.value})" for level in self.levels)

    def at(self, value: int) -> Level | None:
        return next((level for level in self.levels if level.value == value), None)

    def parse(self, field: str, text: str | int) -> int:
        """A DL given as a level name ("Hard") or a number ("17")."""
        if isinstance(text, int) and not isinstance(text, bool):
            return check_dl(field, text)
        if isinstance(text, str):
            wanted = key_of(text)
            for level in self.levels:
                if key_of(level.name) == wanted:
                    return level.value
            stripped = text.strip().lstrip("+-")
            if stripped.isdecimal():
                return check_dl(field, int(text))
        raise InvalidInput(
            field, text, f"a number from {MIN_DL} to {MAX_DL} or a level name: " + self.describe()
        )


def check_dl(field: str, value: int) -> int:
    if not MIN_DL <= value <= MAX_DL:
        raise InvalidInput(field, value, f"a DL from {MIN_DL} to {MAX_DL}")
    return value


def offset_value(dl: int, levels: int, ladder: Ladder, options: Options) -> int | None:
    """The number ``levels`` ladder steps away from ``dl``; None where the ladder ends."""
    if levels == 0:
        return dl
    values = ladder.values
    if dl in values or options.off_ladder is OffLadderReading.SNAP_TO_LADDER:
        pool = (
            [v for v in values if v > dl] if levels > 0 else [v for v in reversed(values) if v < dl]
        )
        index = abs(levels) - 1
        return pool[index] if index < len(pool) else None
    if options.ladder_rule == 1:
        return _first_offset(dl, levels, values)
    return _kept_offset(dl, levels, values)


def _first_offset(dl: int, levels: int, values: tuple[int, ...]) -> int | None:
    """``keep-offset`` as first read (``LADDER_RULE`` 1): the distance from the level at or
    below the DL, with no band past either end; it replays the rolls logged under it."""
    anchor = max((i for i, v in enumerate(values) if v <= dl), default=0)
    target = anchor + levels
    if not 0 <= target < len(values):
        return None
    return values[target] + (dl - values[anchor])


def _kept_offset(dl: int, levels: int, values: tuple[int, ...]) -> int | None:
    """A DL off the ladder keeps its place between its neighbouring levels: 17 lies halfway
    from Moderate (14) to Hard (20), so one level lower is halfway from Easy (8), 11.

    Past either end the end step goes on, but no band above the DL lies past the level
    after the top, and none below it lies under the lowest level: one that would start
    between that level and the step below it starts at it (a DL at or below the lowest
    level has none; ``bottom-fade`` decides). So a harder DL never gives a better outcome,
    on any ladder."""
    if len(values) < 2:
        return None
    last = len(values) - 2
    low = min(max(bisect.bisect_right(values, dl) - 1, 0), last)
    target = low + Fraction(dl - values[low], values[low + 1] - values[low]) + levels
    if levels > 0 and target >= len(values):
        return None
    if levels < 0 and target < 0:
        return values[0] if target > -1 and dl > values[0] else None
    step = min(max(math.floor(target), 0), last)
    return math.ceil(values[step] + (target - step) * (values[step + 1] - values[step]))


@dataclass(frozen=True, slots=True)
class Difficulty:
    """The DL a check is rolled against, with where it came from and any GM shift."""

    value: int
    base: int
    shift: int
    source: str
    ladder: Ladder
    options: Options

    @staticmethod
    def make(
        base: int,
        ladder: Ladder,
        options: Options,
        *,
        shift: int = 0,
        source: str = "given directly",
    ) -> Difficulty:
        check_dl("dl", base)
        value = offset_value(base, shift, ladder, options)
        if value is None:
            low, high = shift_range(base, ladder, options)
            raise InvalidInput(
                "dl_shift",
                shift,
                f"a shift from {low:+d} to {high:+d} levels for DL {base} on the ladder "
                f"{ladder.describe()}",
            )
        return Difficulty(value, base, shift, source, ladder, options)

    @property
    def level(self) -> Level | None:
        return self.ladder.at(self.value)

    @property
    def label(self) -> str:
        level = self.level
        return f"{level.name} ({self.value})" if level else f"DL {self.value}"

    def threshold(self, levels: int) -> int | None:
        """The least result that reaches the band ``levels`` ladder steps from this DL."""
        return offset_value(self.value, levels, self.ladder, self.options)


def shift_range(base: int, ladder: Ladder, options: Options) -> tuple[int, int]:
    low = 0
    while offset_value(base, low - 1, ladder, options) is not None:
        low -= 1
    high = 0
    while offset_value(base, high + 1, ladder, options) is not None:
        high += 1
    return low, high
