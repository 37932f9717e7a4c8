"""Our errors as HTTP answers: JSON under ``/api`` (or when asked for), an HTML page elsewhere.

InvalidInput -> 400 (naming field, value and what is expected), Forbidden ->
403, NotFound -> 404, RuleViolation and Conflict -> 409, RateLimited -> 429
(with ``Retry-After``). The framework's own refusals under ``/api`` (a body that
is not JSON, an unknown path) take the same shape, and an id too large for the
database is a 404 like any id that names nothing.

A database that cannot be written (a full disk, a read-only file or server) is a 503:
the transaction rolled back, so nothing of the action was saved. The log line says
which error it was, never the statement's parameters (``store.engine`` hides them).

Whatever a request held, its echo in an error is valid JSON and UTF-8: a ``NaN`` or a
lone surrogate is shown as text.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation
from rulebound.render.words import plain
from rulebound.store import Conflict, NotFound
from rulebound.web.auth import Forbidden
from rulebound.web.caps import NAME_PATTERN
from rulebound.web.ratelimit import RateLimited


def describe(exc: RuleboundError) -> tuple[int, dict[str, Any]]:
    status, body = _describe(exc)
    return status, body | {"message": plain(exc)}


def _describe(exc: RuleboundError) -> tuple[int, dict[str, Any]]:
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
    """``value`` as JSON that encodes: finite numbers, UTF-8 text, lists and objects."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {_jsonable(str(k)): _jsonable(v) for k, v in value.items()}
    return _jsonable(repr(value))


async def handle(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RuleboundError)
    status, body = describe(exc)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    return answer(request, status, body, headers)


def answer(
    request: Request, status: int, described: dict[str, Any], headers: dict[str, str] | None
) -> Response:
    """An error as JSON under ``/api`` (or when asked for), else as the error page."""
    body = _jsonable(described)
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
UNREACHABLE_STATES = ("08", "57P", "53300")
"""PostgreSQL SQLSTATEs of a server that cannot be reached: a connection exception; the
server shutting down or starting up (57P01-57P03); no connection slot left."""
DISK_FULL_STATES = ("53100",)
READ_ONLY_STATES = ("25006",)
UNWRITABLE = ("53",)
"""Other PostgreSQL SQLSTATEs that leave a write undone for a while: insufficient resources."""
UNREACHABLE = (
    "The table's database cannot be reached right now: nothing of this action was saved."
    " Try again in a moment."
)
DISK_FULL = (
    "The table's database cannot be written, its disk is full: nothing of this action was"
    " saved. Try again later."
)
READ_ONLY = (
    "The table's database is read-only right now: nothing of this action was saved. Try"
    " again later."
)
UNAVAILABLE = (
    "The table's database cannot be used right now: nothing of this action was saved. Try"
    " again later."
)
OUTAGES = {
    "unreachable": (UNREACHABLE, "5"),
    "disk full": (DISK_FULL, "30"),
    "read-only": (READ_ONLY, "30"),
    "unavailable": (UNAVAILABLE, "30"),
}
"""What the 503 says for each kind of outage, and its ``Retry-After``."""
log = logging.getLogger("rulebound.web")


FRAMEWORK_WORDS = {
    "There was an error parsing the body": (
        "The body could not be read as JSON: is a number in it over 4,300 digits long?"
    ),
}
"""The framework's refusals that say too little, in words that point at the cause (valid
JSON it cannot parse is, in practice, an integer past Python's cap on digits)."""


async def handle_http(request: Request, exc: Exception) -> Response:
    """The framework's refusals, in our error shape under ``/api``."""
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith("/api/"):
        return await http_exception_handler(request, exc)
    detail = str(exc.detail)
    body = {"error": HTTP_ERRORS.get(exc.status_code, "http-error"), "detail": detail}
    body["message"] = FRAMEWORK_WORDS.get(detail, detail)
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


async def handle_database(request: Request, exc: Exception) -> Response:
    """An id no row can have (past the database's integer range) names nothing: 404. A
    database that cannot be reached, whose disk is full, or that is read-only: 503, saying
    which (each calls for something else of its host). Anything else is a server error."""
    cause = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(cause, OverflowError) or type(cause).__name__ in OUT_OF_RANGE:
        return await handle(request, NotFound("item", "an id out of range"))
    state = str(getattr(cause, "sqlstate", "") or "")
    text = str(cause).lower()
    kinds = type(cause).__mro__
    # psycopg's connection refused, dropped or closed carries no SQLSTATE
    connection = not state and any(
        k.__module__.startswith("psycopg") and k.__name__ in ("OperationalError", "InterfaceError")
        for k in kinds
    )
    if state.startswith(DISK_FULL_STATES) or "disk is full" in text:  # SQLite's too
        outage = "disk full"
    elif state.startswith(READ_ONLY_STATES) or "readonly database" in text:
        outage = "read-only"
    elif (
        connection
        or state.startswith(UNREACHABLE_STATES)
        or (isinstance(exc, DBAPIError) and exc.connection_invalidated)
        or "unable to open database file" in text  # SQLite's file, or its folder
    ):
        outage = "unreachable"
    elif state.startswith(UNWRITABLE) or isinstance(exc, OperationalError):
        outage = "unavailable"
    else:
        raise exc
    said = str(cause)[:200].replace("\n", " ")
    log.error("database unavailable (%s): %s: %s", outage, type(cause).__name__, said)
    detail, retry_after = OUTAGES[outage]
    body = {"error": "unavailable", "detail": detail}
    return answer(request, 503, body, {"Retry-After": retry_after})


async def handle_validation(request: Request, exc: Exception) -> Response:
    """A malformed request (422), with whatever it held echoed as valid JSON, and what is
    wrong with it in words (``message``, as our own errors have)."""
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    detail = _jsonable(jsonable_encoder(errors, custom_encoder={float: _jsonable}))
    message = " ".join(_told(error) for error in errors[:5])
    return JSONResponse({"detail": detail, "message": message}, status_code=422)


PATTERNS = {NAME_PATTERN: "one line with at least one visible character and no direction override"}
"""The schema's patterns in words: a regular expression tells a person nothing."""
WHERE = frozenset({"body", "query", "path", "header", "cookie"})


def _told(error: Mapping[str, Any]) -> str:
    """One problem of a malformed request as a sentence."""
    if error.get("type") == "json_invalid":
        return "The body is not valid JSON."
    where = ".".join(str(p) for p in error.get("loc", ()) if p not in WHERE) or "the request"
    pattern = (error.get("ctx") or {}).get("pattern")
    said = f"it takes {PATTERNS[pattern]}" if pattern in PATTERNS else str(error.get("msg"))
    return f"{where}: {said}."


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RuleboundError, handle)
    app.add_exception_handler(HTTPException, handle_http)
    app.add_exception_handler(RequestValidationError, handle_validation)
    app.add_exception_handler(OverflowError, handle_database)
    app.add_exception_handler(DBAPIError, handle_database)
