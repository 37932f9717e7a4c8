"""The suite's own client (``tests/client.py``) behaves as a server would for the app."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from . import client as client_module
from .client import AppClient


def _app(events: list[str], fail_startup: bool = False) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        events.append("startup")
        if fail_startup:
            raise RuntimeError("no database")
        yield
        events.append("shutdown")

    app = FastAPI(lifespan=lifespan)

    @app.post("/echo/{name}")
    async def echo(name: str, request: Request) -> JSONResponse:
        body = await request.body()
        answer = JSONResponse(
            {
                "name": name,
                "body": body.decode(),
                "query": request.url.query,
                "peer": request.client.host if request.client else None,
            },
            headers={"x-seen": request.headers.get("x-sent", "")},
        )
        answer.set_cookie("visited", "yes")
        return answer

    @app.get("/cookie")
    async def cookie(request: Request) -> dict[str, str | None]:
        return {"visited": request.cookies.get("visited")}

    @app.get("/boom")
    async def boom() -> None:
        raise ValueError("the app failed")

    @app.get("/chunks")
    async def chunks() -> StreamingResponse:
        async def parts() -> AsyncIterator[bytes]:
            for part in (b"one,", b"two,", b"three"):
                yield part

        return StreamingResponse(parts())

    @app.get("/forever")
    async def forever() -> StreamingResponse:
        async def parts() -> AsyncIterator[bytes]:
            while True:
                yield b"."
                await asyncio.sleep(0.01)

        return StreamingResponse(parts())

    return app


def test_a_request_reaches_the_app_whole_and_its_answer_comes_back_whole() -> None:
    events: list[str] = []
    with AppClient(_app(events)) as client:
        assert events == ["startup"]
        answer = client.post("/echo/gina%20x?a=1", content=b"hello", headers={"x-sent": "s"})
        assert answer.status_code == 200
        assert answer.json() == {
            "name": "gina x",
            "body": "hello",
            "query": "a=1",
            "peer": "testclient",
        }
        assert answer.headers["x-seen"] == "s"
        assert client.get("/cookie").json() == {"visited": "yes"}  # kept like a browser
        assert client.get("/chunks").text == "one,two,three"  # every chunk, in order
    assert events == ["startup", "shutdown"]


def test_an_app_error_is_raised_in_the_test_unless_asked_for_the_servers_answer() -> None:
    with AppClient(_app([])) as client, pytest.raises(ValueError, match="the app failed"):
        client.get("/boom")
    with AppClient(_app([]), raise_server_exceptions=False) as client:
        answer = client.get("/boom")
        assert answer.status_code == 500


def test_a_failed_startup_is_raised_when_the_client_opens() -> None:
    events: list[str] = []
    with pytest.raises(RuntimeError, match="no database"), AppClient(_app(events, True)):
        pass
    assert events == ["startup"]


def test_a_request_outside_the_with_block_says_how_to_open_the_client() -> None:
    with pytest.raises(RuntimeError, match="open the client first"):
        AppClient(_app([])).get("/cookie")


def test_an_answer_that_never_ends_is_an_error_not_a_hang(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(client_module, "ANSWER_SECONDS", 0.3)
    with AppClient(_app([])) as client, pytest.raises(TimeoutError):
        client.get("/forever")
