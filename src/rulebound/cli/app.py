"""The ``rulebound`` command: every command for every game, built from the contract.

``roll``, ``odds``, ``character`` and ``content`` hold one command per registered game
(``commands.GameGroup``); nothing per game is written here, and nothing is imported
until a command needs it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import click

from rulebound import __version__
from rulebound.cli.commands import (
    GameGroup,
    character_command,
    content_command,
    new_character_command,
    odds_command,
    roll_command,
)
from rulebound.cli.extras import named_extras


class LazyCommands(click.Group):
    """Top-level commands whose modules load only when the command runs; a command that
    needs an extra that is not installed says which (``cli.extras``)."""

    LAZY: ClassVar[dict[str, tuple[str, str]]] = {
        "serve": ("rulebound.cli.serve", "Run the virtual table in the browser."),
        "verify": ("rulebound.cli.verify", "Check an exported table log, entry by entry."),
        "discord": ("rulebound.cli.discord", "The Discord app: register and run its bot."),
        "dice": ("rulebound.cli.dice", "Roll free dice (4d6kh3, 1d20+5 adv) with exact odds."),
        "ledger": ("rulebound.cli.ledger", "Each member's luck against the odds, from a log."),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY:
            import importlib

            command: click.Command = importlib.import_module(self.LAZY[cmd_name][0]).command
            return command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.commands[name].get_short_help_str()) for name in self.commands]
        rows += [(name, text) for name, (_, text) in self.LAZY.items()]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))

    def invoke(self, ctx: click.Context) -> Any:
        def command() -> str:
            return " ".join([ctx.command_path, ctx.invoked_subcommand or ""]).strip()

        with named_extras(command):
            return super().invoke(ctx)


app = LazyCommands(
    "rulebound",
    help="Exact rules and exact odds for tabletop skill checks.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
click.version_option(__version__, "--version", prog_name="rulebound")(app)
app.add_command(GameGroup("roll", roll_command, "Roll a check, with its full trace."))
app.add_command(GameGroup("odds", odds_command, "Exact odds before you roll."))
app.add_command(
    GameGroup(
        "character",
        character_command,
        "Create and inspect character files.",
        extra=[GameGroup("new", new_character_command, "Create a character.")],
    )
)
app.add_command(GameGroup("content", content_command, "List a game's content."))


@app.command()
def version() -> None:
    """Print the installed version."""
    click.echo(__version__)


def main() -> None:
    app()
