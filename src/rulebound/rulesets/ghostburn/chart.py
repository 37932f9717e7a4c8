"""Outcome charts: bands of result, each starting a number of ladder levels from the DL.

Writing bands in levels rather than points keeps one chart valid for every DL,
which is how the public rules describe a Fade ("the band one level lower").
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

from rulebound.core.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Band:
    """``from_level`` is the level, relative to the DL, the result must reach; None is the floor."""

    key: str
    label: str
    from_level: int | None
    outcome: str

    @property
    def succeeded(self) -> bool:
        return self.from_level is not None and self.from_level >= 0


@dataclass(frozen=True, slots=True)
class Chart:
    """Bands from best to worst; the last is the floor that catches every other result."""

    key: str
    bands: tuple[Band, ...]

    def __post_init__(self) -> None:
        levels = [band.from_level for band in self.bands]
        if not levels or levels[-1] is not None or None in levels[:-1]:
            raise InvalidInput(
                f"chart {self.key}", levels, "bands ending with exactly one floor band"
            )
        steps = [level for level in levels if level is not None]
        if any(b >= a for a, b in itertools.pairwise(steps)):
            raise InvalidInput(f"chart {self.key}", levels, "from_level strictly descending")
        if 0 not in steps:
            raise InvalidInput(
                f"chart {self.key}", levels, "a band starting at the DL (from_level 0)"
            )
        keys = [band.key for band in self.bands]
        if len(set(keys)) != len(keys) or "p_success" in keys:
            raise InvalidInput(f"chart {self.key}", keys, "distinct band keys other than p_success")

    def band(self, key: str) -> Band:
        for band in self.bands:
            if band.key == key:
                return band
        raise InvalidInput("band", key, "one of " + ", ".join(b.key for b in self.bands))

    def with_outcomes(self, outcomes: Mapping[str, str]) -> Chart:
        """The same bands with a trick's own outcome texts in place of the chart's defaults."""
        for key in outcomes:
            self.band(key)
        return Chart(
            self.key,
            tuple(
                Band(b.key, b.label, b.from_level, outcomes.get(b.key, b.outcome))
                for b in self.bands
            ),
        )
