"""The expressions of avrae/d20's own tests (its tests folder: test_dice.py, test_utils.py,
test_arguments.py), as test data, each with an independent oracle for its exact odds.

``ROLLED`` holds those d20 rolls, ``REFUSED`` those it refuses (with its error). An oracle is
icepool's die for the same meaning, or d20's own total when the expression has no dice.
``D_PERCENT`` lists the expressions whose ``d%`` rulebound reads as a d100 (d20 rolls a
tens die, 0 to 90): the documented difference of docs/notation.md.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

from rulebound.core.dice.limits import DEFAULT_LIMITS

EXPLOSIONS = DEFAULT_LIMITS.max_explosions
d1, d2, d4, d6, d8, d20, d100 = (icepool.d(n) for n in (1, 2, 4, 6, 8, 20, 100))


def const(value: int) -> Any:
    return icepool.Die([value])


def _cases() -> dict[str, Callable[[], Any] | None]:
    """Expression -> its icepool die (None: no dice; d20's own total is the oracle)."""
    return {
        # test_dice.py
        "1d20": lambda: d20,
        "1d%": lambda: d100,
        "1+1": None,
        "4d6kh3": lambda: d6.pool(4).highest(3).sum(),
        "(1)": None,
        "(1,)": None,
        "((1d6))": lambda: d6,
        "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)": lambda: (
            d8.pool(3).highest(2).sum()
            + 9
            + (9 @ d2.explode([2], depth=EXPLOSIONS)).map(lambda x: Fraction(x + 3, 2))
        ).map(lambda x: 4 * x),
        "(1d4, 2+2, 3d6kl1)kh1": lambda: icepool.highest(d4, const(4), d6.pool(3).lowest(1).sum()),
        "((10d6kh5)kl2)kh1": lambda: d6.pool(10)[6],
        "(((1d6)))": lambda: d6,
        "1 + 3 * 6": None,
        "1 + (3 * 6)": None,
        "(1 + 3) * 6": None,
        "1 + 2 + 3": None,
        "(1 + 2) + 3": None,
        "1 + (2 + 3)": None,
        "1 + 2 == 2": None,
        "1 + (2 == 2)": None,
        "10d6k1k2k3": lambda: 10 @ d6.map(lambda x: x if x <= 3 else 0),
        "10d6k1ph1": lambda: (10 @ (d6 == 1)).map(lambda n: max(n - 1, 0)),
        "(1, 2, 3)k1k2": None,
        "1": None,
        "10000": None,
        "1.5": None,
        "0.5": None,
        ".5": None,
        "0d6": lambda: const(0),
        "d6": lambda: d6,
        "1d6": lambda: d6,
        "2d6": lambda: 2 @ d6,
        "0d%": lambda: const(0),
        "d%": lambda: d100,
        "2d%": lambda: 2 @ d100,
        "(1, 1)": None,
        "+1": None,
        "-1": None,
        "--1": None,
        "-+-++---+1": None,
        "2 + 2": None,
        "2 - 2": None,
        "2 * 5": None,
        "15 / 2": None,
        "15 // 2": None,
        "13 % 2": None,
        "2 + 1d6": lambda: d6 + 2,
        "2 * 1d6": lambda: 2 * d6,
        "60 / 1d6": lambda: d6.map(lambda x: Fraction(60, x)),
        "60 // 1d6": lambda: d6.map(lambda x: 60 // x),
        "1d100 % 10": lambda: d100.map(lambda x: x % 10),
        "1d% % 10": lambda: d100.map(lambda x: x % 10),
        "1 == 1": None,
        "1 == 2": None,
        "1 > 1": None,
        "2 > 1": None,
        "1 < 1": None,
        "1 < 2": None,
        "1 >= 1": None,
        "1 >= 2": None,
        "1 <= 1": None,
        "2 <= 1": None,
        "1 != 1": None,
        "1 != 2": None,
        "(1, 2, 3, 4, 5)k3": None,
        "(1, 2, 3, 4, 5)k<3": None,
        "(1, 2, 3, 4, 5)k>3": None,
        "(1, 2, 3, 4, 5)kl2": None,
        "(1, 2, 3, 4, 5)kh2": None,
        "(1)k1": None,
        "(1)k2": None,
        "(1, 2, 3, 4, 5)k1k2": None,
        "(1, 2, 3, 4, 5)kh1kl1": None,
        "(1, 2, 3, 4, 5)p3": None,
        "(1, 2, 3, 4, 5)p1p2": None,
        "(1, 2, 3, 4, 5)ph1pl1": None,
        "1d20rr<20": lambda: d20.reroll(lambda x: x < 20, depth="inf"),
        "1d20rr>1": lambda: d20.reroll(lambda x: x > 1, depth="inf"),
        # icepool divides by zero rerolling every face once: a die rerolled once is a die
        "1d1ro1": lambda: d1,
        "1d6rol1": lambda: d6,
        "1d1ra1": lambda: const(2),
        "1d6ral1": lambda: 2 @ d6,
        "1d2e2": lambda: d2.explode([2], depth=EXPLOSIONS),
        "10d6mi6": lambda: 10 @ d6.map(lambda x: max(x, 6)),
        "10d6mi10": lambda: 10 @ d6.map(lambda x: max(x, 10)),
        "10d6mi2": lambda: 10 @ d6.map(lambda x: max(x, 2)),
        "10d6ma1": lambda: 10 @ d6.map(lambda x: min(x, 1)),
        "10d6ma0": lambda: 10 @ d6.map(lambda x: min(x, 0)),
        "10d6ma5": lambda: 10 @ d6.map(lambda x: min(x, 5)),
        "1+2+3": None,
        # test_utils.py
        "1d20+1": lambda: d20 + 1,
        "d20-1d4": lambda: d20 - d4,
        "1d20ro1": lambda: d20.reroll([1], depth=1),
        "1 [a] + 2 + 3 [b] + 4": None,
        "(1 [a])": None,
        "1 [a] + 2 + 3": None,
        "1 + 2 + 3 + 4": None,
        "8d6": lambda: 8 @ d6,
        "8d6 [fire]": lambda: 8 @ d6,
        "1d20 + 4d6 + 3": lambda: d20 + 4 @ d6 + 3,
        "(1d6, 1d6)kh1": lambda: d6.pool(2).highest(1).sum(),
        "(1, 2, 3)": None,
        "(1, 2, 3) + (4, 5, 6)": None,
        "-1d8 + 4 - (3, 1d4)kh1": lambda: -d8 + 4 - icepool.highest(const(3), d4),
        # test_arguments.py (with comments allowed)
        "1d20 foo bar": lambda: d20,
        "1d20 keep something": lambda: d20,
        "1d20 damage": lambda: d20,
        "1d20 **bold**": lambda: d20,
        "1d20 please save me from this parsing weirdness": lambda: d20,
    }


ROLLED = _cases()
D_PERCENT = ("1d%", "d%", "2d%", "1d% % 10")
COMMENTED = (
    "1d20 foo bar",
    "1d20 keep something",
    "1d20 damage",
    "1d20 **bold**",
    "1d20 please save me from this parsing weirdness",
)
ADVANTAGE = {
    # test_arguments.py rolls "1d20" at advantage and at disadvantage through an argument;
    # rulebound writes it as a word after the expression.
    "1d20 adv": lambda: d20.pool(2).highest(1).sum(),
    "1d20 dis": lambda: d20.pool(2).lowest(1).sum(),
}
REFUSED = (
    "1001d6",
    "6d0",
    "10d6mil1",
    "1d20rr<21",
    "1d1rr1",
    "1d20e<21",
    "1d1e1",
    "10 / 0",
    "10 // 0",
    "10 % 0",
)
"""d20 refuses these (too many rolls, a 0-sided die, a bad selector, a zero divisor)."""
