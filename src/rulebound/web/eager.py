"""A coroutine run on the caller's stack as far as it goes without waiting.

The live feed hands one event to a thousand open streams at once (``web/hub``). Waking each
stream's task to send its copy cost more than the send itself: a task step, the stream's
generator resumed, the server's ``send`` awaited. A send that has room in the socket's
buffer never waits, so the hub runs it right there (``eager``), as Python 3.12's eager tasks
would; only a send that must wait for the buffer to drain is finished later, by whoever
awaits what ``eager`` returns.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine
from typing import Any


def eager(step: Awaitable[None]) -> Awaitable[None] | None:
    """Run ``step`` (a coroutine) until it first waits: None if it finished without waiting
    (an exception it raised is raised here), else what finishes it, to be awaited before
    anything that must come after ``step``'s effects. An awaitable that is no coroutine
    cannot be run here: it is handed back as it is."""
    if not isinstance(step, Coroutine):
        return step
    try:
        waiting = step.send(None)
    except StopIteration:
        return None
    return _finish(step, waiting)


async def _finish(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Resume ``coro`` each time what it waits on is done, as its task would have; closed
    (its ``finally`` blocks run) where the awaiting task is cancelled first."""
    try:
        while True:
            if waiting is None:  # a bare yield: let the loop run once
                await asyncio.sleep(0)
            else:  # a future: until it is done; the coroutine reads its outcome itself
                await asyncio.wait([waiting])
            try:
                waiting = coro.send(None)
            except StopIteration:
                return
    except BaseException:
        coro.close()
        raise
