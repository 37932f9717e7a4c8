"""``json_copy``: the deep copy of a request's JSON that Ghostburn keeps with each check
(issue 16: it replaced ``copy.deepcopy``, most of a raw check's request time)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.canonical import json_copy

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


def containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value``, itself included."""
    found = [value] if isinstance(value, dict | list) else []
    items = value.values() if isinstance(value, dict) else value
    if isinstance(value, dict | list | tuple):
        for item in items:
            found += containers(item)
    return found


@given(json_values)
def test_the_copy_equals_deepcopys_and_shares_no_mutable_container(value: Any) -> None:
    copied = json_copy(value)
    assert copied == copy.deepcopy(value)
    assert type(copied) is type(value)
    originals = {id(c) for c in containers(value)}
    assert not originals & {id(c) for c in containers(copied)}


def test_changing_the_copy_leaves_the_original_alone() -> None:
    payload = {"gear": [{"name": "scope", "bonus": 2}], "variants": {"off-ladder": "keep"}}
    copied = json_copy(payload)
    copied["gear"][0]["bonus"] = 9
    copied["variants"].clear()
    assert payload == {"gear": [{"name": "scope", "bonus": 2}], "variants": {"off-ladder": "keep"}}


def test_anything_else_inside_is_deep_copied() -> None:
    inner = {1, 2}
    value = {"odd": [inner, bytearray(b"ab")]}
    copied = json_copy(value)
    assert copied == value
    assert copied["odd"][0] is not inner
    copied["odd"][1][0] = 0
    assert value["odd"][1] == bytearray(b"ab")
