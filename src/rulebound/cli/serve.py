"""``rulebound serve``: the web table on SQLite (or PostgreSQL) at http://127.0.0.1:8000.

One process by default; ``--discord`` also keeps Discord's gateway connection in it, for
the app's lifetime (``discord.gateway``). ``--workers N`` runs N server processes on one
port (uvicorn's supervisor, each worker on a socket of its own: ``cli/workers``); they need
Redis (``--redis``) as their backplane, for the live feed's notices and the shared rate
limits, and are meant for PostgreSQL.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.decorators import FC

from rulebound.cli.output import emit_text
from rulebound.cli.workers import PortClaim, run_workers

if TYPE_CHECKING:
    from fastapi import FastAPI

    from rulebound.discord.gateway import Bot

DEFAULT_DATABASE_URL = "sqlite:///./rulebound.sqlite3"
GRACEFUL_SHUTDOWN_SECONDS = 3
"""Open live feeds never finish on their own: give them this long, then close them."""


FULL_COLLECTION_EVERY = 100
"""Middle-generation collections before a full one is considered (Python's default: 10)."""


def settled(app: FastAPI) -> FastAPI:
    """``app``, with everything made so far (the modules, the app, its templates) moved out
    of the garbage collector's sight (``gc.freeze``): a full collection would walk all of
    it and hold the event loop meanwhile, and with it every live feed's fan-out. Later
    collections walk only what is made after, and full ones come ten times less often
    (``FULL_COLLECTION_EVERY``): a thousand viewers joining make many objects at once.
    ``docs/performance.md`` has the figures."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    return app


def gateway_bot(token_file: Path | None) -> Bot:
    """The bot that ``--discord`` connects (its token from the file or the environment)."""
    from rulebound.cli.discord import API, bot_token
    from rulebound.discord.gateway import Bot

    return Bot(bot_token(token_file), os.environ.get("DISCORD_API_URL") or API)


def worker_app() -> FastAPI:
    """A ``--workers`` process's app (each builds its own, from the environment)."""
    from rulebound.app import create_app

    return settled(create_app())


def database_option(text: str) -> Callable[[FC], FC]:
    """``--database``, the table's SQLAlchemy URL: ``rulebound discord run`` takes it as
    ``serve`` does, so that both find the same table by default."""
    return click.option(
        "--database",
        envvar="RULEBOUND_DATABASE_URL",
        default=DEFAULT_DATABASE_URL,
        show_default=True,
        help=text,
    )


@click.command("serve")
@database_option("SQLAlchemy URL: sqlite:///FILE (default: in this folder) or postgresql://...")
@click.option("--host", envvar="RULEBOUND_HOST", default="127.0.0.1", show_default=True)
@click.option("--port", envvar="RULEBOUND_PORT", type=int, default=8000, show_default=True)
@click.option(
    "--workers",
    envvar="RULEBOUND_WORKERS",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes on this port (more than one needs --redis; use PostgreSQL).",
)
@click.option(
    "--redis",
    "redis_url",
    envvar="RULEBOUND_REDIS_URL",
    default=None,
    help="redis://HOST:PORT/DB: the backplane between processes (feed notices, rate limits).",
)
@click.option(
    "--discord",
    is_flag=True,
    help="Also answer Discord over its gateway from this process (docs/discord.md).",
)
@click.option(
    "--discord-token-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="With --discord: a file holding the bot token (else env RULEBOUND_DISCORD_TOKEN).",
)
def command(
    database: str,
    host: str,
    port: int,
    workers: int,
    redis_url: str | None,
    discord: bool,
    discord_token_file: Path | None,
) -> None:
    """Run the virtual table: create a table in the browser and share its invite links."""
    import uvicorn

    from rulebound.app import create_app
    from rulebound.web.settings import Settings

    if workers > 1 and not redis_url:
        raise click.BadParameter(
            f"{workers} workers need Redis as their backplane: add --redis redis://HOST:PORT/0",
            param_hint="--workers",
        )
    if discord_token_file is not None and not discord:
        raise click.BadParameter("add --discord to use it", param_hint="--discord-token-file")
    if discord and workers > 1:
        raise click.BadParameter(
            "one gateway connection answers Discord: run `rulebound discord run` beside the "
            "workers instead",
            param_hint="--discord",
        )
    bot = gateway_bot(discord_token_file) if discord else None
    shown = f"database: {database}" + (f"; redis: {redis_url}" if redis_url else "")
    if workers > 1:
        # each worker process builds its app from the environment (Settings.from_env)
        os.environ.update(RULEBOUND_DATABASE_URL=database, RULEBOUND_REDIS_URL=str(redis_url))
        create_app(replace(Settings.from_env(), database_url=database)).state.store.close()
        config = uvicorn.Config(
            "rulebound.cli.serve:worker_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            access_log=False,  # it logs at INFO, below the level: skip building each line
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        )
        try:
            claim = PortClaim.bound(host, port)
        except OSError as exc:
            raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        emit_text(f"rulebound table on http://{host}:{port}  ({workers} workers; {shown})")
        run_workers(config, claim)
        return
    # the limits (RULEBOUND_RATE_*, RULEBOUND_MAX_BODY_BYTES) come from the environment
    settings = replace(
        Settings.from_env(), database_url=database, host=host, port=port, redis_url=redis_url
    )
    app = settled(create_app(settings, bot))
    shown += "; Discord: gateway" if bot is not None else ""
    emit_text(f"rulebound table on http://{host}:{port}  ({shown}; Ctrl+C stops)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )
