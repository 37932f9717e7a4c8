"""A test client that answers each request in one crossing to the app's event loop.

Starlette's TestClient runs the app on a loop in another thread and crosses to it about
eight times a request (two events, a memory stream, a cancel scope, the task, each body
chunk); on this machine the crossings were half of a test request's CPU. Here the whole
exchange is one coroutine and one crossing. The app is the same ASGI app on the same kind
of loop, with its lifespan run as a server runs it; only the test's side differs.

It reads whole responses, so a feed that follows would never end here: tests that follow a
feed use a real server (``tests/web/test_feed.py``). A response that takes longer than
``ANSWER_SECONDS`` is an error rather than a hung suite.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Future
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Any, Self
from urllib.parse import unquote

import anyio
import anyio.from_thread
import httpx2
from fastapi import FastAPI

Message = MutableMapping[str, Any]

ANSWER_SECONDS = 120.0
PEER = ("testclient", 50000)  # the address Starlette's TestClient gives, which rate limits key on


class AppClient(httpx2.Client):
    """An httpx client on an ASGI app; use it as a context manager, as a server is run."""

    __test__ = False

    def __init__(
        self,
        app: FastAPI,
        base_url: str = "http://testserver",
        raise_server_exceptions: bool = True,
    ) -> None:
        self.app = app
        self.state: dict[str, Any] = {}
        self._portal: anyio.from_thread.BlockingPortal | None = None
        self._portal_context: AbstractContextManager[anyio.from_thread.BlockingPortal] | None
        self._portal_context = None
        self._lifespan: _Lifespan | None = None
        self._lifespan_task: Future[None] | None = None
        transport = _OneCrossing(self, raise_server_exceptions)
        super().__init__(
            base_url=base_url,
            transport=transport,
            follow_redirects=True,
            headers={"user-agent": "testclient"},
        )

    def __enter__(self) -> Self:
        context = anyio.from_thread.start_blocking_portal("asyncio")
        portal = context.__enter__()
        self._portal_context, self._portal = context, portal
        try:
            lifespan = self._lifespan = portal.call(_Lifespan, self.app, self.state)
            task = self._lifespan_task = portal.start_task_soon(lifespan.run)
            portal.call(lifespan.started.wait)
            lifespan.raise_failure("startup", task)
        except BaseException:
            self._close_portal()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None = None,
        error: BaseException | None = None,
        trace: TracebackType | None = None,
    ) -> None:
        try:
            lifespan, task = self._lifespan, self._lifespan_task
            if self._portal is not None and lifespan is not None and task is not None:
                self._portal.call(lifespan.stopping.set)
                task.result(timeout=ANSWER_SECONDS)  # the app has answered the shutdown
                lifespan.raise_failure("shutdown", task)
        finally:
            self._close_portal()
            super().__exit__(kind, error, trace)

    def _close_portal(self) -> None:
        context, self._portal_context, self._portal = self._portal_context, None, None
        if context is not None:
            context.__exit__(None, None, None)

    def call(self, exchange: Callable[[], Awaitable[Any]]) -> Any:
        """Run one coroutine on the app's loop: the one crossing of each request."""
        if self._portal is None:
            raise RuntimeError("open the client first: `with AppClient(app) as client:`")
        return self._portal.call(exchange)


class _Lifespan:
    """The ASGI lifespan protocol, from the server's side, on the app's loop."""

    def __init__(self, app: FastAPI, state: dict[str, Any]) -> None:
        self.app, self.state = app, state
        self.started, self.stopping = anyio.Event(), anyio.Event()
        self.failures: dict[str, str] = {}

    async def run(self) -> None:
        asked = False

        async def receive() -> Message:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "lifespan.startup"}
            await self.stopping.wait()
            return {"type": "lifespan.shutdown"}

        async def send(message: Message) -> None:
            phase = "startup" if message["type"].startswith("lifespan.startup") else "shutdown"
            if message["type"].endswith(".failed"):
                self.failures[phase] = str(message.get("message", ""))
            if phase == "startup":
                self.started.set()

        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": self.state}
        try:
            await self.app(scope, receive, send)
        finally:
            self.started.set()

    def raise_failure(self, phase: str, task: Future[None]) -> None:
        if task.done():
            task.result()  # the app's own exception, if it raised one
        if phase in self.failures:
            raise RuntimeError(f"the app's lifespan {phase} failed: {self.failures[phase]}")


class _OneCrossing(httpx2.BaseTransport):
    """Sends a request's scope and body to the app and collects its whole answer."""

    def __init__(self, client: AppClient, raise_server_exceptions: bool) -> None:
        self.client = client
        self.raise_server_exceptions = raise_server_exceptions

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        url = request.url
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method,
            "scheme": url.scheme,
            "path": unquote(url.path),
            "raw_path": url.raw_path.split(b"?", 1)[0],
            "root_path": "",
            "query_string": url.query,
            "headers": [(k.lower().encode(), v.encode()) for k, v in request.headers.multi_items()],
            "client": PEER,
            "server": (url.host, url.port or {"https": 443}.get(url.scheme, 80)),
            "extensions": {},
            "state": dict(self.client.state),
        }
        body = request.read()
        status, headers, content = self.client.call(lambda: self._exchange(scope, body))
        return httpx2.Response(status, headers=headers, content=content, request=request)

    async def _exchange(
        self, scope: MutableMapping[str, Any], body: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        start: Message = {}
        chunks: list[bytes] = []
        answered = anyio.Event()
        read = False

        async def receive() -> Message:
            nonlocal read
            if read:  # the app waits for a disconnect only once it has answered
                await answered.wait()
                return {"type": "http.disconnect"}
            read = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))
                if not message.get("more_body", False):
                    answered.set()

        try:
            with anyio.fail_after(ANSWER_SECONDS):
                await self.client.app(scope, receive, send)
        except Exception:
            if self.raise_server_exceptions:
                raise
            if not start:  # as a server would, when the app fails before its error handler
                return 500, [], b""
        finally:
            answered.set()
        if not start:
            raise AssertionError("the app returned without answering")
        headers = [(bytes(k), bytes(v)) for k, v in start.get("headers", [])]
        return int(start["status"]), headers, b"".join(chunks)
