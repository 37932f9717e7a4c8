"""Reading a result off a chart: Success at the DL, Fade one level lower, Failure below."""

from __future__ import annotations

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.ghostburn.chart import Band, Chart
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.options import BottomFade, Options
from rulebound.rulesets.ghostburn.rules import classify


def _band(
    content: GhostburnContent, total: int, dl: int, chart: str = "default", bottom: str = "none"
) -> str:
    difficulty = Difficulty.make(dl, content.ladder, Options(bottom_fade=BottomFade(bottom)))
    return classify(total, difficulty, content.chart(chart)).key


@pytest.mark.parametrize(
    ("total", "band"),
    [(20, "success"), (25, "success"), (19, "fade"), (14, "fade"), (13, "failure")],
)
def test_default_chart_against_hard(content: GhostburnContent, total: int, band: str) -> None:
    assert _band(content, total, 20) == band


def test_graded_chart_has_a_band_one_level_above(content: GhostburnContent) -> None:
    assert [_band(content, t, 14, "graded") for t in (20, 19, 14, 8, 7)] == [
        "overdrive",
        "success",
        "success",
        "fade",
        "failure",
    ]


def test_band_above_the_top_level_is_never_reached(content: GhostburnContent) -> None:
    assert _band(content, 60, 32, "graded") == "success"


def test_at_the_lowest_level_a_miss_is_a_failure_by_default(content: GhostburnContent) -> None:
    assert _band(content, 7, 8) == "failure"


def test_open_bottom_fade_turns_every_miss_at_the_lowest_level_into_a_fade(
    content: GhostburnContent,
) -> None:
    assert _band(content, 2, 8, bottom="open") == "fade"
    assert _band(content, 13, 20, bottom="open") == "failure"


def test_trick_outcomes_replace_chart_text(content: GhostburnContent) -> None:
    chart = content.chart("default").with_outcomes({"fade": "Nearly."})
    assert chart.band("fade").outcome == "Nearly."
    assert chart.band("success").outcome == content.chart("default").band("success").outcome
    with pytest.raises(InvalidInput, match="success, fade, failure"):
        chart.with_outcomes({"crit": "x"})


def _chart(*levels: int | None) -> Chart:
    return Chart("c", tuple(Band(f"b{i}", "B", level, "") for i, level in enumerate(levels)))


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        ((0, -1), "exactly one floor band"),
        ((0, None, None), "exactly one floor band"),
        ((-1, 0, None), "strictly descending"),
        ((1, -1, None), "from_level 0"),
    ],
)
def test_malformed_charts_are_rejected(levels: tuple[int | None, ...], expected: str) -> None:
    with pytest.raises(InvalidInput, match=expected):
        _chart(*levels)


def test_band_keys_must_be_distinct() -> None:
    with pytest.raises(InvalidInput, match="distinct band keys"):
        Chart("c", (Band("x", "X", 0, ""), Band("x", "X", None, "")))
