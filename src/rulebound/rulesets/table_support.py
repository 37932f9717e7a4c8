"""Pieces every table adapter needs: form values, records of draws, and the optional parts.

Browser forms post strings (and nothing at all for an unticked box), JSON
clients post typed values; these readers accept both and name the field when
a value is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, RandomSource, ReplaySource
from rulebound.rulesets.table import ActionView, CreationStep, Play, Record, Sheet, TablePlay

TRUE_WORDS = frozenset({"on", "true", "1", "yes"})


def form_int(form: Mapping[str, Any], name: str) -> int | None:
    """A whole number; None when the field is blank or missing."""
    value = form.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise InvalidInput(name, value, "a whole number")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise InvalidInput(name, value, "a whole number") from None


def form_int_or(form: Mapping[str, Any], name: str, default: int = 0) -> int:
    value = form_int(form, name)
    return default if value is None else value


def form_flag(form: Mapping[str, Any], name: str) -> bool:
    value = form.get(name, False)
    if isinstance(value, str):
        return value.strip().lower() in TRUE_WORDS
    return bool(value)


def form_text(form: Mapping[str, Any], name: str) -> str | None:
    """A trimmed string; None when blank or missing."""
    value = form.get(name)
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise InvalidInput(name, value, "a string")
    return value.strip() or None


def form_strings(form: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """The ticked values of a multi-select (one string, or a list)."""
    value = form.get(name) or ()
    if isinstance(value, str):
        return (value,) if value else ()
    if not isinstance(value, list | tuple):
        raise InvalidInput(name, value, "a list of choices")
    return tuple(str(v) for v in value if v)


def form_int_map(form: Mapping[str, Any], group: str, current: Mapping[str, int]) -> dict[str, int]:
    """Apply ``group.<name>`` number fields to a mapping; a blank field removes the name."""
    updated = dict(current)
    for key in form:
        prefix, _, name = key.partition(".")
        if prefix != group or not name:
            continue
        value = form_int(form, key)
        if value is None:
            updated.pop(name, None)
        else:
            updated[name] = value
    return updated


def draws_json(draws: Sequence[Draw]) -> list[list[int]]:
    return [[d.sides, d.face] for d in draws]


def replay_draws(record: Record) -> ReplaySource:
    """A source that feeds back the draws a record stored."""
    try:
        return ReplaySource(Draw(int(s), int(f)) for s, f in record["draws"])
    except (KeyError, TypeError, ValueError):
        raise InvalidInput(
            "record.draws", record.get("draws"), "a list of [sides, face] pairs"
        ) from None


class TableDefaults:
    """The optional parts for a ruleset that has none: no sheet actions, GM tools or wizard."""

    title = "this ruleset"

    def sheet_actions(self, sheet: Sheet) -> tuple[ActionView, ...]:
        return ()

    def sheet_act(
        self, sheet: Sheet, action: str, params: Mapping[str, Any], source: RandomSource
    ) -> Play:
        raise InvalidInput("action", action, f"a sheet action {self.title} offers (none)")

    def table_actions(self) -> tuple[ActionView, ...]:
        return ()

    def table_act(
        self,
        sheets: Mapping[str, Sheet],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> TablePlay:
        raise InvalidInput("action", action, f"a game-master tool {self.title} offers (none)")

    def creation(
        self, state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
    ) -> CreationStep | None:
        return None
