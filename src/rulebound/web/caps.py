"""Caps on what one form or sheet may hold: names, free text (notes), lists, nesting.

The request body is capped as a whole (``Settings.max_body_bytes``, 413); these
caps bound each value inside it, so a sheet or a roll form stays small enough to
store, render and replay. Dice per roll are capped by each ruleset's ``Limits``.
A value past a cap is an ``InvalidInput`` (400) naming its field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rulebound.core.errors import InvalidInput

MAX_NAME = 100
"""Member and character names (table names: 200, ``service.MAX_TABLE_NAME``)."""
MAX_TEXT = 4000
"""Any other text: notes, equipment, a form's free-text field."""
MAX_ITEMS = 200
"""Entries of one list or object (gear, talents, dice picked)."""
MAX_DEPTH = 8
"""Nesting of objects and lists in a sheet or form."""
SHOWN = 40
"""How much of a refused value an error message repeats."""
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters no text may hold (tabs and line breaks may); PostgreSQL refuses NUL."""
NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Names are one line: no control character at all."""
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f-\x9f\ufeff][^\x00-\x1f\x7f]*$"
"""The API schema's names: one line, with at least one visible character (``clean_name``
collapses whitespace, so a name of spaces alone is refused)."""


def shown(value: Any) -> Any:
    """The value to repeat in an error: itself if short, else its first SHOWN characters."""
    if value is None or isinstance(value, bool | int | float):
        return value
    text = value if isinstance(value, str) else repr(value)
    return value if len(text) <= SHOWN else text[:SHOWN] + "…"


def check_caps(value: Any, field: str = "", depth: int = 0) -> None:
    """Raise InvalidInput naming the first value past a cap (``field`` is its path)."""
    where = field or "form"
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise InvalidInput(where, shown(value), f"text of at most {MAX_TEXT} characters")
        if CONTROL.search(value):
            raise InvalidInput(where, shown(value), "text without control characters")
        return
    if not isinstance(value, Mapping | list | tuple):
        return
    if depth >= MAX_DEPTH:
        raise InvalidInput(where, shown(value), f"at most {MAX_DEPTH} levels of nesting")
    if len(value) > MAX_ITEMS:
        raise InvalidInput(where, f"{len(value)} items", f"at most {MAX_ITEMS} items")
    if isinstance(value, Mapping):
        for key, item in value.items():
            check_caps(str(key), field, depth + 1)
            check_caps(item, f"{field}.{key}" if field else str(key), depth + 1)
    else:
        for index, item in enumerate(value):
            check_caps(item, f"{where}[{index}]", depth + 1)


def check_sheet(sheet: Mapping[str, Any]) -> None:
    """A character's sheet: every value within the caps, and its name at most MAX_NAME."""
    check_caps(sheet)
    name = sheet.get("name")
    if isinstance(name, str) and len(name) > MAX_NAME:
        raise InvalidInput("name", shown(name), f"a name of at most {MAX_NAME} characters")
