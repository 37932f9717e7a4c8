"""The named readings of Ghostburn's ambiguous rules, chosen per request.

Each ambiguity that changes a number is a ``Variant``; ``Options`` holds the
choice made for one check, so a result records exactly which reading produced it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from rulebound.rulesets.contract import Variant


class OffLadderReading(StrEnum):
    """How a DL that is not on the ladder (taken from a trait) finds its neighbouring bands."""

    KEEP_OFFSET = "keep-offset"
    SNAP_TO_LADDER = "snap-to-ladder"


class BottomFade(StrEnum):
    """Whether a miss at the lowest level of the ladder can still be a Fade."""

    NONE = "none"
    OPEN = "open"


OFF_LADDER = Variant.of(
    "off-ladder-dl",
    OffLadderReading,
    "A DL between ladder levels",
    "A DL between ladder levels: keep-offset moves every band by the same ladder step "
    "(DL 17 fades from 11); snap-to-ladder uses the ladder levels around it (fades from 14).",
    "keep the offset: every band moves by the same step",
    "snap to the ladder levels around it",
)
BOTTOM_FADE = Variant.of(
    "bottom-fade",
    BottomFade,
    "A miss at the lowest level",
    "At the lowest DL there is no level below: none means a miss is a plain failure; "
    "open means every miss counts as reaching the band below.",
    "is a Failure (no band below)",
    "is a Fade (every miss reaches the band below)",
)
VARIANTS: tuple[Variant, ...] = (OFF_LADDER, BOTTOM_FADE)


LADDER_RULE = 2
"""How ``keep-offset`` places a DL off the ladder (``ladder.offset_value``), as a roll
record names it: 1, the first reading, which left a DL between the two lowest levels
without a Fade, is kept only to replay the rolls logged under it."""


@dataclass(frozen=True, slots=True)
class Options:
    off_ladder: OffLadderReading = OffLadderReading.KEEP_OFFSET
    bottom_fade: BottomFade = BottomFade.NONE
    ladder_rule: int = LADDER_RULE

    @staticmethod
    def from_mapping(choices: Mapping[str, str]) -> Options:
        """Options from a table's variants, already validated (``rulesets.variants.resolve``)."""
        return Options(
            OffLadderReading(choices.get(OFF_LADDER.key, OFF_LADDER.default)),
            BottomFade(choices.get(BOTTOM_FADE.key, BOTTOM_FADE.default)),
        )

    def as_mapping(self) -> dict[str, str]:
        return {OFF_LADDER.key: self.off_ladder.value, BOTTOM_FADE.key: self.bottom_fade.value}


DEFAULT_OPTIONS = Options()
