"""Who may take which soul: each refusal is a RuleViolation naming the soul's restriction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebound.core.errors import RuleViolation
from rulebound.rulesets.legacy.content import Catalogue, catalogue

if TYPE_CHECKING:
    from rulebound.rulesets.legacy.character import Character


def check_soul(
    soul_key: str, race_key: str, char_class: str = "", cat: Catalogue | None = None
) -> None:
    c = cat or catalogue()
    soul = c.soul(soul_key)
    race = c.race(race_key)
    rule = f"soul restriction ({soul.name})"
    if soul.races and race.key not in soul.races:
        allowed = ", ".join(c.races[r].name for r in soul.races)
        raise RuleViolation(rule, f"a {race.name} cannot take it; only {allowed}")
    if race.key in soul.forbidden_races:
        raise RuleViolation(rule, f"a {race.name} cannot take it")
    if char_class and char_class.strip().lower() in soul.forbidden_classes:
        raise RuleViolation(rule, f"a character of class {char_class!r} cannot take it")


def check_character(char: Character, cat: Catalogue | None = None) -> Character:
    """A hand-entered or loaded sheet: its race, origin and soul exist and the soul is allowed."""
    c = cat or catalogue()
    c.origin(char.origin)
    check_soul(char.soul, char.race, char.char_class, c)
    for key in char.affinities:
        c.affinity(key)
    if char.absorbed_soul is not None:
        c.soul(char.absorbed_soul)
    return char
