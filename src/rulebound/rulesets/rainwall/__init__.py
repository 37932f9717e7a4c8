"""Rainwall: a d10 roll-under pool with bonus points, IoS and degrees of success.

Each name is imported from its module on first use, so importing one module of the
package (the odds, say) does not load the rest.
"""

from typing import TYPE_CHECKING

from rulebound.core.lazy import lazy_exports

if TYPE_CHECKING:
    from rulebound.rulesets.rainwall.bonus import Alternative, alternatives, optimal_allocation
    from rulebound.rulesets.rainwall.odds import RainwallOdds, check_odds
    from rulebound.rulesets.rainwall.request import RainwallRequest, parse_request
    from rulebound.rulesets.rainwall.roll import RainwallResult, reallocate, roll_check
    from rulebound.rulesets.rainwall.rules import Degree, Options

__getattr__ = lazy_exports(
    __name__,
    {
        "bonus": ("Alternative", "alternatives", "optimal_allocation"),
        "odds": ("RainwallOdds", "check_odds"),
        "request": ("RainwallRequest", "parse_request"),
        "roll": ("RainwallResult", "reallocate", "roll_check"),
        "rules": ("Degree", "Options"),
    },
)

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
