"""The pure core: exact distributions, injected randomness, roll records, errors, limits."""

from rulebound.core.canonical import canonical_json, digest, to_jsonable
from rulebound.core.distribution import Distribution, add_outcomes, sum_all
from rulebound.core.errors import (
    ContentError,
    InvalidInput,
    LimitExceeded,
    ReplayMismatch,
    RuleboundError,
    RuleViolation,
    UnknownRuleset,
)
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.core.random_source import (
    Draw,
    RandomSource,
    RecordingSource,
    ReplaySource,
    SeededSource,
    SystemSource,
)
from rulebound.core.trace import DieRecord, DieState, Modifier, Provenance, StepChange

__all__ = [
    "DEFAULT_LIMITS",
    "ContentError",
    "DieRecord",
    "DieState",
    "Distribution",
    "Draw",
    "InvalidInput",
    "LimitExceeded",
    "Limits",
    "Modifier",
    "Provenance",
    "RandomSource",
    "RecordingSource",
    "ReplayMismatch",
    "ReplaySource",
    "RuleViolation",
    "RuleboundError",
    "SeededSource",
    "StepChange",
    "SystemSource",
    "UnknownRuleset",
    "add_outcomes",
    "canonical_json",
    "digest",
    "sum_all",
    "to_jsonable",
]
