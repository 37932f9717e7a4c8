"""``eager``: a send run on the caller's stack as far as it goes, finished later only where it
must wait (the live feed's direct sends, ``web/hub``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from rulebound.web.eager import eager

from .conftest import run_async


def test_a_coroutine_that_never_waits_runs_to_its_end_at_once() -> None:
    done: list[str] = []

    async def send() -> None:
        done.append("sent")

    async def run() -> None:
        assert eager(send()) is None
        assert done == ["sent"]  # before the loop ran anything else

    run_async(run())


def test_what_it_raises_is_raised_at_once() -> None:
    async def send() -> None:
        raise ConnectionResetError("gone")

    async def run() -> None:
        with pytest.raises(ConnectionResetError, match="gone"):
            eager(send())

    run_async(run())


def test_one_that_waits_goes_as_far_as_it_can_and_the_rest_is_awaited() -> None:
    done: list[Any] = []

    async def run() -> None:
        room: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        async def send() -> None:
            done.append("before")
            done.append(await room)  # the socket's buffer drains
            await asyncio.sleep(0)  # a bare yield
            done.append("after")

        rest = eager(send())
        assert rest is not None
        assert done == ["before"]
        asyncio.get_running_loop().call_later(0.01, room.set_result, "drained")
        await rest
        assert done == ["before", "drained", "after"]

    run_async(run())


def test_a_failure_of_what_it_waits_on_reaches_the_coroutine() -> None:
    seen: list[BaseException] = []

    async def run() -> None:
        room: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def send() -> None:
            try:
                await room
            except OSError as exc:
                seen.append(exc)
                raise

        rest = eager(send())
        assert rest is not None
        room.set_exception(BrokenPipeError("closed"))
        with pytest.raises(BrokenPipeError):
            await rest

    run_async(run())
    assert [type(e) for e in seen] == [BrokenPipeError]


def test_cancelling_what_finishes_it_closes_the_coroutine() -> None:
    closed: list[bool] = []

    async def run() -> None:
        room: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def send() -> None:
            try:
                await room
            finally:
                closed.append(True)

        rest = eager(send())
        assert rest is not None
        task = asyncio.ensure_future(rest)
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not room.cancelled()  # the server's own future is left to the server

    run_async(run())
    assert closed == [True]


def test_an_awaitable_that_is_no_coroutine_is_handed_back() -> None:
    async def run() -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        handed: Awaitable[None] | None = eager(future)
        assert handed is future
        future.set_result(None)
        await handed

    run_async(run())
