"""``--table``, ``--csv`` and ``--plot`` for every ``rulebound odds <ruleset>`` command.

Each ruleset's CLI module builds its own ``OddsGrid`` (from ``<game>/tables.py``)
and hands it here; this module only checks the flags and writes the views.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebound.cli.common import emit_json, emit_text
from rulebound.core.errors import InvalidInput
from rulebound.render.grid import grid_json, grid_text, write_grid_csv
from rulebound.render.plot import plot_format, write_heatmap
from rulebound.rulesets.grid import OddsGrid

TableOpt = Annotated[
    bool,
    typer.Option("--table", help="Print the designer table: success chances over the main axes."),
]
CsvOpt = Annotated[
    Path | None, typer.Option("--csv", help="With --table: also write the grid as CSV here.")
]
PlotOpt = Annotated[
    Path | None,
    typer.Option(
        "--plot", help="With --table: also draw a heatmap, .png or .svg (needs rulebound[plot])."
    ),
]


def check_table_flags(table: bool, csv: Path | None, plot: Path | None) -> None:
    """Refuse --csv/--plot without --table, and a plot name we cannot write, before any work."""
    for name, path in (("--csv", csv), ("--plot", plot)):
        if path is not None and not table:
            raise InvalidInput(name, str(path), "--table as well (it writes the designer table)")
    if plot is not None:
        plot_format(plot)


def emit_grid(grid: OddsGrid, csv: Path | None, plot: Path | None, as_json: bool) -> None:
    """Write the files asked for, then print the grid (or its JSON with the paths written)."""
    if csv is not None:
        write_grid_csv(grid, csv)
    if plot is not None:
        write_heatmap(grid, plot)
    if as_json:
        files = {"csv": str(csv) if csv else None, "plot": str(plot) if plot else None}
        emit_json({**grid_json(grid), "files": files})
        return
    emit_text(grid_text(grid))
    for kind, path in (("CSV", csv), ("heatmap", plot)):
        if path is not None:
            emit_text(f"{kind} written to {path}")
