"""Free dice: the notation players type (``4d6kh3``, ``1d20+5 adv``, ``10d10>=7``), rolled
from an injected source with every die's story, and their exact odds.

One implementation for every front end: the table talk's ``/r``, inline ``[[1d20+3]]`` in
chat, Discord's ``/r``, and ``rulebound dice``. ``docs/notation.md`` lists the notation.

    expression = parse("4d6kh3")          # InvalidInput names the position and a tip
    rolled = roll(expression, source)      # faces from source, in a documented order
    found = odds(expression)               # Odds (exact), or NotComputed and why

Each name loads its module on first use, like ``rulebound.core``.
"""

from typing import TYPE_CHECKING

from rulebound.core.lazy import lazy_exports

if TYPE_CHECKING:
    from rulebound.core.dice.exact import NotComputed, Odds, odds, preview
    from rulebound.core.dice.inline import InlineMessage, InlineRoll, parse_inline, roll_inline
    from rulebound.core.dice.limits import DEFAULT_LIMITS, DiceLimits
    from rulebound.core.dice.nodes import Expression
    from rulebound.core.dice.parser import parse
    from rulebound.core.dice.render import roll_lines
    from rulebound.core.dice.roller import roll
    from rulebound.core.dice.story import DieRoll, Part, Roll

__getattr__ = lazy_exports(
    __name__,
    {
        "inline": ("InlineMessage", "InlineRoll", "parse_inline", "roll_inline"),
        "limits": ("DEFAULT_LIMITS", "DiceLimits"),
        "nodes": ("Expression",),
        "exact": ("NotComputed", "Odds", "odds", "preview"),
        "parser": ("parse",),
        "render": ("roll_lines",),
        "roller": ("roll",),
        "story": ("DieRoll", "Part", "Roll"),
    },
)

__all__ = [
    "DEFAULT_LIMITS",
    "DiceLimits",
    "DieRoll",
    "Expression",
    "InlineMessage",
    "InlineRoll",
    "NotComputed",
    "Odds",
    "Part",
    "Roll",
    "odds",
    "parse",
    "parse_inline",
    "preview",
    "roll",
    "roll_inline",
    "roll_lines",
]
