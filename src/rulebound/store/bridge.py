"""Synchronous code on the event loop that awaits where it would block (issue 13).

A play is synchronous from the checks to the answer, and on PostgreSQL its append is a
round trip. In a thread of the pool, each play pays two hops and the interpreter lock's
hand-overs between the loop and the threads; blocking the loop instead would stop every
other request for the round trip. ``bridged`` runs the play in a greenlet on the loop, and
``wait_for`` (the append) suspends that greenlet while the awaitable runs, so the loop
serves other requests meanwhile. It is how SQLAlchemy's own asyncio support runs its
synchronous core, in a few lines of our own.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from greenlet import getcurrent, greenlet  # type: ignore[import-untyped]

T = TypeVar("T")


class _Bridge(greenlet):  # type: ignore[misc]
    """A greenlet ``bridged`` runs: the marker ``wait_for`` looks for."""


def in_bridge() -> bool:
    """Whether this code runs inside ``bridged`` (where ``wait_for`` may be called)."""
    return isinstance(getcurrent(), _Bridge)


def wait_for(awaitable: Awaitable[T]) -> T:
    """The awaitable's result, awaited by the loop while this greenlet is suspended."""
    current = getcurrent()
    if not isinstance(current, _Bridge):
        raise RuntimeError("wait_for is only for code run by bridged()")
    return cast(T, current.parent.switch(awaitable))


async def bridged(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)`` on the loop, in this context (a copy: its context variables set
    inside stay inside), each ``wait_for`` in it awaited here."""
    bridge = _Bridge(func, getcurrent())
    bridge.gr_context = contextvars.copy_context()
    step = bridge.switch(*args)
    while not bridge.dead:
        try:
            value = await step
        except BaseException as exc:  # the awaitable failed: raised where it was awaited
            step = bridge.throw(exc)
        else:
            step = bridge.switch(value)
    return cast(T, step)
