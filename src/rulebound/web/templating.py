"""Jinja2 helpers: field widgets need a few filters; autoescape is on for every template."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from fastapi.templating import Jinja2Templates

from rulebound.core.errors import RuleboundError
from rulebound.rulesets.contract import ActionView, Field
from rulebound.rulesets.forms import initial_values as form_values
from rulebound.rulesets.registry import get_game
from rulebound.web.views import PRIVACY_LABELS

DIE_SHAPES = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 100: "d100"}


def die_shape(sides: int) -> str:
    return DIE_SHAPES.get(sides, "dx")


def selected(field: Any, value: Any, choice: str) -> bool:
    """Whether a choice is the field's current value (or among its values)."""
    if isinstance(value, list | tuple | set):
        return choice in {str(v) for v in value}
    return value is not None and str(value) == choice


def grouped(fields: Sequence[Field]) -> list[tuple[str, list[Field]]]:
    """Runs of fields sharing a group, in the adapter's order."""
    runs: list[tuple[str, list[Field]]] = []
    for field in fields:
        if runs and runs[-1][0] == field.group:
            runs[-1][1].append(field)
        else:
            runs.append((field.group, [field]))
    return runs


def field_kinds(fields: Sequence[Field]) -> str:
    return json.dumps([[f.name, f.kind] for f in fields])


def is_multiline(field: Field | Mapping[str, Any], value: Any) -> bool:
    """Text fields shown as a textarea (``field`` may be a stored card's field as a dict)."""
    get = field.get if isinstance(field, Mapping) else lambda key: getattr(field, key, None)
    if get("kind") != "text":
        return False
    return bool(get("multiline")) or "\n" in str(value or "")


def defaults(fields: Sequence[Field]) -> dict[str, Any]:
    return form_values(fields, {})


@cache
def unseen_follow_ups(ruleset: str) -> tuple[ActionView, ...]:
    """What the roller of a blind roll may still do unseen (the same for every result)."""
    try:
        return get_game(ruleset).unseen_follow_ups
    except RuleboundError:
        return ()


def configure(templates: Jinja2Templates) -> None:
    env = templates.env
    env.autoescape = True
    env.auto_reload = False  # compiled once: no file check on every render
    env.filters["die_shape"] = die_shape
    env.filters["field_kinds"] = field_kinds
    env.globals["selected"] = selected
    env.globals["grouped"] = grouped
    env.globals["defaults"] = defaults
    env.globals["is_multiline"] = is_multiline
    env.globals["privacy_labels"] = PRIVACY_LABELS
    env.globals["unseen_follow_ups"] = unseen_follow_ups
