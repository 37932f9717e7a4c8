"""rulebound: exact rules, exact odds and a virtual table for tabletop skill checks.

The library in three lines (docs/library.md has more)::

    import rulebound
    rainwall = rulebound.game("rainwall")
    rainwall.chances(dice=7, skill=5, dr=4, bonus=3).success   # an exact Fraction

The names here are the public API, with the game contract (``rulebound.rulesets.contract``),
the core's distributions and random sources (``rulebound.core``) and each package's
``__all__``; every other module is internal and may change. Each name loads its module on
first use, so ``import rulebound`` loads no game.
"""

import typing as _typing

from rulebound.core.lazy import lazy_exports as _lazy_exports

__version__ = "0.1.0"

if _typing.TYPE_CHECKING:
    from rulebound._api import Ruleset, game, games
    from rulebound.core.distribution import Distribution
    from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation, UnknownRuleset
    from rulebound.core.random_source import RandomSource, SeededSource, SystemSource
    from rulebound.rulesets.contract import Chances, Game
    from rulebound.rulesets.grid import OddsGrid
    from rulebound.rulesets.views import Card

__getattr__ = _lazy_exports(
    __name__,
    {
        "_api": ("Ruleset", "game", "games"),
        "core.distribution": ("Distribution",),
        "core.errors": ("InvalidInput", "RuleViolation", "RuleboundError", "UnknownRuleset"),
        "core.random_source": ("RandomSource", "SeededSource", "SystemSource"),
        "rulesets.contract": ("Chances", "Game"),
        "rulesets.grid": ("OddsGrid",),
        "rulesets.views": ("Card",),
    },
)

__all__ = [
    "Card",
    "Chances",
    "Distribution",
    "Game",
    "InvalidInput",
    "OddsGrid",
    "RandomSource",
    "RuleViolation",
    "RuleboundError",
    "Ruleset",
    "SeededSource",
    "SystemSource",
    "UnknownRuleset",
    "__version__",
    "game",
    "games",
]
