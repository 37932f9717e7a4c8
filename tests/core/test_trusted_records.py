"""The cheap record path (issue 16): trusted builders and ``RecordingSource.draw_many``.

A trusted build must be the very value the class's own constructor makes (equal, same
hash, frozen), and a face a source got wrong must still be refused by name.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import (
    Draw,
    RecordingSource,
    ReplaySource,
    SeededSource,
    trusted_builder,
)
from rulebound.core.trace import DieRecord, DieState

build_die = trusted_builder(DieRecord)
build_draw = trusted_builder(Draw)


@given(
    st.text(max_size=5),
    st.integers(1, 100),
    st.integers(1, 100),
    st.sampled_from(list(DieState)),
    st.tuples(st.integers(1, 9)),
    st.tuples(st.text(max_size=3)),
)
def test_a_trusted_record_is_the_constructors_value(
    label: str, sides: int, face: int, state: DieState, history: tuple[int], marks: tuple[str]
) -> None:
    made = DieRecord(label, sides, face, "pool", state, history, marks)
    built = build_die(label, sides, face, "pool", state, history, marks)
    assert built == made
    assert hash(built) == hash(made)
    assert type(built) is DieRecord
    assert dataclasses.astuple(built) == dataclasses.astuple(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.face = 1  # type: ignore[misc]


def test_a_builder_takes_every_field_and_nothing_else() -> None:
    with pytest.raises(TypeError):
        build_draw(6)
    with pytest.raises(TypeError):
        build_draw(6, 1, 2)


@given(st.integers(0, 2**32), st.integers(1, 30), st.integers(1, 12))
def test_draw_many_records_what_single_draws_record(seed: int, sides: int, count: int) -> None:
    one, many = RecordingSource(SeededSource(seed)), RecordingSource(SeededSource(seed))
    faces = tuple(one.draw(sides) for _ in range(count))
    assert many.draw_many(sides, count) == faces
    assert many.draws == one.draws == tuple(Draw(sides, f) for f in faces)
    replay = ReplaySource(many.draws)
    assert tuple(replay.draw(sides) for _ in range(count)) == faces
    assert replay.exhausted


class Broken:
    """A source that answers a face the die does not have."""

    def __init__(self, face: object) -> None:
        self.face = face

    def draw(self, sides: int) -> object:
        return self.face

    def describe(self) -> dict[str, object]:
        return {"kind": "broken"}


@pytest.mark.parametrize("face", [0, 7, -1, True, 2.0, "3"])
def test_a_bad_face_from_the_source_is_still_refused(face: object) -> None:
    for record in (
        lambda r: r.draw(6),
        lambda r: r.draw_many(6, 2),
    ):
        with pytest.raises(InvalidInput) as caught:
            record(RecordingSource(Broken(face)))  # type: ignore[arg-type]
        assert caught.value.field == "face"


def test_a_bad_die_is_refused_before_it_is_recorded() -> None:
    with pytest.raises(InvalidInput) as caught:
        RecordingSource(SeededSource(1)).draw_many(0, 1)
    assert caught.value.field == "sides"
    rng = random.Random(3)
    assert RecordingSource(SeededSource(3)).draw_many(6, 3) == tuple(
        rng.randrange(6) + 1 for _ in range(3)
    )
