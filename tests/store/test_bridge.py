"""``store/bridge``: synchronous code run on the loop, awaiting where it would block."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from rulebound.store.bridge import bridged, in_bridge, wait_for

T = TypeVar("T")
MARK: contextvars.ContextVar[str] = contextvars.ContextVar("mark", default="unset")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own (another test's loop may run in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_awaited_results_and_failures_come_back_where_they_were_awaited() -> None:
    async def double(n: int) -> int:
        await asyncio.sleep(0)
        return 2 * n

    async def fails() -> None:
        raise KeyError("lost")

    def play(n: int) -> tuple[int, str]:
        assert in_bridge()
        got = wait_for(double(n)) + wait_for(double(1))
        try:
            wait_for(fails())
        except KeyError as exc:
            return got, str(exc)
        raise AssertionError("not raised")

    assert run(bridged(play, 20)) == (42, "'lost'")


def test_the_loop_serves_others_while_a_bridged_call_waits() -> None:
    order: list[str] = []

    def play() -> str:
        order.append("play starts")
        wait_for(asyncio.sleep(0.05))
        order.append("play ends")
        return "done"

    async def other() -> None:
        await asyncio.sleep(0.01)
        order.append("other")

    async def both() -> str:
        done, _ = await asyncio.gather(bridged(play), other())
        return done

    assert run(both()) == "done"
    assert order == ["play starts", "other", "play ends"]


def test_a_failure_in_the_call_is_raised_and_its_context_stays_inside() -> None:
    def play() -> None:
        assert MARK.get() == "outside"
        MARK.set("inside")
        wait_for(asyncio.sleep(0))
        raise ValueError("bad roll")

    async def outer() -> str:
        MARK.set("outside")
        with pytest.raises(ValueError, match="bad roll"):
            await bridged(play)
        return MARK.get()

    assert run(outer()) == "outside"


def test_wait_for_outside_a_bridge_is_refused() -> None:
    assert not in_bridge()
    sleeping = asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="bridged"):
        wait_for(sleeping)
    sleeping.close()
