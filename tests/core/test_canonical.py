"""Canonical JSON: the shared converter behind JSON output and content digests."""

import hashlib
import json
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

import pytest
from pydantic import BaseModel

from rulebound.core.canonical import (
    canonical_json,
    digest,
    fraction_text,
    probability_fields,
    to_jsonable,
)
from rulebound.core.random_source import Draw
from rulebound.core.trace import DieRecord, DieState, Modifier, Provenance


class Colour(Enum):
    RED = "red"
    BLUE = 2


@dataclass(frozen=True)
class Outcome:
    name: str
    chance: Fraction
    dice: tuple[DieRecord, ...]
    tags: frozenset[str]


class Sheet(BaseModel):
    name: str
    chance: Fraction
    skills: tuple[str, ...]


@pytest.mark.parametrize("value", [None, True, False, 0, -3, 1.5, "text", ""])
def test_json_scalars_pass_through(value: object) -> None:
    assert to_jsonable(value) == value
    assert type(to_jsonable(value)) is type(value)


def test_enums_become_their_values() -> None:
    assert to_jsonable(Colour.RED) == "red"
    assert to_jsonable(Colour.BLUE) == 2
    assert to_jsonable(DieState.KEPT) == "kept"
    assert canonical_json(DieState.KEPT) == '"kept"'


def test_fractions_become_exact_strings() -> None:
    assert to_jsonable(Fraction(139, 160)) == "139/160"
    assert to_jsonable(Fraction(4, 8)) == "1/2"
    assert to_jsonable(Fraction(3)) == "3/1"


def test_tuples_and_lists_keep_order_sets_are_sorted() -> None:
    assert to_jsonable((3, 1, 2)) == [3, 1, 2]
    assert to_jsonable([Fraction(1, 2), (1, 2)]) == ["1/2", [1, 2]]
    assert to_jsonable({"b", "a", "c"}) == ["a", "b", "c"]
    assert to_jsonable(frozenset({3, 1, 2})) == [1, 2, 3]


def test_mappings_get_string_keys_and_converted_values() -> None:
    assert to_jsonable({1: Fraction(1, 3), "x": (1,)}) == {"1": "1/3", "x": [1]}


def test_dataclasses_convert_recursively() -> None:
    die = DieRecord("base", 6, 4, state=DieState.REROLLED, history=(1,))
    outcome = Outcome("hit", Fraction(1, 4), (die,), frozenset({"b", "a"}))
    assert to_jsonable(outcome) == {
        "name": "hit",
        "chance": "1/4",
        "dice": [
            {
                "label": "base",
                "sides": 6,
                "face": 4,
                "role": "",
                "state": "rerolled",
                "history": [1],
                "marks": [],
            }
        ],
        "tags": ["a", "b"],
    }


def test_provenance_converts_with_its_draws() -> None:
    provenance = Provenance.of({"kind": "seeded", "seed": 3}, (Draw(6, 2),))
    assert to_jsonable(provenance) == {
        "source": [["kind", "seeded"], ["seed", "3"]],
        "draws": [{"sides": 6, "face": 2}],
    }


def test_pydantic_models_use_json_mode_dump() -> None:
    sheet = Sheet(name="Ash", chance=Fraction(2, 3), skills=("shoot", "scout"))
    assert to_jsonable(sheet) == {"name": "Ash", "chance": "2/3", "skills": ["shoot", "scout"]}
    assert to_jsonable([sheet])[0]["skills"] == ["shoot", "scout"]


@pytest.mark.parametrize("value", [object(), b"bytes", 1j, {"nested": object()}])
def test_unsupported_values_raise_type_error(value: object) -> None:
    with pytest.raises(TypeError, match="cannot convert"):
        to_jsonable(value)


def test_canonical_json_is_key_sorted_and_compact() -> None:
    text = canonical_json({"b": 1, "a": {"z": 2, "y": [1, 2]}})
    assert text == '{"a":{"y":[1,2],"z":2},"b":1}'
    assert json.loads(text) == {"a": {"y": [1, 2], "z": 2}, "b": 1}


def test_canonical_json_is_stable_across_insertion_order() -> None:
    assert canonical_json({"x": 1, "y": 2}) == canonical_json({"y": 2, "x": 1})
    assert canonical_json({"c", "a", "b"}) == canonical_json({"b", "c", "a"})


def test_canonical_json_keeps_non_ascii_text() -> None:
    assert canonical_json({"name": "Élan"}) == '{"name":"Élan"}'


def test_digest_is_sha256_hex_and_equal_for_equal_values() -> None:
    a = Modifier("help", 2)
    b = Modifier("help", 2)
    assert digest(a) == digest(b)
    assert len(digest(a)) == 64
    assert int(digest(a), 16) >= 0
    assert digest({"x": 1, "y": 2}) == digest({"y": 2, "x": 1})


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (Modifier("help", 2), Modifier("help", 3)),
        (Modifier("help", 2), Modifier("gear", 2)),
        (Fraction(1, 2), Fraction(1, 3)),
        ([1, 2], [2, 1]),
        (DieRecord("a", 6, 1), DieRecord("a", 6, 1, state=DieState.KEPT)),
    ],
)
def test_digest_differs_for_different_values(a: object, b: object) -> None:
    assert digest(a) != digest(b)


def test_digest_is_pinned_to_the_canonical_json() -> None:
    value = {"b": Fraction(1, 2), "a": (1, 2)}
    expected = hashlib.sha256(b'{"a":[1,2],"b":"1/2"}').hexdigest()
    assert digest(value) == expected


def test_fraction_text() -> None:
    assert fraction_text(Fraction(6, 8)) == "3/4"


def test_probability_fields_for_a_single_fraction() -> None:
    assert probability_fields("p_success", Fraction(139, 160)) == {
        "p_success": "139/160",
        "p_success_float": 0.86875,
    }


def test_probability_fields_for_a_mapping() -> None:
    fields = probability_fields("p", {0: Fraction(1, 4), 1: Fraction(3, 4)})
    assert fields == {"p": {"0": "1/4", "1": "3/4"}, "p_float": {"0": 0.25, "1": 0.75}}
    assert list(fields) == ["p", "p_float"]
