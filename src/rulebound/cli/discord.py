"""``rulebound discord register`` sends the slash commands to Discord; ``rulebound discord
run`` answers them over Discord's gateway, beside ``rulebound serve`` on the same database
(docs/discord.md).

The bot token comes from the environment or a file, never from an option: a token typed
on a command line stays in the shell's history and shows in the process list.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import click

from rulebound.cli.output import emit_text, fail, rule_errors
from rulebound.cli.serve import database_option

TOKEN_ENV = "RULEBOUND_DISCORD_TOKEN"
"""The bot token (``discord.gateway.TOKEN_ENV``; here so the CLI reads it without hikari)."""
API = "https://discord.com/api/v10"


def bot_token(token_file: Path | None) -> str:
    """The bot token: the file's first line, else ``RULEBOUND_DISCORD_TOKEN``."""
    if token_file is not None:
        text = token_file.read_text(encoding="utf-8").strip()
        token = text.splitlines()[0].strip() if text else ""
        if not token:
            raise click.BadParameter(f"{token_file} holds no token", param_hint="--token-file")
        return token
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise click.UsageError(
            f"no bot token: set {TOKEN_ENV} or pass --token-file FILE (the Bot page's token)"
        )
    return token


TOKEN_FILE_HELP = f"A file holding the bot token (else env {TOKEN_ENV})."


@click.group("discord")
def command() -> None:
    """The Discord app: register its commands, and answer them over the gateway."""


@command.command("register")
@click.option(
    "--application-id",
    envvar="DISCORD_APPLICATION_ID",
    required=True,
    help="The application's id (General Information page); env DISCORD_APPLICATION_ID.",
)
@click.option(
    "--token",
    envvar=["DISCORD_BOT_TOKEN", TOKEN_ENV],
    required=True,
    help=f"The bot token (Bot page); set it in env DISCORD_BOT_TOKEN or {TOKEN_ENV} instead.",
)
@click.option(
    "--api",
    envvar="DISCORD_API_URL",
    default=API,
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


@command.command("run")
@database_option("The table's database: the one `rulebound serve` uses.")
@click.option(
    "--token-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help=TOKEN_FILE_HELP,
)
@click.option(
    "--api",
    envvar="DISCORD_API_URL",
    default=API,
    show_default=True,
    help="Discord's API base URL (the gateway's address comes from it).",
)
def run_command(database: str, token_file: Path | None, api: str) -> None:
    """Answer the commands over Discord's gateway: no public address needed."""
    from rulebound.app import create_app
    from rulebound.discord.gateway import Bot, run
    from rulebound.web.settings import Settings

    token = bot_token(token_file)
    settings = replace(Settings.from_env(), database_url=database)
    with rule_errors():
        app = create_app(settings, Bot(token, api))
    emit_text(f"rulebound on Discord's gateway (database: {database}; Ctrl+C stops)")
    with gateway_errors():
        try:
            asyncio.run(run(app))
        except KeyboardInterrupt:
            return
    fail("Discord closed the gateway connection", 1)


@contextmanager
def gateway_errors() -> Iterator[None]:
    """hikari's errors in words (they name the URL, never the token)."""
    import hikari

    try:
        yield
    except hikari.UnauthorizedError:
        fail("Discord refused the bot token (401): copy it again from the Bot page", 1)
    except hikari.HikariError as exc:
        fail(f"Discord's gateway: {exc}", 1)
