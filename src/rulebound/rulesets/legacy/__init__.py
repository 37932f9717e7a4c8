"""Legacy Machines and Magic: d20 roll-under checks, characters, fate and combat bookkeeping.

The game behind the contract is ``rulebound.rulesets.legacy.game.GAME``. Each name is
imported from its module on first use, so listing the games never loads this one.
"""

from typing import TYPE_CHECKING

from rulebound.core.lazy import lazy_exports

if TYPE_CHECKING:
    from rulebound.rulesets.legacy.character import Character
    from rulebound.rulesets.legacy.checks import CheckRequest, LegacyResult, reroll, roll_check
    from rulebound.rulesets.legacy.game import Legacy
    from rulebound.rulesets.legacy.odds import check_chances, opposed_chances, p_success
    from rulebound.rulesets.legacy.request import LegacyRoll
    from rulebound.rulesets.legacy.rules import Edge, Outcome, Scale

__getattr__ = lazy_exports(
    __name__,
    {
        "character": ("Character",),
        "checks": ("CheckRequest", "LegacyResult", "reroll", "roll_check"),
        "game": ("Legacy",),
        "odds": ("check_chances", "opposed_chances", "p_success"),
        "request": ("LegacyRoll",),
        "rules": ("Edge", "Outcome", "Scale"),
    },
)

__all__ = [
    "Character",
    "CheckRequest",
    "Edge",
    "Legacy",
    "LegacyResult",
    "LegacyRoll",
    "Outcome",
    "Scale",
    "check_chances",
    "opposed_chances",
    "p_success",
    "reroll",
    "roll_check",
]
