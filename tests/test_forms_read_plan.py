"""``forms.read`` works out each tuple of fields once (issue 16) and must read every form
exactly as the field-by-field reading it replaced: the same values, the same errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Choice, Field
from rulebound.rulesets.registry import get_game


def reference_read(
    fields: Any, data: Any, *, defaults: bool = True, required: bool = True
) -> dict[str, Any]:
    """The reading before the plan, kept verbatim as the oracle."""
    values: dict[str, Any] = {}
    problems: list[InvalidInput] = []
    for field in forms.unique(fields):
        raw = data.get(field.name, forms.MISSING)
        try:
            value = forms.coerce(field, raw)
        except InvalidInput as exc:
            problems.append(exc)
            continue
        if value is forms.MISSING:
            if field.required and required:
                problems.append(InvalidInput(field.name, None, forms.required_text(field)))
            elif field.kind == "bool":
                values[field.name] = bool(field.default) if defaults else False
            elif defaults and field.default is not None:
                values[field.name] = forms._default(field)
            continue
        values[field.name] = value
    raise_all(problems)
    return values


def outcome(read: Any, fields: Any, data: Any, **flags: bool) -> tuple[str, Any]:
    try:
        return "values", read(fields, data, **flags)
    except InvalidInput as exc:
        return "error", str(exc)


NAMES = ("a", "b", "c")
CHOICES = (Choice("x", "Ex"), Choice("y-z", "Why Zed"))
fields_strategy = st.lists(
    st.builds(
        Field,
        name=st.sampled_from(NAMES),
        label=st.sampled_from(("", "Label")),
        kind=st.sampled_from(("int", "bool", "select", "multiselect", "text", "dice")),
        choices=st.sampled_from(((), CHOICES)),
        default=st.sampled_from((None, 0, 3, True, "x", ("x",))),
        minimum=st.sampled_from((None, 0, 1)),
        maximum=st.sampled_from((None, 5)),
        required=st.booleans(),
    ),
    max_size=4,
).map(tuple)
raw_values = (
    st.none()
    | st.booleans()
    | st.integers(-3, 9)
    | st.sampled_from(("", " ", "2", "x", "y z", "yes", "off", "1,2", "Ex", "nope"))
)
data_strategy = st.dictionaries(
    st.sampled_from((*NAMES, "other")), raw_values | st.lists(raw_values, max_size=3), max_size=4
)


@given(fields_strategy, data_strategy, st.booleans(), st.booleans())
def test_a_form_reads_as_it_did_field_by_field(
    fields: tuple[Field, ...], data: dict[str, Any], defaults: bool, required: bool
) -> None:
    flags = {"defaults": defaults, "required": required}
    want = outcome(reference_read, fields, data, **flags)
    assert outcome(forms.read, fields, data, **flags) == want
    assert outcome(forms.read, fields, data, **flags) == want  # the planned second reading
    assert outcome(forms.read, list(fields), data, **flags) == want  # lists are not planned


@given(data_strategy)
def test_every_games_fields_read_as_before(data: dict[str, Any]) -> None:
    for key in ("rainwall", "legacy", "empty-reach", "ghostburn"):
        game = get_game(key)
        for fields in (game.fields, (*game.fields, *game.odds_fields)):
            remapped = {f.name: data.get(n) for f, n in zip(fields, data, strict=False)}
            for flags in ({}, {"required": False}, {"defaults": False}):
                assert outcome(forms.read, fields, remapped, **flags) == outcome(
                    reference_read, fields, remapped, **flags
                )


def test_a_repeated_default_is_a_new_list_each_time() -> None:
    fields = (Field("tags", "Tags", "multiselect", CHOICES, default=("x",)),)
    first = forms.read(fields, {})
    first["tags"].append("y-z")
    assert forms.read(fields, {}) == {"tags": ["x"]}


def test_forms_built_afresh_each_time_do_not_fill_the_plans() -> None:
    fields = (Field("n", "N", "int", default=1),)
    for _ in range(600):  # a new tuple of fields each time, as a sheet's dialog may be
        assert forms.read((*fields,), {}) == {"n": 1}
    assert len(forms._PLANS) <= 256
    assert forms.read(fields, {"n": "2"}) == {"n": 2}
    assert forms._PLANS[id(fields)][0] is fields  # a form read now is still planned


def test_a_form_gets_its_own_reader_only_when_it_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Making a form's reader function costs far more than one reading: a form built
    afresh for every call (a sheet's dialog) must read through the plan, never make one."""
    made: list[object] = []
    real = forms._reader

    def counted(plan: forms.Plan) -> forms.Usual:
        made.append(plan)
        return real(plan)

    monkeypatch.setattr(forms, "_reader", counted)
    fields = (Field("n", "N", "int", default=1), Field("flag", "Flag", "bool"))
    for _ in range(20):
        assert forms.read((*fields,), {"n": "3"}) == {"n": 3, "flag": False}
    assert made == []
    kept = fields
    assert [forms.read(kept, {"flag": "on"}) for _ in range(3)] == [{"n": 1, "flag": True}] * 3
    assert len(made) == 1
