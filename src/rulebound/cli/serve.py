"""``rulebound serve``: the web table on SQLite (or PostgreSQL) at http://127.0.0.1:8000."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

import typer

from rulebound.cli.common import emit_text
from rulebound.web.settings import DEFAULT_DATABASE_URL, DEFAULT_HOST, DEFAULT_PORT

GRACEFUL_SHUTDOWN_SECONDS = 3
"""Open live feeds never finish on their own: give them this long, then close them."""


def serve(
    database: Annotated[
        str,
        typer.Option(
            "--database",
            envvar="RULEBOUND_DATABASE_URL",
            help="SQLAlchemy URL: sqlite:///FILE (default: in this folder) or postgresql://...",
        ),
    ] = DEFAULT_DATABASE_URL,
    host: Annotated[str, typer.Option(envvar="RULEBOUND_HOST", help="Address to listen on.")] = (
        DEFAULT_HOST
    ),
    port: Annotated[int, typer.Option(envvar="RULEBOUND_PORT", help="Port to listen on.")] = (
        DEFAULT_PORT
    ),
) -> None:
    """Run the virtual table: create a table in the browser and share its invite links."""
    import uvicorn

    from rulebound.web.app import create_app
    from rulebound.web.settings import Settings

    # the limits (RULEBOUND_RATE_*, RULEBOUND_MAX_BODY_BYTES) come from the environment
    settings = replace(Settings.from_env(), database_url=database, host=host, port=port)
    app = create_app(settings)
    emit_text(f"rulebound table on http://{host}:{port}  (database: {database}; Ctrl+C stops)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )


def register(root: typer.Typer) -> None:
    root.command("serve")(serve)
