"""Values worked out once per table's choices: a bounded memo keyed by a mapping's items.

Every check reads its table's variants into the game's ``Options`` (and from there
its rules tables); a table keeps the same few choices, so the reading is remembered
per mapping of plain texts instead of being redone on every roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

T = TypeVar("T")

MAX_ENTRIES = 256


def by_items(build: Callable[[Mapping[str, object]], T]) -> Callable[[Mapping[str, object]], T]:
    """``build`` remembered per mapping whose keys and values are all plain ``str``.

    Anything else (another type of value, an unhashable one, a mapping ``build``
    refuses) is built (or refused) as before and not remembered, so an error reads the
    same every time. At most ``MAX_ENTRIES`` mappings are kept; a full memo starts over.
    """
    memo: dict[tuple[tuple[object, object], ...], T] = {}

    def remembered(values: Mapping[str, object]) -> T:
        try:
            key = tuple(values.items())
            hit = memo.get(key)
        except (TypeError, AttributeError):  # unhashable, or not a mapping: build says
            return build(values)
        if hit is None:
            hit = build(values)
            if all(type(k) is str and type(v) is str for k, v in key):
                if len(memo) >= MAX_ENTRIES:
                    memo.clear()
                memo[key] = hit
        return hit

    remembered.__doc__ = build.__doc__
    remembered.__wrapped__ = build  # type: ignore[attr-defined]
    return remembered
