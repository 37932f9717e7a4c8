"""The pure core: exact distributions, injected randomness, roll records, errors, limits.

Each name is imported from its module on first use (``from rulebound.core import X``
works as before), so importing one core module does not load the others.
"""

from typing import TYPE_CHECKING

from rulebound.core.lazy import lazy_exports

if TYPE_CHECKING:
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

__getattr__ = lazy_exports(
    __name__,
    {
        "canonical": ("canonical_json", "digest", "to_jsonable"),
        "distribution": ("Distribution", "add_outcomes", "sum_all"),
        "errors": (
            "ContentError",
            "InvalidInput",
            "LimitExceeded",
            "ReplayMismatch",
            "RuleboundError",
            "RuleViolation",
            "UnknownRuleset",
        ),
        "limits": ("DEFAULT_LIMITS", "Limits"),
        "random_source": (
            "Draw",
            "RandomSource",
            "RecordingSource",
            "ReplaySource",
            "SeededSource",
            "SystemSource",
        ),
        "trace": ("DieRecord", "DieState", "Modifier", "Provenance", "StepChange"),
    },
)

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
