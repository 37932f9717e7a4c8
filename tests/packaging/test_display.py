"""Notebook display: ``Chances``, a ``Distribution`` and a designer table render as escaped
HTML tables (``_repr_html_``, which Jupyter calls); a grid adds its heatmap with matplotlib."""

from __future__ import annotations

import base64
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

import rulebound
from rulebound.core.display import html_table, percent
from rulebound.render import plot
from rulebound.rulesets.contract import Breakdown, Chances, Extra, Outcome
from rulebound.rulesets.grid import GridPanel, OddsGrid


class Cells(HTMLParser):
    """The text of each cell, row by row: what a reader of the table sees."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.tables = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables += 1
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def cells(html: str) -> Cells:
    parsed = Cells()
    parsed.feed(html)
    parsed.close()
    return parsed


def test_chances_show_success_outcomes_figures_and_breakdowns() -> None:
    chances = Chances(
        (
            Outcome("hit", "Hit <b>", Fraction(1, 3), True),
            Outcome("miss", "Miss", Fraction(2, 3), False),
        ),
        (
            Extra("bane", "P(bane)", Fraction(1, 8)),
            Extra("mean", "E[hits]", Fraction(3, 2), "expectation"),
        ),
        (Breakdown("ios", "IoS", (("0", Fraction(1, 2)), ("1", Fraction(1, 2)))),),
        outcome_name="results",
    )
    shown = cells(chances._repr_html_())
    assert shown.tables == 3
    assert shown.rows == [
        ["results", "chance"],
        ["success", "33.3% (1/3)"],
        ["Hit <b>", "33.3% (1/3)"],
        ["Miss", "66.7% (2/3)"],
        ["figure", "value"],
        ["P(bane)", "12.5% (1/8)"],
        ["E[hits]", "1.5 (3/2)"],
        ["IoS", "chance"],
        ["0", "50.0% (1/2)"],
        ["1", "50.0% (1/2)"],
    ]
    assert "Hit &lt;b&gt;" in chances._repr_html_()


def test_a_game_s_chances_render() -> None:
    odds = rulebound.game("rainwall").chances(dice=7, skill=5, dr=4, bonus=3)
    shown = cells(odds._repr_html_())
    assert shown.rows[1] == ["success (any degree)", "86.1% (172177/200000)"]
    assert ["Disaster", "<0.1% (1/78125)"] in shown.rows


def test_a_distribution_shows_each_outcome_weight_and_chance() -> None:
    two = rulebound.Distribution.die(2).repeat(2)
    shown = cells(two._repr_html_())
    assert shown.rows == [
        ["outcome", "weight", "chance"],
        ["2", "1", "25.0% (1/4)"],
        ["3", "2", "50.0% (1/2)"],
        ["4", "1", "25.0% (1/4)"],
    ]
    assert "<caption>total weight 4</caption>" in two._repr_html_()


def _grid() -> OddsGrid:
    panel = GridPanel("DR <3>", ((Fraction(1, 3), None), (Fraction(1), Fraction(0))))
    return OddsGrid("test", "T&T", "P(success)", "dice", "skill", ("1", "2"), ("a", "b"), (panel,))


def test_a_designer_table_shows_each_panel_and_its_heatmap() -> None:
    html = _grid()._repr_html_()
    shown = cells(html)
    assert shown.rows == [["dice \\ skill", "a", "b"], ["1", "33.3%", "-"], ["2", "100.0%", "0.0%"]]
    assert '<span title="1/3">33.3%</span>' in html
    assert "<caption>DR &lt;3&gt;</caption>" in html
    assert "<strong>T&amp;T</strong>" in html
    found = re.search(r'src="data:image/png;base64,([^"]+)"', html)
    assert found is not None
    assert base64.b64decode(found.group(1)).startswith(b"\x89PNG\r\n\x1a\n")


def test_without_matplotlib_a_designer_table_is_tables_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unavailable(grid: OddsGrid) -> bytes:
        raise plot.PlotUnavailable()

    monkeypatch.setattr(plot, "heatmap_png", unavailable)
    html = _grid()._repr_html_()
    assert "<img" not in html
    assert cells(html).tables == 1


def test_percentages_never_round_a_possible_result_away() -> None:
    assert (percent(Fraction(1, 100_000)), percent(Fraction(99_999, 100_000))) == (
        "<0.1%",
        ">99.9%",
    )
    assert html_table(["a"], [], "c", row_headers=False).startswith('<table class="rulebound">')
