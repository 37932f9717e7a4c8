"""The Empty Reach behind the common ``Ruleset`` protocol."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.base import Variant
from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.odds import success_distribution
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, roll_check


def validation_to_input_error(exc: ValidationError, root: str = "request") -> InvalidInput:
    """The first problem as our own error: the field's path, the value, and what is accepted.

    A validator that raised ``InvalidInput`` keeps its value and expectation (pydantic would
    otherwise show the whole input and a "Value error, ..." message).
    """
    problem = exc.errors()[0]
    field = ".".join(str(part) for part in problem["loc"])
    cause = problem.get("ctx", {}).get("error")
    if isinstance(cause, InvalidInput):
        return InvalidInput(field or cause.field, cause.value, cause.expected, tip=cause.tip)
    message = problem["msg"].removeprefix("Value error, ")
    return InvalidInput(field or root, problem.get("input"), message)


class EmptyReachRuleset:
    key = "empty-reach"
    title = "The Empty Reach"
    variants = (
        Variant(
            "gear_banes",
            ("base-dice", "gear-dice"),
            "base-dice",
            "Which banes get the 2-in-6 gear check: those on the base dice when gear is used, "
            "or only 1s on the extra dice an item grants.",
        ),
        Variant(
            "tie_break",
            ("fail", "reroll"),
            "fail",
            "An opposed tie fails the active side, or both sides roll again.",
        ),
    )

    def parse_request(self, payload: Mapping[str, object]) -> CheckRequest:
        try:
            return CheckRequest.model_validate(payload)
        except ValidationError as exc:
            raise validation_to_input_error(exc) from None

    def roll(self, request: CheckRequest, source: RandomSource) -> EmptyReachResult:
        return roll_check(prepare(request), source)

    def chances(self, request: CheckRequest) -> dict[str, Fraction]:
        counts = success_distribution(prepare(request))
        chances = {"success": counts.probability_where(lambda n: n >= 1)}
        chances |= {
            f"{n} success" + ("" if n == 1 else "es"): p for n, p in counts.probabilities().items()
        }
        return chances


RULESET = EmptyReachRuleset()
