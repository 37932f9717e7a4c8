"""Our errors as HTTP answers: JSON under ``/api``, an HTML page elsewhere.

InvalidInput -> 400 (naming field, value and what is expected), Forbidden ->
403, NotFound -> 404, RuleViolation and Conflict -> 409.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.requests import Request
from starlette.responses import Response

from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation
from rulebound.store import Conflict, NotFound
from rulebound.web.auth import Forbidden


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
    if request.url.path.startswith("/api/"):
        return JSONResponse(body, status_code=status)
    templates = request.app.state.templates
    response: Response = templates.TemplateResponse(
        request, "error.html", {"status": status, "error": body}, status_code=status
    )
    return response


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RuleboundError, handle)
