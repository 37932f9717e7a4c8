"""The DL ladder: names and numbers, GM shifts by level, and DLs that fall between levels."""

from __future__ import annotations

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.ladder import MAX_DL, MIN_DL, Difficulty, Ladder, Level
from rulebound.rulesets.ghostburn.options import BottomFade, OffLadderReading, Options
from rulebound.rulesets.ghostburn.rules import classify

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


def test_a_dl_between_the_two_lowest_levels_fades_from_the_lowest(
    content: GhostburnContent,
) -> None:
    """Easy (8) has no band below it, so 13 (Moderate less one) fades from Easy: a 12 that
    fades against Moderate (14) fades against 13 too, whichever bottom-fade reading."""
    chart = content.chart("default")
    for bottom in BottomFade:
        options = Options(bottom_fade=bottom)
        for dl in (9, 13):
            assert Difficulty.make(dl, content.ladder, options).threshold(-1) == 8
            assert Difficulty.make(dl, content.ladder, options).threshold(-2) is None
            outcomes = [
                classify(t, Difficulty.make(dl, content.ladder, options), chart).key for t in (7, 8)
            ]
            assert outcomes == ["failure", "fade"]
        assert Difficulty.make(13, content.ladder, options, shift=-1).label == "Easy (8)"
        with pytest.raises(InvalidInput, match=r"from -1 to \+4 levels for DL 13"):
            Difficulty.make(13, content.ladder, options, shift=-2)
    assert Difficulty.make(17, content.ladder, Options()).threshold(-2) == 8


READINGS = [
    Options(off_ladder=reading, bottom_fade=bottom)
    for reading in OffLadderReading
    for bottom in BottomFade
]


HOMEBREW = Ladder((Level("Low", 5), Level("Mid", 9), Level("Steep", 30), Level("Top", 31)))
"""Uneven steps, a level at 31 right above one at 30."""


@pytest.mark.parametrize("homebrew", [False, True], ids=["built-in ladder", "homebrew ladder"])
@pytest.mark.parametrize("options", READINGS, ids=str)
def test_a_harder_dl_never_gives_a_better_outcome(
    content: GhostburnContent, options: Options, homebrew: bool
) -> None:
    """Every DL against the next one up, for every total a roll can make, on every chart."""
    ladder = HOMEBREW if homebrew else content.ladder
    for chart in content.charts.values():
        rank = [band.key for band in chart.bands]
        for dl in range(MIN_DL, MAX_DL):
            easier, harder = (Difficulty.make(d, ladder, options) for d in (dl, dl + 1))
            for total in range(-18, 61):
                was, now = classify(total, easier, chart), classify(total, harder, chart)
                assert rank.index(now.key) >= rank.index(was.key), (chart.key, dl, total)


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
