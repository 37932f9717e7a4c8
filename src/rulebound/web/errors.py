"""Our errors as HTTP answers: JSON under ``/api`` (or when asked for), an HTML page elsewhere.

InvalidInput -> 400 (naming field, value and what is expected), Forbidden ->
403, NotFound -> 404, RuleViolation and Conflict -> 409, RateLimited -> 429
(with ``Retry-After``). The framework's own refusals under ``/api`` (a body that
is not JSON, an unknown path) take the same shape, and an id too large for the
database is a 404 like any id that names nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation
from rulebound.store import Conflict, NotFound
from rulebound.web.auth import Forbidden
from rulebound.web.ratelimit import RateLimited


def describe(exc: RuleboundError) -> tuple[int, dict[str, Any]]:
    if isinstance(exc, InvalidInput):
        body = {"field": exc.field, "value": _jsonable(exc.value), "expected": exc.expected}
        return 400, {"error": "invalid-input", "detail": str(exc)} | body
    if isinstance(exc, Forbidden):
        return 403, {"error": "forbidden", "detail": exc.detail}
    if isinstance(exc, NotFound):
        return 404, {"error": "not-found", "detail": str(exc)}
    if isinstance(exc, RuleViolation):
        return 409, {"error": "rule-violation", "detail": str(exc)}
    if isinstance(exc, Conflict):
        return 409, {"error": "conflict", "detail": str(exc)}
    if isinstance(exc, RateLimited):
        return 429, {"error": "rate-limited", "detail": exc.detail}
    return 400, {"error": "error", "detail": str(exc)}


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return repr(value)


async def handle(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RuleboundError)
    status, body = describe(exc)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    wants_json = request.headers.get("accept", "").startswith("application/json")
    if request.url.path.startswith("/api/") or wants_json:
        return JSONResponse(body, status_code=status, headers=headers)
    templates = request.app.state.templates
    response: Response = templates.TemplateResponse(
        request, "error.html", {"status": status, "error": body}, status_code=status
    )
    if headers:
        response.headers.update(headers)
    return response


HTTP_ERRORS = {400: "bad-request", 404: "not-found", 405: "method-not-allowed"}
OUT_OF_RANGE = ("NumericValueOutOfRange",)
"""PostgreSQL's answer to an id past its integer type (SQLite raises OverflowError)."""


async def handle_http(request: Request, exc: Exception) -> Response:
    """The framework's refusals, in our error shape under ``/api``."""
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith("/api/"):
        return await http_exception_handler(request, exc)
    body = {"error": HTTP_ERRORS.get(exc.status_code, "http-error"), "detail": str(exc.detail)}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


async def handle_out_of_range(request: Request, exc: Exception) -> Response:
    """An id no row can have (past the database's integer range) names nothing: 404."""
    cause = exc.orig if isinstance(exc, DBAPIError) else exc
    if not isinstance(cause, OverflowError) and type(cause).__name__ not in OUT_OF_RANGE:
        raise exc
    return await handle(request, NotFound("item", "an id out of range"))


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RuleboundError, handle)
    app.add_exception_handler(HTTPException, handle_http)
    app.add_exception_handler(OverflowError, handle_out_of_range)
    app.add_exception_handler(DBAPIError, handle_out_of_range)
