"""A game's memo of plain forms (issue 16): bounded, a refusal never kept, and forms
whose values differ only in type never share an answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.form_memo import MAX_REMEMBERED, FormMemo, plain_key


def counting() -> tuple[FormMemo[tuple[object, ...]], list[object]]:
    made: list[object] = []

    def make(values: Mapping[str, Any], variants: Mapping[str, str]) -> tuple[object, ...]:
        if values.get("bad"):
            raise InvalidInput("bad", values["bad"], "nothing")
        made.append(values)
        return (dict(values), dict(variants))

    return FormMemo(make), made


def test_a_plain_form_is_made_once() -> None:
    memo, made = counting()
    first = memo({"a": 1, "b": ["x", "y"]}, {"v": "one"})
    assert memo({"a": 1, "b": ["x", "y"]}, {"v": "one"}) is first
    assert len(made) == 1
    assert memo({"a": 1, "b": ["x", "y"]}, {"v": "two"}) is not first  # other variants
    assert memo({"a": 1, "b": ("x", "y")}, {"v": "one"}) is not first  # a tuple, not a list
    assert memo({"b": ["x", "y"], "a": 1}, {"v": "one"}) is not first  # other order
    assert len(made) == 4


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ({"a": 1}, {"a": True}),
        ({"a": 0}, {"a": False}),
        ({"a": "1"}, {"a": 1}),
        ({"a": None}, {"a": ""}),
        ({"a": ["1"]}, {"a": ("1",)}),
        ({"a": []}, {"a": ()}),
    ],
)
def test_values_of_other_types_never_meet(one: dict[str, Any], other: dict[str, Any]) -> None:
    assert plain_key(one, {}) != plain_key(other, {})
    memo, made = counting()
    assert memo(one, {})[0] == one
    assert memo(other, {})[0] == other
    assert len(made) == 2


@pytest.mark.parametrize(
    ("values", "variants"),
    [({"a": 1.0}, {}), ({"a": [1]}, {}), ({"a": {"b": 1}}, {}), ({"a": 1}, {"v": 1})],
)
def test_a_form_of_other_values_is_made_every_time(
    values: dict[str, Any], variants: dict[str, Any]
) -> None:
    assert plain_key(values, variants) is None
    memo, made = counting()
    memo(values, variants)
    memo(values, variants)
    assert len(made) == 2
    assert not len(memo)


def test_a_refusal_is_never_kept() -> None:
    memo, made = counting()
    for _ in range(2):
        with pytest.raises(InvalidInput, match="bad"):
            memo({"bad": "x"}, {})
    assert not len(memo)
    assert not made


def test_the_memo_is_bounded() -> None:
    memo, made = counting()
    for n in range(3 * MAX_REMEMBERED):
        memo({"n": n}, {})
        assert len(memo) <= MAX_REMEMBERED
    assert len(made) == 3 * MAX_REMEMBERED
