"""Issue 16's shared fast paths give what the general paths give.

``forms.read`` reads plain values at once and writes one reader per form; draws are
shared records; a seeded source's provenance is written without a dict. Each is checked
against the general path.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput, RuleboundError
from rulebound.core.random_source import (
    Draw,
    MiddleSource,
    RecordingSource,
    ReplaySource,
    SeededSource,
    SystemSource,
    sorted_description,
)
from rulebound.core.trace import Provenance
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Choice, Field

from ..hunt import examples

# --- forms.read against a reading by ``coerce`` alone --------------------------------


def reference(
    fields: tuple[Field, ...], data: Mapping[str, Any], defaults: bool, required: bool
) -> dict[str, Any]:
    """``read`` as it was before its plans: every value through ``coerce``."""
    values: dict[str, Any] = {}
    problems: list[InvalidInput] = []
    for field in forms.unique(fields):
        raw = data.get(field.name)
        if raw is not None:
            try:
                value = forms.coerce(field, raw)
            except InvalidInput as exc:
                problems.append(exc)
                continue
            if value is not forms.MISSING:
                values[field.name] = value
                continue
        if field.required and required:
            problems.append(InvalidInput(field.name, None, forms.required_text(field)))
        elif field.kind == "bool":
            values[field.name] = bool(field.default) if defaults else False
        elif defaults and field.default is not None:
            default: Any = field.default
            if field.repeated:
                default = list(default) if isinstance(default, tuple) else [default]
            values[field.name] = default
    from rulebound.core.errors import raise_all

    raise_all(problems)
    return values


FIELDS = (
    Field("n", "N", "int", minimum=1, maximum=10, required=True),
    Field("m", "M", "int", default=0, minimum=-5),
    Field("free", "Free", "int"),
    Field("name", "Name", "text"),
    Field("note", "Note", "text", default="none", multiline=True),
    Field("words", "Words", "multiselect"),
    Field("tags", "Tags", "multiselect", choices=(Choice("a", "A"), Choice("b-c", "B C"))),
    Field("pick", "Pick", "select", choices=(Choice("x", "X"), Choice("y", "Y")), default="x"),
    Field("flag", "Flag", "bool"),
    Field("on", "On", "bool", default=True),
    Field("dice", "Dice", "dice", default=1),
    Field("n", "N again", "int"),
)
raws = st.one_of(
    st.none(),
    st.integers(-20, 20),
    st.booleans(),
    st.sampled_from(("", " ", "3", " 7 ", "x", "b c", "a, b-c", "yes", "off", "1.5", 2.0)),
    st.lists(st.sampled_from(("a", "b c", " x ,y", "", "2", 3)), max_size=3),
    st.tuples(st.sampled_from(("a", "4"))),
    st.just({"k": 1}),
)


def outcome(read: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        return "values", read(*args, **kwargs)
    except RuleboundError as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=examples(300))
@given(
    st.dictionaries(st.sampled_from([f.name for f in FIELDS] + ["other"]), raws),
    st.sampled_from((None, 3, " 4 ")),
    st.booleans(),
    st.booleans(),
)
def test_read_gives_coerces_values_and_errors(
    data: dict[str, Any], n: object, defaults: bool, required: bool
) -> None:
    if n is not None:  # most forms give their required field
        data = {**data, "n": n}
    got = outcome(forms.read, FIELDS, data, defaults=defaults, required=required)
    want = outcome(reference, FIELDS, data, defaults, required)
    assert got == want
    if got[0] == "values":  # the same order of names, too
        assert list(got[1]) == list(want[1])


def test_each_form_gets_a_fresh_default_list() -> None:
    first = forms.read(FIELDS, {"n": 2})
    first["dice"].append(6)
    assert forms.read(FIELDS, {"n": 2})["dice"] == [1]
    assert forms.read(FIELDS, {"n": 2}) is not forms.read(FIELDS, {"n": 2})


# --- shared draws and the provenance of a source ---------------------------------------


@given(st.integers(0, 2**32), st.sampled_from((2, 6, 10, 20, 100, 1000, 1001)), st.integers(1, 5))
def test_shared_draws_are_the_draws_themselves(seed: int, sides: int, count: int) -> None:
    outer = RecordingSource(RecordingSource(SeededSource(seed)))
    faces = (*outer.draw_many(sides, count), outer.draw(sides))
    assert outer.draws == tuple(Draw(sides, face) for face in faces)
    assert outer.inner.draws == outer.draws  # type: ignore[attr-defined]
    plain = SeededSource(seed)
    assert faces == tuple(plain.draw(sides) for _ in range(count + 1))


@given(st.integers(0, 2**32), st.integers(1, 40), st.integers(0, 6))
def test_seeded_faces_are_randranges_with_or_without_the_inline_loop(
    seed: int, sides: int, count: int
) -> None:
    rng = random.Random(seed)
    want = [rng.randrange(sides) + 1 for _ in range(count)]
    inline, called = SeededSource(seed), SeededSource(seed)
    called._bits = None  # as on a Python whose ``_randbelow`` is another loop
    assert inline._faces(sides, count) == called._faces(sides, count) == want


@pytest.mark.parametrize(
    "source",
    [
        SeededSource(7),
        SeededSource(-3),
        RecordingSource(SeededSource(11)),
        RecordingSource(RecordingSource(MiddleSource())),
        SystemSource(),
        ReplaySource([Draw(6, 2)]),
    ],
)
def test_a_provenance_from_a_source_is_the_one_from_its_description(source: Any) -> None:
    want = tuple(sorted((k, str(v)) for k, v in source.describe().items()))
    assert sorted_description(source) == want
    assert Provenance.of_source(source, ()) == Provenance.of(source.describe(), ())


def test_a_subclass_describes_itself() -> None:
    class Named(SeededSource):
        def describe(self) -> dict[str, object]:
            return {"kind": "named", "seed": self.seed, "name": "x"}

    assert sorted_description(Named(1)) == (("kind", "named"), ("name", "x"), ("seed", "1"))
