"""The live feed's short path: ``GET /api/tables/N/feed`` served straight from the hub.

Every pushed event of a stream would otherwise pass through each layer of the app's
middleware (error handling, body limits, security headers, the router's exception
handling), one async call per layer per event per viewer. This pure ASGI middleware,
outermost but for Starlette's own error handler, answers a well-formed feed request
itself: it finds the viewer as the route does, sends the same headers (the security
headers among them) and then writes the hub's prepared bytes to the server directly.
Anything else, and any feed request it would not answer exactly as the route does (not
seated, a bad ``after``, ``follow`` or ``Last-Event-ID``), goes on to the route.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable
from contextlib import suppress
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from rulebound.core.errors import RuleboundError
from rulebound.web.auth import Forbidden, Viewer
from rulebound.web.deps import viewer_for
from rulebound.web.eager import eager
from rulebound.web.hub import Hub
from rulebound.web.security import HEADERS, HSTS

FEED = re.compile(r"/api/tables/([0-9]{1,10})/feed")
MAX_SEQ = 2**31 - 1
TRUE = frozenset({"true", "1", "yes", "on", "t", "y"})
FALSE = frozenset({"false", "0", "no", "off", "f", "n"})
STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),
]


def _seq(text: str) -> int | None:
    if text.isascii() and text.isdigit() and int(text) <= MAX_SEQ:
        return int(text)
    return None


def _request(scope: Scope) -> tuple[int, int, bool] | None:
    """(table, resume after, follow) of a feed request the route would accept, else None."""
    found = FEED.fullmatch(scope["path"])
    if scope["method"] != "GET" or found is None:
        return None
    after: int | None = None
    follow = True
    seen: set[str] = set()
    for key, value in parse_qsl(scope.get("query_string", b"").decode("latin-1"), True):
        if key in seen:
            return None
        seen.add(key)
        if key == "after":
            after = _seq(value)
            if after is None:
                return None
        elif key == "follow" and value.lower() in TRUE | FALSE:
            follow = value.lower() in TRUE
        else:
            return None
    if after is None:
        last_event_id = [v for k, v in scope["headers"] if k == b"last-event-id"]
        if len(last_event_id) > 1:
            return None
        after = 0 if not last_event_id or not last_event_id[0] else _seq(last_event_id[0].decode())
        if after is None:
            return None
    table_id = int(found.group(1))
    if table_id > MAX_SEQ:  # past the database's integers: the route answers 404
        return None
    return table_id, after, follow


class FeedShortPath:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = _request(scope) if scope["type"] == "http" else None
        if asked is None:
            await self.app(scope, receive, send)
            return
        table_id, after, follow = asked
        request = Request(scope)
        try:
            viewer: Viewer = await run_in_threadpool(viewer_for, request, table_id)
        except (Forbidden, RuleboundError):
            await self.app(scope, receive, send)  # the route answers it, as always
            return
        hub: Hub = request.app.state.hub
        headers = STREAM_HEADERS + HEADERS + ([HSTS] if scope.get("scheme") == "https" else [])
        await send({"type": "http.response.start", "status": 200, "headers": headers})

        def direct(chunk: bytes) -> Awaitable[None] | None:
            return eager(send({"type": "http.response.body", "body": chunk, "more_body": True}))

        stream = hub.stream(viewer, after, follow=follow, direct=direct)

        async def pump() -> None:
            async for chunk in stream:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(gone())]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is tasks[0]:
                    task.result()  # a failure while streaming is the server's to log
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with suppress(asyncio.CancelledError, OSError):
                    await task
            await stream.aclose()  # type: ignore[attr-defined]
