"""Which Legacy rules a record was rolled under, and what the first rules did differently.

``rulebound verify`` replays every logged record from its draws, so a record must replay
under the rules it was rolled under, not today's. Every record a new roll or action writes
names today's rules (``"rules": 2``); its follow-ups replay under the rules of their
chain's first record. A record that names none was logged before the rules were numbered
(a8deb00, 2026-12-07) and replays under the first rules, which no new play is rolled under.

The first rules differ from today's in two places only (rulings 69, 91 and 92), each a
question asked here and nowhere else:

- ``spares_unmodified``: whether a curse leaves an unmodified test alone;
- ``sheet_touches_contest``: whether the roller's sheet touches an opposed or extended
  check's roll as it is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from rulebound.core.errors import InvalidInput

Rules = Literal[1, 2]
"""The rules a record names (``"rules"``)."""

RULES: Final = 2
"""Today's rules: every new roll and action record names them."""

FIRST_RULES: Final = 1
"""The rules before a8deb00, kept only to replay the records logged under them."""

KNOWN: tuple[Rules, ...] = (FIRST_RULES, RULES)


def rules_of(record: Mapping[str, Any]) -> Rules:
    """The rules a record names: the first when it names none; a number this game does not
    know (a later version's, or a forgery) is refused rather than replayed as another."""
    found = record.get("rules", FIRST_RULES)
    for known in KNOWN:
        if found == known and type(found) is int:
            return known
    raise InvalidInput("record.rules", found, f"one of {', '.join(map(str, KNOWN))}, or none")


def named(rules: Rules) -> dict[str, Any]:
    """What a record writes for ``rules``: nothing for the first, so that a record logged
    under them dumps as it was logged."""
    return {} if rules == FIRST_RULES else {"rules": rules}


def spares_unmodified(rules: Rules) -> bool:
    """Whether a curse leaves an unmodified test alone (a luck swap's, the souls' luck
    checks): neither touches it nor is spent by it (ruling 69). Under the first rules it gave
    such a test disadvantage (two dice) and was spent by it."""
    return rules != FIRST_RULES


def sheet_touches_contest(rules: Rules) -> bool:
    """Whether the roller's sheet touches an opposed or extended check's roll as it is made:
    its curse and favour the first roll only, spent by it; an unconscious or dead roller
    refused (rulings 91, 92). Under the first rules the record's own check was rolled every
    time: a cursed roller's check carried the curse's disadvantage (``Character.check``
    added it then), so every roll of it took it, and the curse was never spent; an
    unconscious or dead roller rolled like anyone; favour was refused."""
    return rules != FIRST_RULES
