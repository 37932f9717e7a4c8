"""Designer tables: a ruleset's success chances over its two main axes, as plain data.

Each ruleset builds an ``OddsGrid`` from its own exact odds (``<game>/tables.py``);
the renderers (text, CSV, JSON, heatmap) take any grid and never ask which game
it came from. A grid holds one or more panels that share their axes, one per
setting of the remaining knobs (a modifier, a push policy, a rules variant).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import TypeVar

from rulebound.core.errors import InvalidInput

R = TypeVar("R")
C = TypeVar("C")

Cell = Fraction | None
"""An exact chance, or None where the combination does not exist."""


@dataclass(frozen=True, slots=True)
class GridPanel:
    title: str
    cells: tuple[tuple[Cell, ...], ...]
    """``cells[r][c]``: the chance for row label ``r`` and column label ``c``."""


@dataclass(frozen=True, slots=True)
class OddsGrid:
    ruleset: str
    title: str
    measure: str
    """What each cell is the chance of ("P(success)")."""
    row_axis: str
    column_axis: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    panels: tuple[GridPanel, ...]
    panels_per_row: int = 4
    """A layout hint for plots: how many panels side by side."""

    def __post_init__(self) -> None:
        if not self.panels:
            raise InvalidInput("panels", (), "at least one panel")
        for panel in self.panels:
            widths = {len(row) for row in panel.cells}
            if len(panel.cells) != len(self.rows) or widths != {len(self.columns)}:
                raise InvalidInput(
                    f"panels[{panel.title!r}]",
                    (len(panel.cells), sorted(widths)),
                    f"{len(self.rows)} rows of {len(self.columns)} cells",
                )

    def _repr_html_(self) -> str:
        """A notebook's view: each panel as a table of percentages (the exact fraction on
        hover), and the heatmap beside them when matplotlib is installed (``[plot]``)."""
        from rulebound.core.display import html_table

        corner = f"{self.row_axis} \\ {self.column_axis}"
        parts = [f"<p><strong>{escape(self.title)}</strong>: {escape(self.measure)}</p>"]
        for panel in self.panels:
            rows = [(row, *cells) for row, cells in zip(self.rows, panel.cells, strict=True)]
            parts.append(html_table([corner, *self.columns], rows, panel.title, exact=False))
        chart = self._chart()
        if chart:
            parts.append(
                f'<img alt="{escape(self.title)}: heatmap" src="data:image/png;base64,{chart}">'
            )
        return "".join(parts)

    def _chart(self) -> str:
        """The heatmap as base64 PNG, or empty without matplotlib. (The renderer sits above
        this module: it is imported here only when a notebook asks for the view.)"""
        from rulebound.render.plot import PlotUnavailable, heatmap_png

        try:
            return base64.b64encode(heatmap_png(self)).decode("ascii")
        except PlotUnavailable:
            return ""

    def records(self) -> Iterator[tuple[str, str, str, Cell]]:
        """(panel, row, column, chance) for every cell, panel by panel, row by row."""
        for panel in self.panels:
            for row, cells in zip(self.rows, panel.cells, strict=True):
                for column, cell in zip(self.columns, cells, strict=True):
                    yield panel.title, row, column, cell


def build_panel(
    title: str,
    rows: Sequence[R],
    columns: Sequence[C],
    chance: Callable[[R, C], Cell],
) -> GridPanel:
    """A panel with ``chance(row, column)`` in every cell."""
    return GridPanel(title, tuple(tuple(chance(r, c) for c in columns) for r in rows))
