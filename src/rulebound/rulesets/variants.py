"""A table's rules variants, parsed and validated once for every game and front end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.core.keys import find_key
from rulebound.rulesets.contract import Variant


def resolve(known: Sequence[Variant], given: Mapping[str, Any] | None) -> dict[str, str]:
    """Every variant with its choice: the given one (matched loosely), else the default.

    Unknown variants and unknown choices are errors naming ``variants.<key>``.
    """
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise InvalidInput("variants", given, "an object of variant key to choice")
    by_key = {v.key: v for v in known}
    problems: list[InvalidInput] = []
    picked: dict[str, str] = {}
    for raw_key, raw_value in given.items():
        key = find_key(by_key, str(raw_key))
        if key is None:
            expected = (
                "one of " + ", ".join(by_key) if by_key else "no variants (this game has none)"
            )
            problems.append(InvalidInput(f"variants.{raw_key}", raw_key, expected))
            continue
        variant = by_key[key]
        if raw_value is None or raw_value == "":
            continue
        choice = find_key(variant.choices, str(raw_value))
        if choice is None or isinstance(raw_value, bool):
            expected = "one of " + ", ".join(variant.choices)
            problems.append(InvalidInput(f"variants.{key}", raw_value, expected))
            continue
        picked[key] = choice
    raise_all(problems)
    return {v.key: picked.get(v.key, v.default) for v in known}


def described(known: Sequence[Variant], chosen: Mapping[str, str]) -> list[tuple[str, str]]:
    """(variant in words, choice in words) for each variant, in the game's order."""
    return [(v.label or v.key, v.words(chosen.get(v.key, v.default))) for v in known]


def changed(known: Sequence[Variant], chosen: Mapping[str, str]) -> list[tuple[str, str]]:
    """(key, choice) of each variant the table changed from its default, in the game's order."""
    return [(v.key, chosen[v.key]) for v in known if chosen.get(v.key, v.default) != v.default]
