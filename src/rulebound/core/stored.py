"""A JSON value serialised once, for the log's write path.

An entry's record and card are needed three ways on the way in: as the text a JSON column
is given, as the value reading it back gives (the entry handed back), and as the canonical
text the seal commits to. A ``Stored`` value carries the three, made once.
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
    ``value`` what reading it back gives and ``canonical`` its ``json_text``."""

    text: str
    value: Any
    canonical: str

    @classmethod
    def of(cls, value: Any) -> Stored:
        text = json.dumps(value)
        parsed = json.loads(text)
        return cls(text, parsed, json_text(parsed))

    @classmethod
    def native(cls, value: Any) -> Stored:
        """``of`` a value that is JSON as parsed already (str keys, lists, plain scalars:
        what a serializer's JSON mode gives), which reads back as itself: one text, the
        canonical one, serves the column and the seal."""
        text = json_text(value)
        return cls(text, value, text)


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
