"""The ``rulebound`` command: ``roll``, ``odds`` and ``character`` groups.

Each ruleset contributes its commands from its own CLI module, listed in
``COMMAND_MODULES``; this file only assembles them.
"""

from __future__ import annotations

import importlib

import typer

from rulebound import __version__
from rulebound.cli.common import emit_text

COMMAND_MODULES: tuple[str, ...] = (
    "rulebound.cli.empty_reach",
    "rulebound.cli.rainwall",
    "rulebound.cli.legacy",
    "rulebound.cli.ghostburn",
)

app = typer.Typer(
    name="rulebound",
    help="Exact rules and exact odds for tabletop skill checks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
roll_app = typer.Typer(help="Roll a check, with its full trace.", no_args_is_help=True)
odds_app = typer.Typer(help="Exact odds before you roll.", no_args_is_help=True)
character_app = typer.Typer(help="Create and inspect character files.", no_args_is_help=True)
app.add_typer(roll_app, name="roll")
app.add_typer(odds_app, name="odds")
app.add_typer(character_app, name="character")


@app.command()
def version() -> None:
    """Print the installed version."""
    emit_text(__version__)


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(roll_app, odds_app, character_app)

importlib.import_module("rulebound.cli.serve").register(app)
importlib.import_module("rulebound.cli.verify").register(app)


def main() -> None:
    app()
