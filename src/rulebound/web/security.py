"""The table's defences around every request: origin, CSRF token, rate limits, headers.

- **Origin.** Every unsafe request (POST, PUT, PATCH, DELETE), with a cookie, a
  bearer token or no credentials at all, must come from this origin when a
  browser says where it comes from: ``Sec-Fetch-Site: same-origin``, or, from a
  browser too old to send that, an ``Origin`` naming this host. A page on
  another port of the same host is *same-site*, not same-origin, and is refused
  (SameSite cookies alone would let it through); so is an ``Origin`` that
  differs in scheme, host or port. A request with neither header is not from a
  browser; cookie sessions still need the token below. Behind a TLS proxy, let
  the server see the original scheme (uvicorn's ``--proxy-headers``).
- **CSRF token.** An unsafe request authenticated by the session cookie must
  carry the session's synchronizer token (``csrf`` form field or
  ``X-CSRF-Token`` header; ``auth.check_csrf``). Bearer clients send no
  ambient credentials and need none.
- **Rate limits** per session, per table and per client address (``ratelimit``).
- **Headers**: a Content-Security-Policy of ``script-src 'self'`` and friends.
- **One value a param.** A query param a route reads once, sent twice, is a 422: the
  framework would keep the last and drop the others without a word.
"""

from __future__ import annotations

from typing import Any, get_origin
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulebound.web.auth import Forbidden, Viewer
from rulebound.web.errors import handle
from rulebound.web.ratelimit import Buckets, Charge, Rate
from rulebound.web.routes.models import error_answer

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")

RESPONSES: dict[int | str, dict[str, Any]] = {
    403: error_answer("Not allowed, or a write from another origin"),
    413: {"description": "The request body is larger than the server accepts"},
    429: error_answer("Too many requests: wait Retry-After seconds")
    | {"headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds"}}},
    503: error_answer("The database cannot be written (disk full, read-only): nothing saved"),
}
"""What every API route may also answer, documented in the OpenAPI schema (``app.py``)."""


def same_origin(request: Request) -> bool:
    """Whether a browser says this request comes from our own origin (True: not a browser)."""
    headers = request.headers
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    origin = headers.get("origin")
    if origin is None:
        return True
    own = _origin(f"{request.url.scheme}://{headers.get('host', '')}")
    return own is not None and _origin(origin) == own


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the scheme's default port filled in; None if not a web URL."""
    try:
        parts = urlsplit(url)
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return None
    if port is None or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port


class OriginGuard:
    """Refuses an unsafe request that a browser sent from another origin, before any route
    is matched: the table's routes, the static files and routes added later (Discord) alike
    (pure ASGI: the error is answered as the app's handlers answer it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            request = Request(scope, receive)
            if not same_origin(request):
                refused = Forbidden("cross-site request refused: write from this table's own pages")
                await (await handle(request, refused))(scope, receive, send)
                return
        await self.app(scope, receive, send)


def api_router(prefix: str, errors: dict[int | str, dict[str, Any]], tag: str) -> APIRouter:
    """A router of the JSON API: ``RESPONSES`` documented beside the router's own ``errors``
    (which say more where both name a code)."""
    return APIRouter(
        prefix=prefix, responses=RESPONSES | errors, tags=[tag], dependencies=ONE_VALUE_EACH
    )


def page_router() -> APIRouter:
    """A router of pages and their forms, out of the schema."""
    return APIRouter(include_in_schema=False, dependencies=ONE_VALUE_EACH)


MANY_VALUED = (list, tuple, set, frozenset)


async def one_value_each(request: Request) -> None:
    """Refuse a second value of a query param the route reads as one; params no route reads
    are left alone. (Async, so that it runs inline rather than in the thread pool.)"""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    for field in route.dependant.query_params:
        if get_origin(field.field_info.annotation) in MANY_VALUED:
            continue
        given = request.query_params.getlist(field.alias)
        if len(given) > 1:
            msg = f"{field.alias} takes one value; it was given {len(given)}"
            error = {"type": "too_many_values", "loc": ("query", field.alias), "msg": msg}
            raise RequestValidationError([error | {"input": given}])


ONE_VALUE_EACH = [Depends(one_value_each)]


class Limiter:
    """The app's rate limits (``Settings``): per session, per table, per client address."""

    def __init__(self, session: Rate | None, table: Rate | None, anonymous: Rate | None) -> None:
        self.session, self.table, self.anonymous = session, table, anonymous
        self.buckets = Buckets()

    def member(self, viewer: Viewer) -> None:
        """Charge a seat and its table; observers (who only ask for chances) share a table
        budget of their own, so they cannot use up the players'."""
        charges: list[Charge] = []
        if self.session is not None:
            charges.append(("session", ("session", viewer.member.id), self.session))
        if self.table is not None:
            who = "observers" if viewer.member.role == "observer" else "table"
            charges.append(("table", (who, viewer.table.id), self.table))
        self.buckets.take(charges)

    def client(self, request: Request) -> None:
        if self.anonymous is not None:
            address = request.client.host if request.client else "unknown"
            self.buckets.take([("address", ("address", address), self.anonymous)])


async def limit_anonymous(request: Request) -> None:
    """Route dependency for writes that need no seat (opening a table, joining)."""
    limiter: Limiter = request.app.state.limiter
    limiter.client(request)


class SecurityHeaders:
    """Adds the CSP and friends to every response (pure ASGI: safe for streams)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = HEADERS + ([HSTS] if scope.get("scheme") == "https" else [])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)
