r"""Caps on what one form or sheet may hold: names, free text (notes), numbers, lists, nesting.

The request body is capped as a whole (``Settings.max_body_bytes``, 413); these
caps bound each value inside it, so a sheet or a roll form stays small enough to
store, render and replay. Dice per roll are capped by each ruleset's ``Limits``.
A value past a cap is an ``InvalidInput`` (400) naming its field.

Text is valid UTF-8 (JSON's ``"\ud800"`` is a lone surrogate, which no database or
page can hold); numbers are finite and at most 15 digits. A name is one line with at
least one visible character and no bidirectional control (``Gina\u202e (GM)`` would
read as someone else).
"""

from __future__ import annotations

import math
import re
import unicodedata
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
MAX_NUMBER = 10**15
"""Largest magnitude of a number in a form or sheet (no rule needs more)."""
SHOWN = 40
"""How much of a refused value an error message repeats."""
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters no text may hold (tabs and line breaks may); PostgreSQL refuses NUL."""
NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Names are one line: no control character at all."""
SURROGATE = re.compile(r"[\ud800-\udfff]")
"""A lone surrogate: not text (it cannot be encoded as UTF-8)."""
BIDI_CONTROL = re.compile(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Marks and overrides that reorder the text around them."""
_BIDI = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_LINE = r"\x00-\x1f\x7f" + _BIDI
_SHOWS_NOTHING = (
    r"\s\x00-\x1f\x7f-\x9f\u00ad\u115f\u1160\u180e\u200b-\u200d\u2060-\u2064\u3164\ufeff"
)
NAME_PATTERN = f"^[^{_LINE}]*[^{_SHOWS_NOTHING}{_BIDI}][^{_LINE}]*$"
"""The API schema's names: one line, no bidirectional control, at least one visible
character (``clean_name`` checks that fully, by Unicode category)."""
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})
"""Unicode categories that show nothing on their own (controls, format, marks, spaces)."""


def shown(value: Any) -> Any:
    """The value to repeat in an error: itself if short, else its first SHOWN characters."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value if abs(value) <= MAX_NUMBER else "(a number past the cap)"
    text = value if isinstance(value, str) else repr(value)
    return value if len(text) <= SHOWN else text[:SHOWN] + "…"


def clean_name(field: str, value: object, limit: int = MAX_NAME) -> str:
    """A name as stored: one line, spaces collapsed, 1 to ``limit`` characters, visible."""
    raw = str(value or "")
    if NAME_CONTROL.search(raw) or SURROGATE.search(raw):
        raise InvalidInput(field, shown(value), "a name without control characters")
    if BIDI_CONTROL.search(raw):
        expected = "a name without bidirectional controls (they can make it read as another)"
        raise InvalidInput(field, shown(value), expected)
    text = " ".join(raw.split())
    if not 1 <= len(text) <= limit:
        raise InvalidInput(field, shown(value), f"a name of 1 to {limit} characters")
    if all(unicodedata.category(ch) in INVISIBLE for ch in text):
        raise InvalidInput(field, shown(value), "a name with at least one visible character")
    return text


def check_caps(value: Any, field: str = "", depth: int = 0) -> None:
    """Raise InvalidInput naming the first value past a cap (``field`` is its path)."""
    where = field or "form"
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise InvalidInput(where, shown(value), f"text of at most {MAX_TEXT} characters")
        if CONTROL.search(value) or SURROGATE.search(value):
            raise InvalidInput(where, shown(value), "text without control characters")
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(where, str(value), "a finite number")
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        raise InvalidInput(where, "(a number past the cap)", f"a number of at most {MAX_NUMBER:,}")
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
    """A character's sheet: every value within the caps, and its name a name (``clean_name``)."""
    check_caps(sheet)
    name = sheet.get("name")
    if isinstance(name, str) and clean_name("name", name) != " ".join(name.split()):
        raise InvalidInput("name", shown(name), f"a name of at most {MAX_NAME} characters")
