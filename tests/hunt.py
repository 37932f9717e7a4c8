"""How many examples a property test draws: its own budget, times ten in a deep hunt.

``RULEBOUND_HYPOTHESIS=deep`` (tests/conftest.py) loads a profile of 1,000 examples for the
tests that name no budget; the tests that name one pass it through ``examples`` so that a
deep hunt scales them too.
"""

import os

DEEP = os.environ.get("RULEBOUND_HYPOTHESIS") == "deep"


def examples(budget: int) -> int:
    return budget * 10 if DEEP else budget
