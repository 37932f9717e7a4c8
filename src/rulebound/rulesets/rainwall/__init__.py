"""Rainwall: a d10 roll-under pool with bonus points, IoS and degrees of success."""

from rulebound.rulesets.rainwall.bonus import Alternative, alternatives, optimal_allocation
from rulebound.rulesets.rainwall.odds import RainwallOdds, check_odds
from rulebound.rulesets.rainwall.request import RainwallRequest, parse_request
from rulebound.rulesets.rainwall.roll import RainwallResult, reallocate, roll_check
from rulebound.rulesets.rainwall.rules import Degree, Options

__all__ = [
    "Alternative",
    "Degree",
    "Options",
    "RainwallOdds",
    "RainwallRequest",
    "RainwallResult",
    "alternatives",
    "check_odds",
    "optimal_allocation",
    "parse_request",
    "reallocate",
    "roll_check",
]
