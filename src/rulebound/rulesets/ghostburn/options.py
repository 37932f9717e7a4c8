"""The named readings of Ghostburn's ambiguous rules, chosen per request.

Each ambiguity that changes a number is a ``Variant``; ``Options`` holds the
choice made for one check, so a result records exactly which reading produced it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.base import Variant


class OffLadderReading(StrEnum):
    """How a DL that is not on the ladder (taken from a trait) finds its neighbouring bands."""

    KEEP_OFFSET = "keep-offset"
    SNAP_TO_LADDER = "snap-to-ladder"


class BottomFade(StrEnum):
    """Whether a miss at the lowest level of the ladder can still be a Fade."""

    NONE = "none"
    OPEN = "open"


OFF_LADDER = Variant(
    key="off-ladder-dl",
    choices=tuple(r.value for r in OffLadderReading),
    default=OffLadderReading.KEEP_OFFSET.value,
    summary=(
        "A DL between ladder levels: keep-offset moves every band by the same ladder step "
        "(DL 17 fades from 11); snap-to-ladder uses the ladder levels around it (fades from 14)."
    ),
)
BOTTOM_FADE = Variant(
    key="bottom-fade",
    choices=tuple(r.value for r in BottomFade),
    default=BottomFade.NONE.value,
    summary=(
        "At the lowest DL there is no level below: none means a miss is a plain failure; "
        "open means every miss counts as reaching the band below."
    ),
)
VARIANTS: tuple[Variant, ...] = (OFF_LADDER, BOTTOM_FADE)


@dataclass(frozen=True, slots=True)
class Options:
    off_ladder: OffLadderReading = OffLadderReading.KEEP_OFFSET
    bottom_fade: BottomFade = BottomFade.NONE

    @staticmethod
    def parse(choices: Mapping[str, str]) -> Options:
        """Read ``{"off-ladder-dl": "snap-to-ladder"}``-style choices, rejecting unknown ones."""
        known = {v.key: v for v in VARIANTS}
        for key, choice in choices.items():
            variant = known.get(key)
            if variant is None:
                raise InvalidInput("variant", key, "one of " + ", ".join(sorted(known)))
            if choice not in variant.choices:
                raise InvalidInput(f"variant {key}", choice, "one of " + ", ".join(variant.choices))
        return Options(
            OffLadderReading(choices.get(OFF_LADDER.key, OFF_LADDER.default)),
            BottomFade(choices.get(BOTTOM_FADE.key, BOTTOM_FADE.default)),
        )


DEFAULT_OPTIONS = Options()
