"""A form's usual reader takes a select's exact choice value as it is (issue 16).

The generated reader of a form seen before skips ``coerce`` when a select's value is one
of its choices' own values; what it gives back (values and errors) must be exactly what
the field-by-field reading gives, for any text a front end may post.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import SeededSource, sorted_description
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Choice, Field

from ..hunt import examples

CHOICES = (
    Choice("", "none"),
    Choice("deep-dark", "Deep dark"),
    Choice(" padded ", "Padded"),
    Choice("D8", "eight"),
    Choice("d8", "small eight"),
)
FIELDS = (
    Field("pick", "Pick", "select", CHOICES, default="deep-dark"),
    Field("needed", "Needed", "select", CHOICES, required=True),
    Field("free", "Free text select", "select"),
    Field("many", "Many", "multiselect", CHOICES),
)
POSTED = st.one_of(
    st.sampled_from(["", " ", "deep-dark", "Deep dark", "deep dark", " padded ", "padded"]),
    st.sampled_from(["D8", "d8", " D8", "eight", "none", "nope", "DEEP-DARK"]),
    st.integers(-2, 9),
    st.booleans(),
    st.none(),
    st.lists(st.sampled_from(["D8", "deep-dark", ""]), max_size=2),
    st.text(max_size=4),
)


def _outcome(fields: Any, data: dict[str, Any]) -> object:
    try:
        return forms.read(fields, data)
    except InvalidInput as exc:
        return f"{type(exc).__name__}: {exc}"


@settings(max_examples=examples(150), deadline=None)
@given(st.dictionaries(st.sampled_from([f.name for f in FIELDS]), POSTED, max_size=4))
def test_the_usual_reader_reads_as_the_field_by_field_reading(data: dict[str, Any]) -> None:
    forms.read(FIELDS, {"needed": "D8"})  # seen once: the next reading has its own function
    assert forms._plan(FIELDS)[1] is not None
    assert _outcome(FIELDS, data) == _outcome(list(FIELDS), data)  # a list: the plan's loop


def test_an_exact_choice_comes_back_as_posted_and_others_as_before() -> None:
    forms.read(FIELDS, {"needed": "D8"})
    assert forms.read(FIELDS, {"needed": "d8", "pick": "Deep dark"}) == {
        "pick": "deep-dark",
        "needed": "d8",
    }
    assert forms.read(FIELDS, {"needed": " padded "})["needed"] == " padded "
    assert forms._exact_choices(FIELDS[0]) == frozenset({"deep-dark", "D8", "d8"})
    assert forms._exact_choices(FIELDS[3]) == frozenset()


def test_a_seeded_description_follows_its_seed() -> None:
    source = SeededSource(5)
    expected = tuple(sorted((k, str(v)) for k, v in source.describe().items()))
    assert sorted_description(source) == expected
    assert sorted_description(source) is sorted_description(source)
    source.seed = 7
    assert sorted_description(source) == (("kind", "seeded"), ("seed", "7"))


def test_a_seedless_source_is_described_too() -> None:
    source = SeededSource(None)  # type: ignore[arg-type]  # random.Random takes None
    assert sorted_description(source) == (("kind", "seeded"), ("seed", "None"))
