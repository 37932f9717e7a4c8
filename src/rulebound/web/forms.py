"""Turn posted HTML forms into the values a ruleset's ``Field``s describe, and back.

The same parser serves the roll dialog, the sheet form, follow-up and sheet
actions, and guided creation: the adapter's ``Field`` list says which names are
lists (``multiselect``, ``dice``), which are booleans and which are numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from rulebound.rulesets.table import Field

TRUE_WORDS = frozenset({"on", "true", "1", "yes"})
INT_PATTERN = re.compile(r"[+-]?\d{1,9}")


class MultiDict(Protocol):
    def getlist(self, key: str) -> list[Any]: ...

    def __contains__(self, key: object) -> bool: ...


def _kinds(fields: Iterable[Field]) -> dict[str, str]:
    kinds: dict[str, str] = {}
    for field in fields:
        kinds.setdefault(field.name, field.kind)
    return kinds


def parse_form(fields: Sequence[Field], data: MultiDict) -> dict[str, Any]:
    """Values by field name; a missing checkbox is False, a missing select is left out."""
    parsed: dict[str, Any] = {}
    for name, kind in _kinds(fields).items():
        values = [v for v in data.getlist(name) if isinstance(v, str)]
        if kind == "multiselect":
            parsed[name] = values
        elif kind == "dice":
            parsed[name] = [int(v) if INT_PATTERN.fullmatch(v) else v for v in values]
        elif kind == "bool":
            parsed[name] = any(v.lower() in TRUE_WORDS for v in values)
        elif values:
            value = values[-1].strip() if kind == "int" else values[-1]
            parsed[name] = int(value) if kind == "int" and INT_PATTERN.fullmatch(value) else value
    return parsed


def field_for_error(fields: Sequence[Field], error_field: str) -> str | None:
    """The form field an ``InvalidInput.field`` points at (exact, or its dotted/spaced prefix)."""
    names = [f.name for f in fields]
    if error_field in names:
        return error_field
    for name in sorted(names, key=len, reverse=True):
        if error_field.startswith((name + ".", name + " ", name + "[")):
            return name
    head = error_field.split(" ")[0].split(".")[0]
    return head if head in names else None


def form_values(fields: Sequence[Field], values: Mapping[str, Any]) -> dict[str, Any]:
    """Current values for a form: the given ones, else each field's default."""
    result = {}
    for field in fields:
        if field.name in values:
            result[field.name] = values[field.name]
        elif field.default is not None:
            result[field.name] = field.default
    return result


def is_multiline(field: Field | Mapping[str, Any], value: Any) -> bool:
    """Text fields shown as a textarea (``field`` may be a stored card's field as a dict)."""
    kind, label = (
        (field.get("kind"), str(field.get("label", "")))
        if isinstance(field, Mapping)
        else (field.kind, field.label)
    )
    return kind == "text" and ("\n" in str(value or "") or "line" in label.lower())
