"""The Empty Reach behind the common ``Ruleset`` protocol."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from pydantic import ValidationError

from rulebound.core.random_source import RandomSource
from rulebound.rulesets.base import Variant
from rulebound.rulesets.content import input_error
from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.odds import success_distribution
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, roll_check


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
            raise input_error(exc) from None

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
