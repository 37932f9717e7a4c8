"""``rulebound discord register``: send the slash commands to Discord (docs/discord.md).

The application id and bot token come from the environment (``DISCORD_APPLICATION_ID``,
``DISCORD_BOT_TOKEN``), so the token never shows in a shell's history.
"""

from __future__ import annotations

import click

from rulebound.cli.output import emit_text, rule_errors


@click.group("discord")
def command() -> None:
    """The Discord app: register its commands."""


@command.command("register")
@click.option(
    "--application-id",
    envvar="DISCORD_APPLICATION_ID",
    required=True,
    help="The application's id (General Information page); env DISCORD_APPLICATION_ID.",
)
@click.option(
    "--token",
    envvar="DISCORD_BOT_TOKEN",
    required=True,
    help="The bot token (Bot page); set it in env DISCORD_BOT_TOKEN rather than here.",
)
@click.option(
    "--api",
    envvar="DISCORD_API_URL",
    default="https://discord.com/api/v10",
    show_default=True,
    help="Discord's API base URL.",
)
def register_command(application_id: str, token: str, api: str) -> None:
    """Send /rulebound, /roll, /odds and /r (every game's fields) to Discord."""
    from rulebound.discord.register import register
    from rulebound.web.settings import registry_games

    with rule_errors():
        registered = register(application_id, token, registry_games(), api)
    names = ", ".join("/" + str(c.get("name")) for c in registered)
    emit_text(f"registered {len(registered)} commands: {names}")
