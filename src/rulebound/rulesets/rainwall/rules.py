"""Rainwall's rules in one place, read by both the roller and the odds engine.

Every number and every judgement (which faces succeed, what a failure costs to
fix, the IoS, the degree) lives here, so a roll and its odds cannot disagree.
The ambiguous readings are ``Options``; see docs/rulings/rainwall.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.contract import Variant

DIE_SIDES = 10
MIN_SCORE, MAX_SCORE = 1, 10
"""Traits (the number of dice) and skills (the target) both run from 1 to 10."""
MIN_DR, MAX_DR = 1, 99
"""A task needs at least one success; the upper cap only bounds the request."""
CRITICAL_IOS = 3
DISASTER_IOS = -3
FLUB_TRAIT, FLUB_SKILL, FLUB_FACE, FLUB_COUNT = 10, 10, 10, 3


class Degree(StrEnum):
    CRITICAL = "critical"
    SUCCESS = "success"
    BARELY = "barely"
    FAILURE = "failure"
    DISASTER = "disaster"
    FLUBBED = "flubbed"

    @property
    def label(self) -> str:
        return DEGREE_LABELS[self]

    @property
    def succeeded(self) -> bool:
        return self in SUCCESS_DEGREES


DEGREE_LABELS: dict[Degree, str] = {
    Degree.CRITICAL: "Critical Success",
    Degree.SUCCESS: "Success",
    Degree.BARELY: "Barely Succeeding",
    Degree.FAILURE: "Failure",
    Degree.DISASTER: "Disaster",
    Degree.FLUBBED: "Flubbed",
}
SUCCESS_DEGREES = frozenset({Degree.CRITICAL, Degree.SUCCESS, Degree.BARELY})


class SuccessFace(StrEnum):
    AT_OR_UNDER = "at-or-under"
    STRICTLY_UNDER = "strictly-under"


class MissIos(StrEnum):
    CONTINUOUS = "continuous"
    SKIP_ZERO = "skip-zero"


class BarelyRule(StrEnum):
    ALWAYS = "always"
    BELOW_CRITICAL = "below-critical"


VARIANTS: tuple[Variant, ...] = (
    Variant.of(
        "success-face",
        SuccessFace,
        "A die equal to the skill",
        "Whether a die equal to the skill succeeds (the worked example) or only lower faces do.",
        "succeeds (as in the worked example)",
        "fails: only lower faces succeed",
    ),
    Variant.of(
        "miss-ios",
        MissIos,
        "IoS of a check that misses by one",
        "IoS of a miss: continuous gives 0 for missing by one; skip-zero gives -1.",
        "0 (the scale runs on)",
        "-1 (there is no IoS 0)",
    ),
    Variant.of(
        "barely",
        BarelyRule,
        "A success that needed bonus points",
        "Whether a success that needed bonus points is Barely Succeeding even at IoS 3+.",
        "is always Barely Succeeding",
        "can still be a Critical Success",
    ),
)


@dataclass(frozen=True, slots=True)
class Options:
    """The chosen reading of each ambiguous rule; the defaults are our rulings."""

    success_face: SuccessFace = SuccessFace.AT_OR_UNDER
    miss_ios: MissIos = MissIos.CONTINUOUS
    barely: BarelyRule = BarelyRule.ALWAYS

    @staticmethod
    def from_mapping(values: Mapping[str, object]) -> Options:
        """Build options from ``{variant key: choice}``, naming the bad key or choice."""
        known = {v.key: v for v in VARIANTS}
        chosen: dict[str, str] = {}
        for key, value in values.items():
            variant = known.get(key)
            if variant is None:
                raise InvalidInput("variants", key, "one of " + ", ".join(known))
            if value not in variant.choices:
                raise InvalidInput(f"variants.{key}", value, "one of " + ", ".join(variant.choices))
            chosen[key] = str(value)
        return Options(
            SuccessFace(chosen.get("success-face", SuccessFace.AT_OR_UNDER)),
            MissIos(chosen.get("miss-ios", MissIos.CONTINUOUS)),
            BarelyRule(chosen.get("barely", BarelyRule.ALWAYS)),
        )

    def as_mapping(self) -> dict[str, str]:
        return {
            "success-face": self.success_face.value,
            "miss-ios": self.miss_ios.value,
            "barely": self.barely.value,
        }


def highest_success_face(skill: int, options: Options) -> int:
    """The highest face that counts as a success (0 when none does)."""
    return skill if options.success_face is SuccessFace.AT_OR_UNDER else skill - 1


def succeeds(face: int, skill: int, options: Options) -> bool:
    return face <= highest_success_face(skill, options)


def cost(face: int, skill: int, options: Options) -> int | None:
    """Bonus points needed to make this face a success: 0 for a success, None if no
    number of points can (a strictly-under skill of 1 has no success face above 0)."""
    top = highest_success_face(skill, options)
    if face <= top:
        return 0
    return face - top if top >= 1 else None


def ios(successes: int, dr: int, options: Options) -> int:
    """Increment of Success: meeting the DR exactly is 1; a miss depends on ``miss-ios``."""
    margin = successes - dr
    if margin >= 0 or options.miss_ios is MissIos.CONTINUOUS:
        return margin + 1
    return margin


def is_flub(trait: int, skill: int, tens_rolled: int) -> bool:
    """Flubbed is judged on the faces as rolled, so bonus points cannot undo it."""
    return trait == FLUB_TRAIT and skill == FLUB_SKILL and tens_rolled >= FLUB_COUNT


def degree(raw: int, successes: int, dr: int, flubbed: bool, options: Options) -> Degree:
    """The degree from the raw count (before bonus points) and the final count."""
    if flubbed:
        return Degree.FLUBBED
    increment = ios(successes, dr, options)
    if successes >= dr:
        needed_bonus = raw < dr
        if needed_bonus and (options.barely is BarelyRule.ALWAYS or increment < CRITICAL_IOS):
            return Degree.BARELY
        return Degree.CRITICAL if increment >= CRITICAL_IOS else Degree.SUCCESS
    return Degree.DISASTER if increment <= DISASTER_IOS else Degree.FAILURE
