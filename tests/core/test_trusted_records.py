"""The cheap record path (issue 16): trusted builders and ``RecordingSource.draw_many``.

A trusted build must be the very value the class's own constructor makes (equal, same
hash, frozen), and a face a source got wrong must still be refused by name.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

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
    readers: tuple[Callable[[RecordingSource], object], ...] = (
        lambda r: r.draw(6),
        lambda r: r.draw_many(6, 2),
    )
    for record in readers:
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


@given(
    st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4), max_size=4),
    st.lists(st.integers(1, 6), max_size=4),
)
def test_a_provenance_is_the_constructors_value(
    description: dict[str, object], faces: list[int]
) -> None:
    from rulebound.core.trace import Provenance

    draws = tuple(Draw(6, face) for face in faces)
    made = Provenance.of(description, draws)
    want = Provenance(tuple((k, str(v)) for k, v in sorted(description.items())), draws)
    assert made == want
    assert hash(made) == hash(want)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.draws = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    "payload",
    [
        {"attribute_die": "D8", "skill_die": "D10"},
        {
            "attribute_die": "D6",
            "skill": "Force",
            "helpers": 2,
            "gear": {"name": "bar", "bonus": 1},
        },
        {"attribute_die": "D8", "opposed": {"attribute_die": "D6", "skill_die": "D8"}},
    ],
)
def test_a_prepared_empty_reach_check_is_the_constructors_value(payload: dict[str, object]) -> None:
    from rulebound.rulesets.empty_reach.check import CheckRequest, PreparedCheck, prepare
    from rulebound.rulesets.empty_reach.rules import StepDie
    from rulebound.rulesets.empty_reach.steps import Pool

    request = CheckRequest.model_validate(payload)
    made = prepare(request)
    assert made.request is request  # each value in its own field
    assert made.net == sum(m.value for m in made.modifiers)
    assert isinstance(made.start, Pool)
    assert isinstance(made.pool, Pool)
    assert made.start.dice[0] == request.attribute_die
    assert all(isinstance(d, StepDie) for d in made.gear_dice)
    assert made.max_pushes == 1
    assert made.cost in (None, "damage", "stress")
    assert (made.defender is None) == (request.opposed is None)
    fields = {f.name: getattr(made, f.name) for f in dataclasses.fields(PreparedCheck)}
    want = PreparedCheck(**fields)
    assert made == want
    assert hash(made) == hash(want)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.net = 3  # type: ignore[misc]


def test_a_pushs_costs_are_the_constructors_value() -> None:
    from rulebound.core.random_source import SeededSource
    from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
    from rulebound.rulesets.empty_reach.roll import PushCosts, push, roll_check

    check = prepare(CheckRequest.model_validate({"attribute_die": "D6", "skill_die": "D6"}))
    source = SeededSource(7)
    seen = 0
    for _ in range(200):
        result = roll_check(check, source)
        if not result.rerollable():
            continue
        costs = push(result, source, result.rerollable()).costs
        assert costs is not None
        fields = {f.name: getattr(costs, f.name) for f in dataclasses.fields(PushCosts)}
        assert costs == PushCosts(**fields)
        assert costs.points + costs.gear_loss == costs.new_banes  # each field its own value
        assert all(isinstance(die, DieRecord) for die in costs.gear_checks)
        seen += costs.new_banes > 0
    assert seen  # some pushes did cost something
