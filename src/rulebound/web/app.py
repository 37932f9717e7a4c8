"""The app factory: ``create_app(settings)`` opens (and migrates) the store and wires routes.

Run it with ``rulebound serve``. The database is migrated here, before the
first request. The hub (``web/hub.py``) pushes each committed entry to the open
feeds; the backplane between processes (Redis when ``Settings.redis_url`` is set,
else PostgreSQL's LISTEN/NOTIFY; none on SQLite) starts with the app's lifespan and
stops with it (``web/backplane.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from rulebound import __version__
from rulebound.store import SqlStore
from rulebound.store.listen import PgListener
from rulebound.web import api, fairness, pages, pages_character
from rulebound.web.auth import Viewer
from rulebound.web.backplane import RedisBackplane, RedisBuckets, pg_heard
from rulebound.web.errors import install_error_handlers
from rulebound.web.feedpath import FeedShortPath
from rulebound.web.hub import Hub
from rulebound.web.security import RESPONSES, Limiter, SecurityHeaders, origin_guard
from rulebound.web.service import TableService
from rulebound.web.settings import Settings
from rulebound.web.templating import configure
from rulebound.web.writepath import WriteShortPath

HERE = Path(__file__).parent
PLAY_LANES_SQLITE = 1
PLAY_LANES_POSTGRESQL = 8
"""Plays at once per process (``writepath.Lanes``): one on SQLite; on PostgreSQL eight, for a
play bridged on the event loop waits only on its append's round trip, which the others
overlap, their appends pipelined behind it (``rawwrite.PIPELINES``; 8 made 4,667 rolls/s
against 4's 4,412, docs/performance.md, session 13)."""


class TableApp(FastAPI):
    """FastAPI, with the plays' short path (``writepath.WriteShortPath``) in front of its own
    layers: the native-telemetry check, the error and exception handlers, the app-wide body
    limit (a wrapper of ``receive`` and of ``send``) and the middleware stack. A play crosses
    none of them: 7 % of a roll's CPU in process (0.352 against 0.326 ms), 8-15 % of a
    server's (0.63 against 0.54-0.58 ms per roll). Every other request goes through them
    all. The short path checks what they would (the body's size, the origin) and answers
    every refusal through the app's own handlers; an error it does not expect reaches
    uvicorn, which logs it and answers 500 as ServerErrorMiddleware would. What it answers
    is not traced by FastAPI's native OpenTelemetry."""

    front: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front is None or scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        if self.root_path:
            scope["root_path"] = self.root_path
        scope["app"] = self
        await self.front(scope, receive, send)

    async def behind(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app with all its layers: what the short path does not answer."""
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    store = SqlStore(settings.database_url, pg_notify=settings.redis_url is None)
    templates = Jinja2Templates(directory=HERE / "templates")
    configure(templates)
    entry_template = templates.get_template("_entry.html")

    def render_html(viewer: Viewer, view: dict[str, Any]) -> str:
        return entry_template.render(viewer=viewer, e=view)

    hub = Hub(store, render_html, poll=settings.poll_seconds, keepalive=settings.keepalive_seconds)
    store.committed.append(hub.committed)
    backplane = None
    if settings.redis_url is not None:
        backplane = RedisBackplane(settings.redis_url, store, hub)
        backplane.attach()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        listener = None
        if backplane is not None:
            backplane.start()
        elif not store.sqlite:
            listener = PgListener(store.url, pg_heard(store, hub))
            listener.start()
        app.state.listener = listener
        try:
            yield
        finally:
            await hub.close()
            if listener is not None:
                listener.stop()
            if backplane is not None:
                backplane.stop()
            store.close()

    app = TableApp(
        title="rulebound table",
        version=__version__,
        description="A virtual table for The Empty Reach, Rainwall, Legacy and Ghostburn.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN, which our CSP forbids
        redoc_url=None,
        dependencies=[Depends(origin_guard)],  # every unsafe request: same origin, or no browser
        max_body_size=settings.max_body_bytes,  # 413 past it, whether or not a length is sent
    )
    app.state.settings = settings
    app.state.store = store
    app.state.hub = hub
    app.state.backplane = backplane
    app.state.limiter = Limiter(settings.session_rate, settings.table_rate, settings.anonymous_rate)
    if backplane is not None:
        app.state.limiter.buckets = RedisBuckets(backplane.client)  # shared by every process
    app.state.templates = templates
    app.state.service = TableService(store, settings.games(), settings.source)

    def render_entry(_request: Request, viewer: Viewer, view: dict[str, Any]) -> str:
        return render_html(viewer, view)

    app.state.render_entry = render_entry
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    api.document_rulesets(app, app.state.service.games)
    app.include_router(api.router, responses=RESPONSES)
    app.include_router(fairness.router, responses=RESPONSES)
    app.include_router(fairness.pages)
    app.include_router(pages.router)
    app.include_router(pages_character.router)
    if settings.discord_public_key:
        from rulebound.discord.interactions import mount

        mount(app, settings.discord_public_key)  # Discord's interactions URL (docs/discord.md)
    install_error_handlers(app)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(FeedShortPath)  # pushed events skip the layers above
    lanes = PLAY_LANES_SQLITE if store.sqlite else PLAY_LANES_POSTGRESQL
    # plays on the event loop: SQLite on a file with no backplane, or PostgreSQL (bridged:
    # the loop awaits the append), and the dice drawn in the store's transaction (an
    # injected source would be drawn twice on a retry)
    bridge = not store.sqlite
    inline = bridge or (backplane is None and store.raw.database is not None)
    inline = inline and settings.source is None
    app.front = WriteShortPath(
        app.behind, settings.max_body_bytes, lanes, inline=inline, bridge=bridge
    )
    return app
