"""The Empty Reach: step dice, pushing, banes, degrading gear, help and opposed rolls."""

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
