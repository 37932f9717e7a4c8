"""A JSON value serialised once, for the log's write path (issue 13).

An entry's record and card used to be serialised four times on the way in: converted for
the seal, dumped by each JSON column, dumped and parsed again for the entry handed back.
A ``Stored`` value carries the three texts that path needs, made once: what the column
is given, what reading it back gives, and its canonical text for the seal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

from rulebound.core.canonical import json_text


@dataclass(frozen=True, slots=True)
class Stored:
    """``text`` is what a JSON column is given (the store's serializer passes it through),
    ``value`` what reading it back gives and ``canonical`` its ``json_text``. A card logged
    again and again is ``Stored`` once (``web/rollcache``)."""

    text: str
    value: Any
    canonical: str

    @classmethod
    def of(cls, value: Any) -> Stored:
        text = json.dumps(value)
        parsed = json.loads(text)
        return cls(text, parsed, json_text(parsed))


class Template:
    """The ``Stored`` of dicts that have the same keys in the same order and the same values
    but for a few (``open``): a roll's record is its shape's params, serialised once per
    shape (``web/rollcache``), and its own draws. Both texts are laid out once, with holes
    where the open keys' values go."""

    def __init__(self, value: Mapping[str, Any], open: Sequence[str]) -> None:
        self.keys = tuple(value)
        self.open = frozenset(open)
        fixed = {key: Stored.of(item) for key, item in value.items() if key not in self.open}
        self._text = _laid_out(
            [(encode_basestring_ascii(key), key) for key in self.keys], fixed, ", ", ": ", "text"
        )
        self._canonical = _laid_out(
            [(_key_text(key), key) for key in sorted(self.keys)], fixed, ",", ":", "canonical"
        )

    def of(self, value: dict[str, Any]) -> Stored:
        """``Stored.of(value)`` (``value`` a parsed copy: it is the result's ``value``), its
        open keys' values serialised now, and a dict of other keys wholly."""
        if tuple(value) != self.keys:
            return Stored.of(value)
        text = [hole if type(hole) is str else _DUMPED(value[hole[0]]) for hole in self._text]
        canonical = [
            hole if type(hole) is str else json_text(value[hole[0]]) for hole in self._canonical
        ]
        return Stored("".join(text), value, "".join(canonical))


_DUMPED = json.JSONEncoder().encode
"""``json.dumps`` with no options, without its own call."""


def _laid_out(
    keys: list[tuple[str, str]], fixed: Mapping[str, Stored], comma: str, colon: str, form: str
) -> list[str | tuple[str]]:
    """A dict's text as literal pieces and ``(key,)`` holes for the values not ``fixed``."""
    pieces: list[str | tuple[str]] = []
    literal = "{"
    for index, (shown, key) in enumerate(keys):
        literal += (comma if index else "") + shown + colon
        if key in fixed:
            literal += getattr(fixed[key], form)
        else:
            pieces += [literal, (key,)]
            literal = ""
    return [*pieces, literal + "}"]


def stored_text(value: dict[str, Any]) -> str:
    """``json_text`` of a dict of JSON values, some of them ``Stored``: those are written
    as their canonical text, piece by piece in ``json.dumps``'s own layout."""
    pieces = [
        f"{_key_text(key)}:{item.canonical if type(item) is Stored else _item_text(item)}"
        for key, item in sorted(value.items())
    ]
    return "{" + ",".join(pieces) + "}"


_WORDS = {None: "null", True: "true", False: "false"}


def _item_text(item: Any) -> str:
    """``json_text`` of one value, a plain int, string or word at once (as the encoder
    writes each), anything else through it."""
    kind = type(item)
    if kind is int:
        return int.__repr__(item)
    if kind is str:
        return encode_basestring(item)
    if item is None or kind is bool:
        return _WORDS[item]
    return json_text(item)


_KEYS: dict[str, str] = {}
_MAX_KEYS = 256


def _key_text(key: str) -> str:
    """``json_text`` of a key, worked out once per key (an entry's are a handful of names)."""
    if type(key) is not str:
        return json_text(key)
    text = _KEYS.get(key)
    if text is None:
        text = json_text(key)
        if len(_KEYS) >= _MAX_KEYS:
            _KEYS.clear()
        _KEYS[key] = text
    return text
