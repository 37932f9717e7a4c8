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
from rulebound.core.keys import find_key
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
    """From best to worst. The text names IoS 3+ Critical Success and IoS 1 Basic Success;
    IoS 2 and a miss short of Disaster have no name there, so they are ours."""

    CRITICAL = "critical"
    SUCCESS = "success"
    BASIC = "basic"
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
    Degree.BASIC: "Basic Success",
    Degree.BARELY: "Barely Succeeding",
    Degree.FAILURE: "Failure",
    Degree.DISASTER: "Disaster",
    Degree.FLUBBED: "Flubbed",
}
SUCCESS_DEGREES = frozenset({Degree.CRITICAL, Degree.SUCCESS, Degree.BASIC, Degree.BARELY})
BASIC_IOS = 1

RULE_NUMBERS: tuple[tuple[str, str], ...] = (
    ("dice", f"the trait score, {MIN_SCORE} to {MAX_SCORE} d{DIE_SIDES}"),
    ("a success", f"a die at or under the skill score ({MIN_SCORE} to {MAX_SCORE})"),
    ("the check", f"succeeds when the successes reach the Difficulty Rating ({MIN_DR} or more)"),
    ("a bonus point", "lowers one die by one face after the roll; split as you like"),
    ("Increment of Success", "successes - DR + 1: meeting the DR exactly is 1"),
)
"""The rules' numbers in words, for ``rulebound content rainwall``."""

DEGREE_RULES: dict[Degree, str] = {
    Degree.CRITICAL: f"IoS {CRITICAL_IOS} or more",
    Degree.SUCCESS: "IoS 2 (the text gives it no name)",
    Degree.BASIC: f"IoS {BASIC_IOS}",
    Degree.BARELY: "the DR met only with bonus points",
    Degree.FAILURE: "the DR not met (the text gives it no name)",
    Degree.DISASTER: f"IoS {DISASTER_IOS} or lower, against the DR or the dice, if fewer",
    Degree.FLUBBED: (
        f"trait {FLUB_TRAIT}, skill {FLUB_SKILL} and {FLUB_COUNT} or more {FLUB_FACE}s rolled"
    ),
}


class SuccessFace(StrEnum):
    """Whether a die showing exactly the skill succeeds (ruling R1) or only lower faces do."""

    AT_OR_UNDER = "at-or-under"
    STRICTLY_UNDER = "strictly-under"


class MissIos(StrEnum):
    """The IoS of a miss: whether missing by one scores 0 (ruling R6) or -1."""

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
        for given, value in values.items():
            key = find_key(known, str(given))  # keys and choices as people type them
            if key is None:
                raise InvalidInput("variants", given, "one of " + ", ".join(known))
            choice = find_key(known[key].choices, str(value)) if isinstance(value, str) else None
            if choice is None:
                expected = "one of " + ", ".join(known[key].choices)
                raise InvalidInput(f"variants.{key}", value, expected)
            chosen[key] = choice
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


def success_face_count(skill: int, options: Options) -> int:
    """How many of a die's faces succeed as rolled: faces 1 to ``highest_success_face``
    (what the odds need without bonus points, with no face-by-face ``cost``)."""
    return min(max(highest_success_face(skill, options), 0), DIE_SIDES)


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


def reachable_dr(dr: int, dice: int) -> int:
    """The DR a miss is measured against: the DR, or the number of dice if that is lower.

    A pool cannot roll more successes than it has dice, so a DR above the pool fails
    whatever the dice show; a Disaster is a miss by three or more of what the dice could
    have reached, so a pool where every die succeeds is never one (see the rulings)."""
    return min(dr, dice)


Outcomes = dict[tuple[int, int, bool], tuple[int, "Degree"]]
_OUTCOMES: dict[tuple[int, int, int], tuple[Options, Outcomes]] = {}


def outcome_of(
    raw: int, successes: int, dr: int, flubbed: bool, options: Options, dice: int
) -> tuple[int, Degree]:
    """``(ios(successes, dr, options), degree(...))``, each worked out once per options,
    DR and pool (a bounded table per options object, filled as rolls need it)."""
    key = (id(options), dr, dice)
    table = _OUTCOMES.get(key)
    if table is None or table[0] is not options:
        if len(_OUTCOMES) >= 1024:
            _OUTCOMES.clear()
        table = _OUTCOMES[key] = (options, {})
    cell = (raw, successes, flubbed)
    hit = table[1].get(cell)
    if hit is None:
        hit = ios(successes, dr, options), degree(raw, successes, dr, flubbed, options, dice=dice)
        table[1][cell] = hit
    return hit


def degree(
    raw: int, successes: int, dr: int, flubbed: bool, options: Options, *, dice: int
) -> Degree:
    """The degree from the raw count (before bonus points), the final count and the pool."""
    if flubbed:
        return Degree.FLUBBED
    increment = ios(successes, dr, options)
    if successes >= dr:
        needed_bonus = raw < dr
        if needed_bonus and (options.barely is BarelyRule.ALWAYS or increment < CRITICAL_IOS):
            return Degree.BARELY
        if increment >= CRITICAL_IOS:
            return Degree.CRITICAL
        return Degree.BASIC if increment == BASIC_IOS else Degree.SUCCESS
    shortfall = ios(successes, reachable_dr(dr, dice), options)
    return Degree.DISASTER if shortfall <= DISASTER_IOS else Degree.FAILURE
