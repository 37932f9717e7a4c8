"""``rulebound ledger LOG.json``: the story of the dice, from a table's exported log.

Each member's luck against the exact odds of the checks they made, from the export alone
(the one ``rulebound verify`` checks), so anyone with the file gets the same figures: text,
``--json`` (fractions exact, as ``"p/q"``) or ``--plot`` to a PNG or SVG.
"""

from __future__ import annotations

from pathlib import Path

import click

from rulebound.cli.output import JSON_HELP, emit_json, emit_text, rule_errors


@click.command("ledger")
@click.argument("export", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.option(
    "--plot",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also draw the charts to this .png or .svg file (needs rulebound[plot]).",
)
def command(export: Path, as_json: bool, plot: Path | None) -> None:
    """Each member's luck against the exact odds of the checks they made.

    EXPORT is a table's JSON log export (the one `rulebound verify` checks), or - to read it
    from standard input."""
    from rulebound.cli.verify import _load
    from rulebound.ledger import ledger, ledger_json

    with rule_errors():
        found = ledger(_load(export))
        if plot is not None:
            from rulebound.render.ledger_plot import write_ledger_plot

            write_ledger_plot(found, plot)
    if as_json:
        emit_json(ledger_json(found))
        return
    from rulebound.render.ledger_text import ledger_lines

    for text in ledger_lines(found):
        emit_text(text)
    if plot is not None:
        emit_text(f"\nCharts written to {plot}")
