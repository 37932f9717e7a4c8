"""A canonical JSON form for results, used for export, hashing and linking.

The same converter feeds the JSON renderer and the content digest, so what a
client sees and what a digest commits to cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from typing import Any

_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each dataclass's field names, as ``dataclasses.fields`` gives them (looked up once)."""


def to_jsonable(value: Any) -> Any:
    """Convert results (dataclasses, enums, Fractions, tuples, pydantic models) to JSON types.

    JSON's own types and known dataclasses (what an entry's body and card hold) come first
    and by exact type: the chain's seal converts every play through here."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if kind is dict:
        return {k if type(k) is str else str(k): to_jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [to_jsonable(v) for v in value]
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: to_jsonable(getattr(value, name)) for name in names}
    return _general(value)


def _general(value: Any) -> Any:
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = tuple(f.name for f in dataclasses.fields(value))
        _FIELDS.setdefault(type(value), names)
        return {name: to_jsonable(getattr(value, name)) for name in names}
    model_dump = getattr(value, "model_dump", None)
    if callable(model_dump):
        return model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, frozenset | set) else items
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")


def canonical_json(value: Any) -> str:
    return json_text(to_jsonable(value))


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""What ``json.dumps`` builds on every call with these options, built once (it holds only
its options, so every thread may share it)."""


def json_text(value: Any) -> str:
    """``canonical_json`` of a value that is JSON already (parsed, or read back from a JSON
    column: str keys, lists, plain scalars): the same text without the conversion walk."""
    return _CANONICAL.encode(value)


def digest(value: Any) -> str:
    """A SHA-256 content address: equal results have equal digests."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def probability_fields(name: str, value: Fraction | Mapping[Any, Fraction]) -> dict[str, Any]:
    """The odds JSON contract: ``name`` holds exact fraction strings, ``name_float`` the floats.

    A single probability gives ``{"p_success": "139/160", "p_success_float": 0.86875}``;
    a mapping gives the same shape with one entry per outcome, keyed by ``str(outcome)``.
    """
    if isinstance(value, Fraction):
        return {name: fraction_text(value), f"{name}_float": float(value)}
    return {
        name: {str(k): fraction_text(p) for k, p in value.items()},
        f"{name}_float": {str(k): float(p) for k, p in value.items()},
    }


_SCALARS = frozenset((str, int, float, bool, type(None)))
"""A set, not a tuple: one hash lookup per value where a tuple compares up to five types."""


def json_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, tuples of scalars), several times
    faster than ``copy.deepcopy``; anything else inside is deep-copied the slow way.
    Containers are tested first: scalars inside them never get here (the comprehensions
    keep them as they are), so what this is called with is nearly always a dict or a list."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _SCALARS else json_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else json_copy(v) for v in value]
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return tuple(json_copy(v) for v in value)
    import copy

    return copy.deepcopy(value)


class UnreadableJSON(ValueError):
    """JSON text that ``read_json`` refuses; the message says why in words."""


def read_json(text: str | bytes) -> Any:
    """``json.loads``, each way it refuses a text told in words: where the syntax breaks, a
    nesting too deep, a number too long to convert (Python's cap on integer digits)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableJSON(f"it breaks at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise UnreadableJSON("it is nested too deeply") from None
    except ValueError:
        limit = f"{sys.get_int_max_str_digits():,}"
        raise UnreadableJSON(f"a number in it runs past {limit} digits") from None
