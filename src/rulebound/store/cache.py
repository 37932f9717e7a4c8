"""The store's read cache: tables, members and characters by table, dropped on change.

Every write that changes one of them drops that part of its table's cache (``drop``), or
only the keys it changed (``drop_where``: one character's rows), after it commits; a
notice from another process (the backplane) drops all of that table's parts. A read
that raced a write cannot put its older answer back: each part has a generation, bumped
by every drop, and ``put`` keeps a value only if the generation it was read under still
holds. Nothing is trusted longer than ``seconds``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Literal

Part = Literal["table", "members", "characters"]
PARTS: tuple[Part, ...] = ("table", "members", "characters")
MAX_TABLES = 10_000


class Miss:
    """What ``get`` answers for a key it does not hold."""


MISS = Miss()


class Cache:
    def __init__(self, seconds: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._seconds = seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._generations: dict[tuple[int, Part], int] = {}
        self._held: OrderedDict[int, dict[tuple[Part, Hashable], tuple[float, Any]]] = OrderedDict()

    def generation(self, table_id: int, part: Part) -> int:
        with self._lock:
            return self._generations.get((table_id, part), 0)

    def get(self, table_id: int, part: Part, key: Hashable) -> Any:
        with self._lock:
            found = self._held.get(table_id, {}).get((part, key))
            if found is None:
                return MISS
            at, value = found
            if self._clock() - at > self._seconds:
                return MISS
            return value

    def put(self, table_id: int, part: Part, key: Hashable, value: Any, generation: int) -> None:
        """Keep ``value`` if nothing dropped ``part`` since ``generation`` was read."""
        with self._lock:
            if generation != self._generations.get((table_id, part), 0):
                return
            held = self._held.setdefault(table_id, {})
            self._held.move_to_end(table_id)
            held[(part, key)] = (self._clock(), value)
            while len(self._held) > MAX_TABLES:
                self._held.popitem(last=False)

    def drop(self, table_id: int, *parts: Part) -> None:
        """Forget ``parts`` of a table (none named: all of them)."""
        self.drop_where(table_id, parts or PARTS, lambda _key: True)

    def drop_where(
        self, table_id: int, parts: tuple[Part, ...], which: Callable[[Hashable], bool]
    ) -> None:
        """Forget the keys of ``parts`` of a table that ``which`` picks; a read of any of
        those parts that was under way keeps nothing it read."""
        with self._lock:
            for part in parts:
                self._generations[(table_id, part)] = self._generations.get((table_id, part), 0) + 1
            held = self._held.get(table_id)
            if held is not None:
                for key in [k for k in held if k[0] in parts and which(k[1])]:
                    del held[key]
