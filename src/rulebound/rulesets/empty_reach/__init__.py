"""The Empty Reach: step dice, pushing, banes, degrading gear, help and opposed rolls.

Each name is imported from its module on first use, so importing one module of the
package (the odds, say) does not load the rest.
"""

from typing import TYPE_CHECKING

from rulebound.core.lazy import lazy_exports

if TYPE_CHECKING:
    from rulebound.rulesets.empty_reach.character import (
        Character,
        GearItem,
        apply_push_costs,
        load_character,
        push_and_pay,
        request_for,
    )
    from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, Options, prepare
    from rulebound.rulesets.empty_reach.content import EmptyReachContent, default_content
    from rulebound.rulesets.empty_reach.roll import EmptyReachResult, PushCosts, push, roll_check
    from rulebound.rulesets.empty_reach.rules import StepDie
    from rulebound.rulesets.empty_reach.steps import Pool, apply_steps

__getattr__ = lazy_exports(
    __name__,
    {
        "character": (
            "Character",
            "GearItem",
            "apply_push_costs",
            "load_character",
            "push_and_pay",
            "request_for",
        ),
        "check": ("CheckRequest", "GearInUse", "Options", "prepare"),
        "content": ("EmptyReachContent", "default_content"),
        "roll": ("EmptyReachResult", "PushCosts", "push", "roll_check"),
        "rules": ("StepDie",),
        "steps": ("Pool", "apply_steps"),
    },
)

__all__ = [
    "Character",
    "CheckRequest",
    "EmptyReachContent",
    "EmptyReachResult",
    "GearInUse",
    "GearItem",
    "Options",
    "Pool",
    "PushCosts",
    "StepDie",
    "apply_push_costs",
    "apply_steps",
    "default_content",
    "load_character",
    "prepare",
    "push",
    "push_and_pay",
    "request_for",
    "roll_check",
]
