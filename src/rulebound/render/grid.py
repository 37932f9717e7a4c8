"""Views of a designer table (``OddsGrid``): terminal text, CSV and JSON.

The CSV is long ("tidy"): one line per cell with the panel, both axis values,
the exact chance as a fraction string and its float, so a spreadsheet pivot or
a plotting script can rebuild any view without parsing percentages.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from rulebound.core.canonical import fraction_text
from rulebound.core.display import percent
from rulebound.rulesets.grid import Cell, OddsGrid


def grid_text(grid: OddsGrid) -> str:
    """Each panel as an aligned table of percentages; the exact values are in CSV and JSON."""
    corner = f"{grid.row_axis} \\ {grid.column_axis}"
    first = max(len(corner), *(len(r) for r in grid.rows))
    widths = [max(len(c), 6) for c in grid.columns]
    lines = [f"{grid.title}: {grid.measure}"]
    for panel in grid.panels:
        lines += ["", panel.title]
        header = [c.rjust(w) for c, w in zip(grid.columns, widths, strict=True)]
        lines.append("  ".join([corner.ljust(first), *header]))
        for row, cells in zip(grid.rows, panel.cells, strict=True):
            values = [percent(cell).rjust(w) for cell, w in zip(cells, widths, strict=True)]
            lines.append("  ".join([row.ljust(first), *values]))
    return "\n".join(lines)


def grid_csv(grid: OddsGrid) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["panel", grid.row_axis, grid.column_axis, "p_success", "p_success_float"])
    for panel, row, column, cell in grid.records():
        exact = "" if cell is None else fraction_text(cell)
        approx = "" if cell is None else repr(float(cell))
        writer.writerow([panel, row, column, exact, approx])
    return out.getvalue()


def write_grid_csv(grid: OddsGrid, path: Path) -> None:
    path.write_text(grid_csv(grid), encoding="utf-8")


def grid_json(grid: OddsGrid) -> dict[str, Any]:
    """The grid with every chance as an exact fraction string (null where none) and a float twin."""
    return {
        "ruleset": grid.ruleset,
        "title": grid.title,
        "measure": grid.measure,
        "row_axis": grid.row_axis,
        "column_axis": grid.column_axis,
        "rows": list(grid.rows),
        "columns": list(grid.columns),
        "panels": [
            {
                "title": panel.title,
                "p_success": [[_exact(c) for c in row] for row in panel.cells],
                "p_success_float": [[_float(c) for c in row] for row in panel.cells],
            }
            for panel in grid.panels
        ],
    }


def _exact(cell: Cell) -> str | None:
    return None if cell is None else fraction_text(cell)


def _float(cell: Cell) -> float | None:
    return None if cell is None else float(cell)
