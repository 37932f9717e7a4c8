"""Ghostburn: 2d10 plus stacking bonuses against a Difficulty Level ladder, read on a chart.

The game behind the one contract is ``rulebound.rulesets.ghostburn.game.GAME``. Each name
is imported from its module on first use, so loading the package loads no more than asked
for.
"""

from typing import TYPE_CHECKING

from rulebound.core.lazy import lazy_exports

if TYPE_CHECKING:
    from rulebound.rulesets.ghostburn.character import Character, load_character
    from rulebound.rulesets.ghostburn.chart import Band, Chart
    from rulebound.rulesets.ghostburn.content import GhostburnContent, load_content
    from rulebound.rulesets.ghostburn.game import Ghostburn
    from rulebound.rulesets.ghostburn.ladder import Difficulty, Ladder
    from rulebound.rulesets.ghostburn.odds import band_odds, p_success
    from rulebound.rulesets.ghostburn.request import CheckRequest, LuckPool
    from rulebound.rulesets.ghostburn.roll import GhostburnResult

__getattr__ = lazy_exports(
    __name__,
    {
        "character": ("Character", "load_character"),
        "chart": ("Band", "Chart"),
        "content": ("GhostburnContent", "load_content"),
        "game": ("Ghostburn",),
        "ladder": ("Difficulty", "Ladder"),
        "odds": ("band_odds", "p_success"),
        "request": ("CheckRequest", "LuckPool"),
        "roll": ("GhostburnResult",),
    },
)

__all__ = [
    "Band",
    "Character",
    "Chart",
    "CheckRequest",
    "Difficulty",
    "Ghostburn",
    "GhostburnContent",
    "GhostburnResult",
    "Ladder",
    "LuckPool",
    "band_odds",
    "load_character",
    "load_content",
    "p_success",
]
