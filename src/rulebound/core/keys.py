"""Keys as people type them: "Deep Dark", "deep_dark" and "deep-dark" are one key.

Content names, choices and CLI values are matched through ``key_of`` so a user
never has to guess the case or the separator a data file happens to use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

from rulebound.core.errors import InvalidInput

V = TypeVar("V")
SEPARATORS = re.compile(r"[\s_\-]+")


def key_of(text: str) -> str:
    """Lower case, separators as single dashes, no dashes at the ends."""
    if type(text) is str and len(text) <= _CACHED_LENGTH:  # names and choices, over and over
        return _cached_key(text)
    return _key(text)


def _key(text: str) -> str:
    return SEPARATORS.sub("-", text.strip().casefold()).strip("-")


_CACHED_LENGTH = 64
_cached_key = lru_cache(maxsize=4096)(_key)
"""At most 4,096 texts of at most 64 characters are remembered: a bounded cache."""


def find_key(keys: Iterable[str], given: str) -> str | None:
    """The key among ``keys`` that ``given`` names, exactly or by ``key_of``; None if none."""
    candidates = list(keys)
    if given in candidates:
        return given
    wanted = key_of(given)
    for key in candidates:
        if key_of(key) == wanted:
            return key
    return None


def lookup(
    mapping: Mapping[str, V],
    given: str,
    field: str,
    find: Callable[[Mapping[str, V], str], str | None] = find_key,
) -> V:
    """``mapping[given]`` matched by ``find`` ("Aimed Shot" for ``aimed-shot``), or
    InvalidInput for ``field`` listing the keys there are."""
    key = find(mapping, given) if isinstance(given, str) else None
    if key is None:
        raise InvalidInput(field, given, "one of " + ", ".join(sorted(mapping)))
    return mapping[key]


def check_known(
    field: str, given: Iterable[str], known: Sequence[str], how: str = "one of"
) -> None:
    """InvalidInput naming ``field`` and the first of ``given`` that is not one of ``known``."""
    for value in given:
        if value not in known:
            raise InvalidInput(field, value, f"{how} " + ", ".join(known))
