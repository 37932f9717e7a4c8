"""The app factory: ``create_app(settings)`` opens (and migrates) the store and wires routes.

Run it with ``rulebound serve``. The database is migrated here, before the
first request; the PostgreSQL listener (the cross-process backplane) starts
with the app's lifespan and stops with it.
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

from rulebound import __version__
from rulebound.store import SqlStore
from rulebound.store.listen import PgListener
from rulebound.web import api, fairness, pages, pages_character
from rulebound.web.auth import Viewer
from rulebound.web.errors import install_error_handlers
from rulebound.web.feed import Hub
from rulebound.web.security import RESPONSES, Limiter, SecurityHeaders, origin_guard
from rulebound.web.service import TableService
from rulebound.web.settings import Settings
from rulebound.web.templating import configure

HERE = Path(__file__).parent


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    store = SqlStore(settings.database_url)
    hub = Hub()
    store.listeners.append(hub.wake)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        listener = None if store.sqlite else PgListener(store.url, hub.wake)
        app.state.listener = listener
        if listener is not None:
            listener.start()
        try:
            yield
        finally:
            if listener is not None:
                listener.stop()
            store.close()

    app = FastAPI(
        title="rulebound table",
        version=__version__,
        description="A virtual table for The Empty Reach, Rainwall, Legacy and Ghostburn.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN, which our CSP forbids
        redoc_url=None,
        dependencies=[Depends(origin_guard)],  # every unsafe request: same origin, or no browser
        max_body_size=settings.max_body_bytes,  # 413 past it, whether or not a length is sent
    )
    templates = Jinja2Templates(directory=HERE / "templates")
    configure(templates)
    app.state.settings = settings
    app.state.store = store
    app.state.hub = hub
    app.state.limiter = Limiter(settings.session_rate, settings.table_rate, settings.anonymous_rate)
    app.state.templates = templates
    app.state.service = TableService(store, settings.games(), settings.source)

    def render_entry(request: Request, viewer: Viewer, view: dict[str, Any]) -> str:
        template = templates.get_template("_entry.html")
        return template.render(request=request, viewer=viewer, e=view)

    app.state.render_entry = render_entry
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    api.document_rulesets(app, app.state.service.games)
    app.include_router(api.router, responses=RESPONSES)
    app.include_router(fairness.router, responses=RESPONSES)
    app.include_router(fairness.pages)
    app.include_router(pages.router)
    app.include_router(pages_character.router)
    install_error_handlers(app)
    app.add_middleware(SecurityHeaders)
    return app
