"""A game's requests remembered per plain form.

A table repeats its forms (the same skill, the same check, turn after turn), and a
request is an immutable value, so a repeated form is read once: as d20 keeps each
expression it has parsed. Only a form of plain values is remembered, keyed so that
values of other types never meet (``True`` is not ``1``, a list is not a tuple).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

R = TypeVar("R")
MAX_REMEMBERED = 256
"""Forms each memo keeps at most; a full memo starts over."""
_PLAIN_TYPES = frozenset({str, int, bool, type(None)})
_TEXTS = frozenset({str})


def plain_key(values: Mapping[str, Any], variants: Mapping[str, str]) -> tuple[object, ...] | None:
    """A key for a form whose values are all plain (str, int, bool, None, or a list or
    tuple of str) and whose variants are all str: its names, the type of each value,
    the values (a list as a tuple) and the variants; None for any other form, which is
    not remembered."""
    given = tuple(values.values())
    kinds = tuple(map(type, given))
    if not _PLAIN_TYPES.issuperset(kinds):
        plain: list[object] = []
        for kind, value in zip(kinds, given, strict=True):
            if kind is list or kind is tuple:
                value = tuple(value)
                if not _TEXTS.issuperset(map(type, value)):
                    return None
            elif kind not in _PLAIN_TYPES:
                return None
            plain.append(value)
        given = tuple(plain)
    if not _TEXTS.issuperset(map(type, variants.values())):
        return None
    return (tuple(values), kinds, given, tuple(variants.items()))


class FormMemo(Generic[R]):
    """``make(values, variants)``, remembered per ``plain_key``; bounded, and a refusal
    (an exception) is never kept, so it reads the same every time."""

    __slots__ = ("_found", "_make")

    def __init__(self, make: Callable[[Mapping[str, Any], Mapping[str, str]], R]) -> None:
        self._make = make
        self._found: dict[tuple[object, ...], R] = {}

    def __call__(self, values: Mapping[str, Any], variants: Mapping[str, str]) -> R:
        key = plain_key(values, variants)
        if key is None:
            return self._make(values, variants)
        found = self._found.get(key)
        if found is None:
            found = self._make(values, variants)
            if len(self._found) >= MAX_REMEMBERED:
                self._found.clear()
            self._found[key] = found
        return found

    def __len__(self) -> int:
        return len(self._found)
