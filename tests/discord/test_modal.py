"""A follow-up's inputs as a Discord form: past five inputs (Discord's cap on a form) the
rest share one input of ``name = value`` lines, filled with their first values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput
from rulebound.discord.forms import MAX_INPUTS, REST, modal, modal_params
from rulebound.rulesets.contract import Field


def _fields(n: int) -> list[Mapping[str, Any]]:
    made = [Field(f"points.d{i}", f"d{i} (shows {i})", "int", default=0) for i in range(1, n)]
    made.append(Field("reroll", "Dice to reroll", "dice"))
    return [dict(to_jsonable(f)) for f in made]


def _submitted(form: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    inputs = [c for row in form["data"]["components"] for c in row["components"]]
    return {
        "custom_id": form["data"]["custom_id"],
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": i["custom_id"], "value": v}]}
            for i in inputs
            for v in [values.get(i["custom_id"], i.get("value", ""))]
        ],
    }


def test_five_inputs_or_fewer_get_one_each() -> None:
    fields = _fields(MAX_INPUTS)
    form = modal(7, "move", "Move points", "", fields)
    inputs = [c for row in form["data"]["components"] for c in row["components"]]
    assert [i["custom_id"] for i in inputs] == [f["name"] for f in fields]
    params = modal_params(fields, _submitted(form, {"points.d2": "1", "reroll": "1,3"}))
    assert params == {
        "points.d1": "0",
        "points.d2": "1",
        "points.d3": "0",
        "points.d4": "0",
        "reroll": [0, 2],
    }


def test_more_inputs_share_the_last_one_as_name_value_lines() -> None:
    fields = _fields(9)
    form = modal(7, "move", "Move points", "2 Luck", fields)
    assert form["data"]["title"] == "Move points: spends 2 Luck"
    inputs = [c for row in form["data"]["components"] for c in row["components"]]
    assert len(inputs) == MAX_INPUTS
    assert [i["custom_id"] for i in inputs[:4]] == [f["name"] for f in fields[:4]]
    rest = inputs[4]
    assert (rest["custom_id"], rest["style"]) == (REST, 2)
    assert len(rest["label"]) <= 45
    assert rest["value"].splitlines() == [
        "points.d5 = 0  # d5 (shows 5)",
        "points.d6 = 0  # d6 (shows 6)",
        "points.d7 = 0  # d7 (shows 7)",
        "points.d8 = 0  # d8 (shows 8)",
        "reroll =   # Dice to reroll",
    ]
    lines = (
        rest["value"].replace("points.d6 = 0", "points.d6 = 2").replace("reroll = ", "reroll = 2,4")
    )
    params = modal_params(fields, _submitted(form, {REST: lines, "points.d1": "1"}))
    assert params["points.d1"] == "1"
    assert params["points.d6"] == "2"
    assert params["points.d8"] == "0"
    assert params["reroll"] == [1, 3]
    assert len(params) == len(fields)


@pytest.mark.parametrize("line", ["points.d1 = 3", "nonsense", "points.d99 = 1"])
def test_a_line_that_names_no_remaining_input_is_named(line: str) -> None:
    fields = _fields(9)
    form = modal(7, "move", "Move points", "", fields)
    with pytest.raises(InvalidInput) as error:
        modal_params(fields, _submitted(form, {REST: line}))
    assert error.value.field == "the other inputs"
    assert error.value.value == line
    assert "points.d5" in error.value.expected
