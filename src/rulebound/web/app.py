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

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request

from rulebound import __version__
from rulebound.store import SqlStore
from rulebound.web.auth import Viewer
from rulebound.web.backplane import PgListener, RedisBackplane, RedisBuckets, pg_heard
from rulebound.web.errors import install_error_handlers
from rulebound.web.feed.hub import Hub
from rulebound.web.routes import api, characters, fairness, ledger, pages
from rulebound.web.security import Limiter, OriginGuard, SecurityHeaders
from rulebound.web.service import TableService
from rulebound.web.settings import Settings
from rulebound.web.templating import page_templates

HERE = Path(__file__).parent
ROUTES = [
    route
    for router in (
        api.router,
        fairness.router,
        fairness.pages,
        ledger.router,
        ledger.pages,
        pages.router,
        characters.router,
    )
    for route in router.routes
]
"""The table's routes, in the order they match. Each app serves these same route objects,
built once, at import: ``include_router`` would have each app build its own copy of every
route (about 120 ms of CPU an app, at its first requests), and each request match through
one more layer. The routers put the documented error answers on their routes
(``security.api_router``); ``security.OriginGuard`` stands before all of them."""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    store = SqlStore(settings.database_url, pg_notify=settings.redis_url is None)
    templates = page_templates()
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

    app = FastAPI(
        title="rulebound table",
        version=__version__,
        description="A virtual table for The Empty Reach, Rainwall, Legacy and Ghostburn.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN, which our CSP forbids
        redoc_url=None,
        max_body_size=settings.max_body_bytes,  # 413 past it, whether or not a length is sent
        routes=ROUTES,
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
    install_error_handlers(app)
    app.add_middleware(OriginGuard)
    app.add_middleware(SecurityHeaders)  # the outermost: its headers on the guard's refusals too
    return app
