"""Inline rolls in chat: every [[...]] span of a message parsed, rolled in order from one
source, and written back into the message."""

from __future__ import annotations

import importlib

import pytest

import rulebound.core.dice as dice
from rulebound.core.dice import parse_inline, roll_inline
from rulebound.core.dice.inline import spans
from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.random_source import RecordingSource, ReplaySource, SeededSource


def test_spans_allow_annotations_inside_and_ignore_an_unclosed_one() -> None:
    text = "hit [[1d8+3 [slashing]]] and [[2d6]] then [[oops"
    assert [text[a:b] for a, b in spans(text)] == ["[[1d8+3 [slashing]]]", "[[2d6]]"]
    assert parse_inline("no rolls [here]") is None


def test_a_message_rolls_each_span_in_order_and_replays() -> None:
    message = parse_inline("Opening the door [[1d20+3]], then [[2d6]] damage")
    assert message is not None
    assert [e.text() for e in message.expressions] == ["1d20+3", "2d6"]
    recording = RecordingSource(SeededSource(5))
    rolled = roll_inline(message, recording)
    first, second = rolled.rolls
    said = rolled.text()
    assert said == (
        f"Opening the door [1d20+3 = {first.total}], then [2d6 = {second.total}] damage"
    )
    assert [d.sides for d in recording.draws] == [20, 6, 6]
    assert roll_inline(message, ReplaySource(recording.draws)) == rolled


def test_a_bad_span_names_itself_and_too_many_spans_are_capped() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_inline("try [[4d6 kh3]]", "text")
    assert caught.value.field == "text"
    assert "in [[4d6 kh3]]" in caught.value.expected
    assert caught.value.tip == "write 4d6kh3, without the space"
    with pytest.raises(LimitExceeded):
        parse_inline(" ".join(["[[1d6]]"] * 11), "text")


def test_the_package_exports_exactly_its_names_each_from_its_module() -> None:
    for name in dice.__all__:
        value = getattr(dice, name)
        home = importlib.import_module(getattr(value, "__module__", None) or dice.__name__)
        assert getattr(home, name, value) is value, name
