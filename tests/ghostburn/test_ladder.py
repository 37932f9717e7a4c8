"""The DL ladder: names and numbers, GM shifts by level, and DLs that fall between levels."""

from __future__ import annotations

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.ladder import Difficulty, Ladder, Level
from rulebound.rulesets.ghostburn.options import BottomFade, OffLadderReading, Options

SNAP = Options(off_ladder=OffLadderReading.SNAP_TO_LADDER)


def test_known_levels_are_on_the_default_ladder(content: GhostburnContent) -> None:
    assert content.ladder.parse("dl", "Moderate") == 14
    assert content.ladder.parse("dl", "hard") == 20
    assert content.ladder.parse("dl", "17") == 17


def test_unknown_level_name_lists_the_ladder(content: GhostburnContent) -> None:
    with pytest.raises(InvalidInput, match=r"Moderate \(14\), Hard \(20\)") as err:
        content.ladder.parse("dl", "Brutal")
    assert err.value.field == "dl"


@pytest.mark.parametrize("value", [0, 101, "-3"])
def test_dl_out_of_range_is_rejected(content: GhostburnContent, value: int | str) -> None:
    with pytest.raises(InvalidInput, match="from 1 to 100"):
        content.ladder.parse("dl", value)


@pytest.mark.parametrize(
    ("shift", "label"), [(-1, "Easy (8)"), (1, "Hard (20)"), (3, "Extreme (32)")]
)
def test_gm_shifts_move_along_the_ladder(content: GhostburnContent, shift: int, label: str) -> None:
    assert Difficulty.make(14, content.ladder, Options(), shift=shift).label == label


@pytest.mark.parametrize("shift", [-2, 4])
def test_shifting_past_the_ends_names_the_accepted_range(
    content: GhostburnContent, shift: int
) -> None:
    with pytest.raises(InvalidInput, match=r"from -1 to \+3 levels for DL 14") as err:
        Difficulty.make(14, content.ladder, Options(), shift=shift)
    assert (err.value.field, err.value.value) == ("dl_shift", shift)


def test_fade_starts_one_level_below_an_on_ladder_dl(content: GhostburnContent) -> None:
    hard = Difficulty.make(20, content.ladder, Options())
    assert (hard.threshold(-1), hard.threshold(1)) == (14, 26)
    assert Difficulty.make(8, content.ladder, Options()).threshold(-1) is None


def test_off_ladder_dl_keeps_its_offset_by_default(content: GhostburnContent) -> None:
    dl = Difficulty.make(17, content.ladder, Options())
    assert (dl.threshold(-1), dl.threshold(1), dl.label) == (11, 23, "DL 17")
    assert Difficulty.make(17, content.ladder, Options(), shift=1).value == 23


def test_off_ladder_dl_snaps_to_neighbouring_levels_in_the_variant(
    content: GhostburnContent,
) -> None:
    dl = Difficulty.make(17, content.ladder, SNAP)
    assert (dl.threshold(-1), dl.threshold(-2), dl.threshold(1)) == (14, 8, 20)
    assert Difficulty.make(17, content.ladder, SNAP, shift=1).label == "Hard (20)"


def test_both_readings_agree_on_ladder_levels(content: GhostburnContent) -> None:
    for level in content.ladder.levels:
        for k in (-2, -1, 1, 2):
            plain = Difficulty.make(level.value, content.ladder, Options()).threshold(k)
            snapped = Difficulty.make(level.value, content.ladder, SNAP).threshold(k)
            assert plain == snapped


def test_dl_below_the_ladder_has_no_lower_level(content: GhostburnContent) -> None:
    dl = Difficulty.make(5, content.ladder, Options(bottom_fade=BottomFade.OPEN))
    assert (dl.threshold(-1), dl.threshold(1)) == (None, 11)


@pytest.mark.parametrize(
    "levels",
    [
        (),
        (Level("A", 5), Level("B", 5)),
        (Level("A", 9), Level("B", 5)),
        (Level("A", 1), Level("a", 5)),
    ],
)
def test_a_malformed_ladder_is_rejected(levels: tuple[Level, ...]) -> None:
    with pytest.raises(InvalidInput, match="ladder"):
        Ladder(levels)
