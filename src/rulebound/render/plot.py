"""A heatmap of a designer table, as PNG or SVG, drawn with matplotlib.

matplotlib is an optional extra (``pip install 'rulebound[plot]'``), imported
only when a plot is asked for. The figure is drawn on the non-interactive Agg
canvas without pyplot, so no window, no global state and no display is needed.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any, BinaryIO

from rulebound.core.display import percent
from rulebound.core.errors import InvalidInput, RuleboundError
from rulebound.rulesets.grid import OddsGrid

FORMATS = {".png": "png", ".svg": "svg"}
INSTALL_HINT = "pip install 'rulebound[plot]'"


class PlotUnavailable(RuleboundError):
    """The optional plotting dependency is not installed."""

    def __init__(self) -> None:
        super().__init__(f"plotting needs matplotlib, which is not installed: {INSTALL_HINT}")


def _matplotlib() -> tuple[Any, Any, Any, Any]:
    try:
        from matplotlib import colormaps, rc_context
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailable() from None
    return Figure, FigureCanvasAgg, colormaps, rc_context


def plot_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InvalidInput("--plot", str(path), "a file name ending in .png or .svg")
    return fmt


def write_heatmap(grid: OddsGrid, path: Path) -> None:
    """One heatmap per panel, on a shared 0-100% colour scale, each cell labelled."""
    _draw(grid, path, plot_format(path))


def heatmap_png(grid: OddsGrid) -> bytes:
    """The heatmap as PNG bytes (a notebook shows it beside the grid's tables)."""
    out = io.BytesIO()
    _draw(grid, out, "png")
    return out.getvalue()


def _draw(grid: OddsGrid, target: Path | BinaryIO, fmt: str) -> None:
    figure_class, canvas_class, colormaps, rc_context = _matplotlib()
    per_row = max(1, min(grid.panels_per_row, len(grid.panels)))
    lines = math.ceil(len(grid.panels) / per_row)
    cell = 0.5
    width = max(2.8, cell * len(grid.columns) + 1.2)
    height = max(2.4, cell * len(grid.rows) + 1.4)
    size = (width * per_row + 1.0, height * lines + 0.6)
    figure = figure_class(figsize=size, dpi=100, layout="constrained")
    canvas_class(figure)
    cmap = colormaps["viridis"].with_extremes(bad="#dddddd")
    axes = figure.subplots(lines, per_row, squeeze=False)
    image = None
    for index, ax in enumerate(axes.flat):
        if index >= len(grid.panels):
            ax.set_axis_off()
            continue
        panel = grid.panels[index]
        values = [[math.nan if c is None else float(c) for c in row] for row in panel.cells]
        labels = [[percent(c, 0) for c in row] for row in panel.cells]
        image = ax.imshow(values, cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
        ax.set_title(panel.title, fontsize=9)
        ax.set_xticks(range(len(grid.columns)), grid.columns, rotation=45, ha="right", fontsize=7)
        ax.set_yticks(range(len(grid.rows)), grid.rows, fontsize=7)
        ax.set_xlabel(grid.column_axis, fontsize=8)
        ax.set_ylabel(grid.row_axis, fontsize=8)
        for r, row in enumerate(values):
            for c, value in enumerate(row):
                if not math.isnan(value):
                    colour = "black" if value > 0.6 else "white"
                    ax.text(c, r, labels[r][c], ha="center", va="center", fontsize=6, color=colour)
    if image is not None:
        figure.colorbar(image, ax=axes, shrink=0.8, label=grid.measure)
    figure.suptitle(f"{grid.title}: {grid.measure}")
    # SVG keeps its text as text (searchable, small); no dates, so the same grid, the same file
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "rulebound"}):
        figure.savefig(target, format=fmt, metadata={"Date": None} if fmt == "svg" else {})
