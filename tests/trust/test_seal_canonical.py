"""The seal's fast canonical text (``trust.chain.canonical``) is ``core.canonical_json``'s,
and its converter (``trust.chain.jsonable``, also the logged card's) is ``to_jsonable``.

Pass criteria: for any value made of JSON's types, tuples, sets, Fractions, enums and
dataclasses, with text, number and boolean keys, nested, the two give the same text (so every
hash sealed before and after the speed-up verifies alike), or both refuse it with the same
error; a real entry's body and content hash the same either way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core.canonical import canonical_json, to_jsonable
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game
from rulebound.trust.chain import (
    GENESIS,
    body_hash,
    canonical,
    chain_hash,
    entry_content,
    jsonable,
)


class Colour(Enum):
    RED = "red"
    DARK = 3


@dataclass(frozen=True)
class Pair:
    left: Any
    right: Any


LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6)
    | st.fractions(max_denominator=50)
    | st.sampled_from(Colour)
)
KEYS = st.text(max_size=4) | st.integers(-3, 3) | st.booleans() | st.floats(-2, 2)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=4)
        | st.frozensets(st.integers(0, 9), max_size=3)
        | st.builds(Pair, inner, inner)
    ),
    max_leaves=20,
)


def _outcome(convert: Any, value: Any) -> tuple[str, Any]:
    try:
        return "text", convert(value)
    except Exception as exc:  # the same refusal, whichever converts it
        return "error", type(exc)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_the_fast_text_is_the_canonical_text(value: Any) -> None:
    assert _outcome(canonical, value) == _outcome(canonical_json, value)
    assert _outcome(lambda v: repr(jsonable(v)), value) == _outcome(
        lambda v: repr(to_jsonable(v)), value
    )


def test_a_real_card_converts_alike() -> None:
    """The card a play logs is converted by ``jsonable`` (``web.service``), as it was before."""
    game = get_game("empty-reach")
    rules = TableRules(game)
    sheet = rules.new_sheet("Ana")
    play = rules.roll(sheet, {"skill": "Force"}, {}, SeededSource(3))
    assert jsonable(play.card) == to_jsonable(play.card)
    assert canonical(play.card) == canonical_json(play.card)


def test_an_unknown_type_is_refused_alike() -> None:
    assert _outcome(canonical, {"a": [object()]}) == _outcome(canonical_json, {"a": [object()]})
    assert _outcome(canonical, {"a": [object()]})[0] == "error"


def test_an_entrys_hashes_are_those_of_the_canonical_text() -> None:
    body = {
        "kind": "roll",
        "record": {"draws": [(8, 7), (6, 4)], "request": {"skill": "Force", "p": Fraction(1, 3)}},
        "card": {"title": "Force", "dice": [{"sides": 8, "face": 7}], "é": "ü"},
        "summary": "Ana: 1 success",
        "changed": [],
        "created_at": "2026-12-01T17:00:00+00:00",
    }
    salt = "ab" * 32
    expected = hashlib.sha256(bytes.fromhex(salt) + canonical_json(body).encode()).hexdigest()
    assert body_hash(salt, body) == expected
    content = entry_content(1, 2, "public", None, expected)
    assert (
        chain_hash(GENESIS, content)
        == hashlib.sha256((GENESIS + canonical_json(content)).encode()).hexdigest()
    )
