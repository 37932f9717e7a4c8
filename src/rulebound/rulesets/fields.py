"""The fields every game's forms are built of, and the sheet values they name, written once.

``number``, ``switch`` and ``choices`` build the common ``contract.Field``s. An edit
form names each field by its path into the sheet's JSON (``skills.Lockpicking.score``):
``at`` reads the value there and ``put`` writes it, a blank (None) removing the key, so a
game's ``Sheets.view`` and ``Sheets.edit`` say only what is particular to its sheet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from rulebound.rulesets.contract import Choice, Field

Path = str | tuple[str, ...]
"""Where a value sits in a sheet: a dotted name (``skills.firearms.bonus``), or its keys
(``("skills", name, "score")``) where a key is a content name that may hold a dot."""


def choices(items: Mapping[str, str] | Iterable[str], *first: Choice) -> tuple[Choice, ...]:
    """``first``, then one choice per item: a mapping's values label its keys, a plain
    value is its own label."""
    if isinstance(items, Mapping):
        return (*first, *(Choice(value, label) for value, label in items.items()))
    return (*first, *(Choice(value, value) for value in items))


def number(
    name: str, label: str, low: int | None = None, high: int | None = None, **more: Any
) -> Field:
    """A whole number from ``low`` to ``high`` (None: no bound)."""
    return Field(name, label, "int", minimum=low, maximum=high, **more)


def switch(name: str, label: str, **more: Any) -> Field:
    """Yes or no, no unless ticked."""
    return Field(name, label, "bool", default=False, **more)


def grouped(group: str, fields: Iterable[Field]) -> list[Field]:
    """The fields, shown together under ``group`` ("Skills")."""
    return [replace(field, group=group) for field in fields]


def at(sheet: Mapping[str, Any], path: Path) -> Any:
    """The value at a path of a sheet (``traits.Dexterity``), None where there is none."""
    node: Any = sheet
    for key in _keys(path):
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def put(sheet: dict[str, Any], path: Path, value: Any) -> None:
    """Write ``value`` at a path of ``sheet``, None removing the key.

    Each dict on the way is copied before it changes, so a sheet copied with ``dict(sheet)``
    can be edited without touching the original.
    """
    *parents, last = _keys(path)
    node = sheet
    for key in parents:
        child = node.get(key)
        if child is None and value is None:
            return
        copied = dict(child or {})
        node[key] = copied
        node = copied
    if value is None:
        node.pop(last, None)
    else:
        node[last] = value


def _keys(path: Path) -> tuple[str, ...]:
    return tuple(path.split(".")) if isinstance(path, str) else path
