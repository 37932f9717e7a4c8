"""The canonical text the seal hashes (``core.canonical_json``, through ``to_jsonable``'s fast
path for JSON's types and known dataclasses) is the text of the general converter it had before
the speed-up (``reference``, kept here as the oracle).

Pass criteria: for any value made of JSON's types, tuples, sets, Fractions, enums and
dataclasses, with text, number and boolean keys, nested, the two give the same text (so every
hash sealed before and after the speed-up verifies alike), or both refuse it with the same
error; a real entry's body and content hash the same either way.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core.canonical import canonical_json, to_jsonable
from rulebound.core.random_source import SeededSource
from rulebound.core.stored import Stored, stored_text
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game
from rulebound.trust.chain import (
    GENESIS,
    body_hash,
    chain_hash,
    entry_content,
)

from ..hunt import examples


def reference(value: Any) -> Any:
    """``to_jsonable`` as it was before its fast path: every value by ``isinstance``."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: reference(getattr(value, f.name)) for f in dataclasses.fields(value)}
    model_dump = getattr(value, "model_dump", None)
    if callable(model_dump):
        return model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): reference(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = [reference(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, frozenset | set) else items
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")


def reference_text(value: Any) -> str:
    return json.dumps(reference(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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


@settings(max_examples=examples(300), deadline=None)
@given(VALUES)
def test_the_fast_text_is_the_canonical_text(value: Any) -> None:
    assert _outcome(canonical_json, value) == _outcome(reference_text, value)
    assert _outcome(lambda v: repr(to_jsonable(v)), value) == _outcome(
        lambda v: repr(reference(v)), value
    )


def test_a_real_card_converts_alike() -> None:
    """The card a play logs (``web.service``) converts as it did before."""
    game = get_game("empty-reach")
    rules = TableRules(game)
    sheet = rules.new_sheet("Ana")
    play = rules.roll(sheet, {"skill": "Force"}, {}, SeededSource(3))
    assert to_jsonable(play.card) == reference(play.card)
    assert canonical_json(play.card) == reference_text(play.card)


def test_an_unknown_type_is_refused_alike() -> None:
    assert _outcome(canonical_json, {"a": [object()]}) == _outcome(
        reference_text, {"a": [object()]}
    )
    assert _outcome(canonical_json, {"a": [object()]})[0] == "error"


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
    expected = hashlib.sha256(bytes.fromhex(salt) + reference_text(body).encode()).hexdigest()
    assert body_hash(salt, body) == expected
    content = entry_content(1, 2, "public", None, expected)
    assert (
        chain_hash(GENESIS, content)
        == hashlib.sha256((GENESIS + reference_text(content)).encode()).hexdigest()
    )


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=examples(300), deadline=None)
@given(st.dictionaries(st.text(max_size=6), JSON, max_size=6), st.data())
def test_a_body_with_stored_parts_has_the_canonical_text_of_its_parsed_parts(
    body: dict[str, Any], data: st.DataObject
) -> None:
    """The store hands the seal a record and a card ``Stored`` (serialised once): the text it
    hashes is the canonical text of the same body with those parts as read back."""
    stored = data.draw(st.sets(st.sampled_from(sorted(body)), max_size=3)) if body else set()
    mixed = {key: Stored.of(value) if key in stored else value for key, value in body.items()}
    parsed = {key: json.loads(json.dumps(value)) for key, value in body.items()}
    assert stored_text(mixed) == canonical_json(parsed) == reference_text(parsed)
    salt = "cd" * 32
    assert body_hash(salt, mixed, parsed=True) == body_hash(salt, parsed)
    for key in stored:
        assert mixed[key].value == parsed[key]
        assert mixed[key].text == json.dumps(body[key])


@settings(max_examples=examples(300), deadline=None)
@given(JSON)
def test_a_value_stored_as_parsed_already_reads_back_and_seals_as_stored_whole(value: Any) -> None:
    """A card as a serializer's JSON mode gives it is stored with one text, the canonical
    one: it reads back as the same value, and the seal commits to what ``Stored.of`` gives."""
    parsed = json.loads(json.dumps(value))
    native, whole = Stored.native(parsed), Stored.of(parsed)
    assert json.loads(native.text) == parsed == whole.value
    assert native.canonical == native.text == whole.canonical
    assert native.value is parsed
