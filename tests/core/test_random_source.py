"""Random sources: seeded, system, recording and replay, and the Draw record."""

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rulebound.core.errors import InvalidInput, ReplayMismatch
from rulebound.core.random_source import (
    Draw,
    MiddleSource,
    RandomSource,
    RecordingSource,
    ReplaySource,
    SeededSource,
    SystemSource,
)

SIDES_PATTERN = [6, 20, 4, 100, 2, 8, 10, 12, 3, 1]


def faces(source: RandomSource, pattern: list[int] = SIDES_PATTERN) -> list[int]:
    return [source.draw(sides) for sides in pattern * 5]


# SeededSource ---------------------------------------------------------------------


def test_same_seed_gives_same_faces_across_mixed_sides() -> None:
    assert faces(SeededSource(1234)) == faces(SeededSource(1234))


def test_different_seeds_give_different_faces() -> None:
    assert faces(SeededSource(1)) != faces(SeededSource(2))


def test_seeded_faces_are_in_range_and_cover_every_face() -> None:
    source = SeededSource(99)
    rolls = [source.draw(6) for _ in range(600)]
    assert set(rolls) == set(range(1, 7))
    counts = Counter(rolls)
    assert all(60 < n < 140 for n in counts.values())


def test_seeded_describe_names_the_seed() -> None:
    assert SeededSource(42).describe() == {"kind": "seeded", "seed": 42}


def test_sources_satisfy_the_protocol() -> None:
    for source in (
        SeededSource(0),
        SystemSource(),
        ReplaySource([]),
        RecordingSource(SystemSource()),
    ):
        assert isinstance(source, RandomSource)


# SystemSource ---------------------------------------------------------------------


@pytest.mark.parametrize("sides", [1, 2, 6, 20, 1000])
def test_system_faces_are_in_range(sides: int) -> None:
    source = SystemSource()
    assert all(1 <= source.draw(sides) <= sides for _ in range(300))


def test_system_d1_always_shows_one_and_describes_itself() -> None:
    source = SystemSource()
    assert {source.draw(1) for _ in range(20)} == {1}
    assert source.describe() == {"kind": "system"}


# invalid sides --------------------------------------------------------------------


@pytest.mark.parametrize("sides", [0, -1, True, False, 2.0, "6"])
@pytest.mark.parametrize("make", [lambda: SeededSource(3), SystemSource, lambda: ReplaySource([])])
def test_invalid_sides_are_rejected(make: Callable[[], RandomSource], sides: Any) -> None:
    with pytest.raises(InvalidInput) as info:
        make().draw(sides)
    assert info.value.field == "sides"
    assert info.value.value is sides
    assert "positive integer" in info.value.expected


# RecordingSource ------------------------------------------------------------------


def test_recording_keeps_every_draw_in_order() -> None:
    recorder = RecordingSource(SeededSource(5))
    got = [recorder.draw(sides) for sides in (6, 20, 6, 4)]
    assert recorder.draws == (
        Draw(6, got[0]),
        Draw(20, got[1]),
        Draw(6, got[2]),
        Draw(4, got[3]),
    )
    plain = SeededSource(5)
    assert got == [plain.draw(sides) for sides in (6, 20, 6, 4)]


def test_recording_draws_are_a_snapshot_and_describe_delegates() -> None:
    recorder = RecordingSource(SeededSource(8))
    recorder.draw(6)
    snapshot = recorder.draws
    recorder.draw(6)
    assert len(snapshot) == 1
    assert len(recorder.draws) == 2
    assert isinstance(recorder.draws, tuple)
    assert recorder.describe() == {"kind": "seeded", "seed": 8}


def test_recording_does_not_record_a_failed_draw() -> None:
    recorder = RecordingSource(SeededSource(1))
    with pytest.raises(InvalidInput):
        recorder.draw(0)
    assert recorder.draws == ()


# ReplaySource ---------------------------------------------------------------------


def test_replay_feeds_back_a_recording_exactly() -> None:
    recorder = RecordingSource(SeededSource(77))
    original = [recorder.draw(sides) for sides in SIDES_PATTERN]
    replay = ReplaySource(recorder.draws)
    assert not replay.exhausted
    assert [replay.draw(sides) for sides in SIDES_PATTERN] == original
    assert replay.exhausted
    assert replay.describe() == {"kind": "replay", "draws": len(SIDES_PATTERN)}


def test_replay_accepts_any_iterable_of_draws() -> None:
    replay = ReplaySource(Draw(6, face) for face in (3, 1))
    assert [replay.draw(6), replay.draw(6)] == [3, 1]


def test_replay_rejects_wrong_sides_without_consuming_the_draw() -> None:
    replay = ReplaySource([Draw(6, 4), Draw(20, 17)])
    assert replay.draw(6) == 4
    with pytest.raises(ReplayMismatch) as info:
        replay.draw(8)
    assert info.value.index == 1
    assert "d20" in str(info.value)
    assert "d8" in str(info.value)
    assert replay.draw(20) == 17


def test_replay_raises_when_exhausted() -> None:
    replay = ReplaySource([Draw(4, 2)])
    replay.draw(4)
    with pytest.raises(ReplayMismatch) as info:
        replay.draw(4)
    assert info.value.index == 1
    assert "no more draws" in str(info.value)


def test_empty_replay_is_exhausted_from_the_start() -> None:
    replay = ReplaySource([])
    assert replay.exhausted
    with pytest.raises(ReplayMismatch):
        replay.draw(6)


# Draw -----------------------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 6])
def test_draw_accepts_faces_at_both_ends(face: int) -> None:
    assert Draw(6, face).face == face


@pytest.mark.parametrize("face", [0, 7, -1])
def test_draw_rejects_out_of_range_faces(face: int) -> None:
    with pytest.raises(InvalidInput) as info:
        Draw(6, face)
    assert info.value.field == "face"
    assert info.value.value == face
    assert "from 1 to 6" in info.value.expected


@pytest.mark.parametrize("sides", [0, -4])
def test_draw_rejects_non_positive_sides(sides: int) -> None:
    with pytest.raises(InvalidInput) as info:
        Draw(sides, 1)
    assert info.value.field == "sides"


def test_draw_rejects_a_non_integer_face() -> None:
    with pytest.raises(InvalidInput):
        Draw(6, 2.5)  # type: ignore[arg-type]


def test_draw_is_frozen_and_comparable() -> None:
    draw = Draw(6, 3)
    assert draw == Draw(6, 3)
    assert draw != Draw(6, 4)
    assert hash(draw) == hash(Draw(6, 3))
    with pytest.raises(AttributeError):
        draw.face = 5  # type: ignore[misc]


# MiddleSource ---------------------------------------------------------------------


def test_middle_source_shows_every_die_at_its_middle_face() -> None:
    source = MiddleSource()
    assert [source.draw(sides) for sides in (1, 2, 6, 10, 20)] == [1, 1, 3, 5, 10]
    assert source.describe() == {"kind": "middle faces"}
    with pytest.raises(InvalidInput):
        source.draw(0)
