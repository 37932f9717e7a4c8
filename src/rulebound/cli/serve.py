"""``rulebound serve``: the web table on SQLite (or PostgreSQL) at http://127.0.0.1:8000."""

from __future__ import annotations

from dataclasses import replace

import click

from rulebound.cli.output import emit_text

DEFAULT_DATABASE_URL = "sqlite:///./rulebound.sqlite3"
GRACEFUL_SHUTDOWN_SECONDS = 3
"""Open live feeds never finish on their own: give them this long, then close them."""


@click.command("serve")
@click.option(
    "--database",
    envvar="RULEBOUND_DATABASE_URL",
    default=DEFAULT_DATABASE_URL,
    show_default=True,
    help="SQLAlchemy URL: sqlite:///FILE (default: in this folder) or postgresql://...",
)
@click.option("--host", envvar="RULEBOUND_HOST", default="127.0.0.1", show_default=True)
@click.option("--port", envvar="RULEBOUND_PORT", type=int, default=8000, show_default=True)
def command(database: str, host: str, port: int) -> None:
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
