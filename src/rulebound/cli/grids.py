"""``--table``, ``--csv`` and ``--plot`` for every ``rulebound odds <game>``.

Each game builds its own ``OddsGrid`` (``Game.grid``); this module only checks
the flags and writes the views.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rulebound.cli.output import emit_json, emit_text
from rulebound.core.errors import InvalidInput

if TYPE_CHECKING:
    from rulebound.rulesets.grid import OddsGrid

OPTIONS = (
    click.Option(
        ["--table", "table"],
        is_flag=True,
        help="Print the designer table: success chances over the main axes.",
    ),
    click.Option(
        ["--csv", "csv"], type=click.Path(path_type=Path), help="With --table: also write CSV here."
    ),
    click.Option(
        ["--plot", "plot"],
        type=click.Path(path_type=Path),
        help="With --table: also draw a heatmap, .png or .svg (needs rulebound[plot]).",
    ),
)


def table_flags(options: Mapping[str, Any]) -> bool:
    """Refuse --csv/--plot without --table, and a plot name we cannot write, before any work."""
    table, csv, plot = options.get("table"), options.get("csv"), options.get("plot")
    for name, path in (("--csv", csv), ("--plot", plot)):
        if path is not None and not table:
            raise InvalidInput(name, str(path), "--table as well (it writes the designer table)")
    if plot is not None:
        from rulebound.render.plot import plot_format

        plot_format(plot)
    return bool(table)


def emit_grid(grid: OddsGrid, options: Mapping[str, Any], as_json: bool) -> None:
    """Write the files asked for, then print the grid (or its JSON with the paths written)."""
    from rulebound.render.grid import grid_json, grid_text, write_grid_csv

    csv, plot = options.get("csv"), options.get("plot")
    if csv is not None:
        write_grid_csv(grid, csv)
    if plot is not None:
        from rulebound.render.plot import write_heatmap

        write_heatmap(grid, plot)
    if as_json:
        files = {"csv": str(csv) if csv else None, "plot": str(plot) if plot else None}
        emit_json({**grid_json(grid), "files": files})
        return
    emit_text(grid_text(grid))
    for kind, path in (("CSV", csv), ("heatmap", plot)):
        if path is not None:
            emit_text(f"{kind} written to {path}")
