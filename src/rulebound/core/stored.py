"""A JSON value serialised once, for the log's write path (issue 13).

An entry's record and card used to be serialised four times on the way in: converted for
the seal, dumped by each JSON column, dumped and parsed again for the entry handed back.
A ``Stored`` value carries the three texts that path needs, made once: what the column
is given, what reading it back gives, and its canonical text for the seal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from json.encoder import encode_basestring
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
