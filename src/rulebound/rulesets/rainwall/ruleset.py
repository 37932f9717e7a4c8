"""Rainwall behind the common ``Ruleset`` protocol."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.base import Variant
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.odds import check_odds
from rulebound.rulesets.rainwall.request import RainwallRequest, parse_request
from rulebound.rulesets.rainwall.roll import RainwallResult, roll_check


class RainwallRuleset:
    """The d10 roll-under pool: trait dice, skill target, DR, bonus points."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self._limits = limits

    @property
    def key(self) -> str:
        return "rainwall"

    @property
    def title(self) -> str:
        return "Rainwall"

    @property
    def variants(self) -> tuple[Variant, ...]:
        return rules.VARIANTS

    def parse_request(self, payload: Mapping[str, object]) -> RainwallRequest:
        return parse_request(payload, self._limits)

    def roll(self, request: RainwallRequest, source: RandomSource) -> RainwallResult:
        return roll_check(request.checked(self._limits), source)

    def chances(self, request: RainwallRequest) -> Mapping[str, Fraction]:
        """The probability of each degree; they sum to 1."""
        result = check_odds(request.checked(self._limits))
        return {degree.value: p for degree, p in result.degrees.items()}


RULESET = RainwallRuleset()
