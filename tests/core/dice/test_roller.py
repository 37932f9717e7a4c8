"""Rolls draw from the injected source in the documented order, keep every die's story, and
replay exactly from their recorded draws."""

from __future__ import annotations

import pytest

from rulebound.core.dice import DiceLimits, parse, roll, roll_lines
from rulebound.core.errors import LimitExceeded
from rulebound.core.random_source import RecordingSource, ReplaySource, SeededSource


class Faces:
    """A source that gives the faces listed, in order, and records what was asked."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[int] = []

    def draw(self, sides: int) -> int:
        self.asked.append(sides)
        return self.faces.pop(0)

    def describe(self) -> dict[str, object]:
        return {"kind": "listed"}


def test_keep_highest_marks_the_dropped_die() -> None:
    rolled = roll(parse("4d6kh3"), Faces(3, 6, 1, 4))
    assert rolled.total == 13
    assert [(d.value, d.kept) for d in rolled.dice] == [(3, True), (6, True), (1, False), (4, True)]
    assert roll_lines(rolled) == ("4d6kh3 (3, 6, ~1, 4) = 13",)


def test_rerolls_explosions_and_minimums_keep_their_history() -> None:
    rolled = roll(parse("2d6rr1"), Faces(1, 5, 1, 2))
    assert [d.faces for d in rolled.dice] == [(1, 1, 2), (5,)]  # each round rerolls in order
    assert rolled.total == 7
    exploded = roll(parse("2d6e6"), Faces(6, 2, 6, 3))
    assert [(d.value, d.exploded, d.added) for d in exploded.dice] == [
        (6, True, False),
        (2, False, False),
        (6, True, True),
        (3, False, True),
    ]
    assert exploded.total == 17
    raised = roll(parse("3d6mi3"), Faces(1, 5, 2))
    assert [d.value for d in raised.dice] == [3, 5, 3]
    assert raised.dice[0].marks == ("set to 3",)


def test_explosions_stop_at_the_cap_per_chain() -> None:
    limits = DiceLimits(max_explosions=2)
    rolled = roll(parse("1d6e6", limits=limits), Faces(6, 6, 6), limits)
    assert rolled.total == 18  # the second extra die shows 6 but adds no third
    assert [d.exploded for d in rolled.dice] == [True, True, False]


def test_reroll_once_and_reroll_and_add_follow_d20() -> None:
    once = roll(parse("3d6ro<3"), Faces(1, 4, 2, 1, 6))
    assert [d.faces for d in once.dice] == [(1, 1), (4,), (2, 6)]
    added = roll(parse("3d6ra6"), Faces(6, 6, 2, 5))
    assert [d.value for d in added.dice] == [6, 6, 2, 5]  # only the first 6 adds a die
    assert added.total == 19


def test_success_counting_counts_kept_dice_that_meet_the_target() -> None:
    rolled = roll(parse("5d10>=7"), Faces(7, 3, 10, 6, 9))
    assert rolled.total == 3
    assert [d.success for d in rolled.dice] == [True, False, True, False, True]
    under = roll(parse("3d10<=6"), Faces(7, 3, 6))
    assert under.total == 2


def test_fudge_dice_draw_a_d3_and_d_percent_a_d100() -> None:
    source = Faces(1, 2, 3, 100)
    rolled = roll(parse("3dF+d%"), source)
    assert source.asked == [3, 3, 3, 100]
    assert rolled.total == -1 + 0 + 1 + 100
    assert [d.label for d in rolled.dice] == ["dF", "dF", "dF", "d100"]


def test_repeats_roll_the_expression_again_and_division_truncates_like_d20() -> None:
    rolled = roll(parse("3#1d6"), Faces(2, 5, 6))
    assert rolled.totals == (2, 5, 6)
    assert roll(parse("15/2"), Faces()).total == 7
    assert roll(parse("-15/2"), Faces()).total == -7


def test_sets_keep_and_drop_their_items_by_value() -> None:
    rolled = roll(parse("(1d4+1, 3, 2d6kl1)kh1"), Faces(4, 2, 5))
    assert rolled.total == 5
    assert [p.kept for p in rolled.rolls[0].parts] == [True, False, False]


@pytest.mark.parametrize(
    "typed", ["4d6kh3", "6#4d6kh3", "10d10e10>=8", "1d20rr<20", "(1d6, 2d6kl1)kh1+4dF", "3d6mi2"]
)
def test_a_roll_replays_exactly_from_its_recorded_draws(typed: str) -> None:
    parsed = parse(typed)
    recording = RecordingSource(SeededSource(11))
    first = roll(parsed, recording)
    replay = ReplaySource(recording.draws)
    again = roll(parse(parsed.text()), replay)
    assert again == first
    assert replay.exhausted


def test_the_draws_cap_stops_a_roll_that_would_go_on() -> None:
    limits = DiceLimits(max_draws=5)

    class Ones:
        def draw(self, sides: int) -> int:
            return 1

        def describe(self) -> dict[str, object]:
            return {}

    with pytest.raises(LimitExceeded):
        roll(parse("1d20rr1"), Ones(), limits)
