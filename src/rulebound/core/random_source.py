"""Where faces come from: an injected source, never a global one.

A source only answers "give me a face from 1 to N". Nothing in the core knows
whether that face came from a seeded generator, the OS, a recording being
replayed, or (later) a committed-seed HMAC derivation. Every roll wraps its
source in a ``RecordingSource`` so the result carries the exact draws needed to
replay it with ``ReplaySource``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rulebound.core.errors import InvalidInput, ReplayMismatch


@dataclass(frozen=True, slots=True)
class Draw:
    """One face drawn from a die with ``sides`` sides, in draw order."""

    sides: int
    face: int

    def __post_init__(self) -> None:
        # Plain ints are the hot path (every die of every roll); anything else is checked fully.
        if type(self.sides) is not int or type(self.face) is not int or self.sides < 1:
            _check_sides(self.sides)
            if not _is_int(self.face):
                raise InvalidInput("face", self.face, f"an integer from 1 to {self.sides}")
        if not 1 <= self.face <= self.sides:
            raise InvalidInput("face", self.face, f"an integer from 1 to {self.sides}")


@runtime_checkable
class RandomSource(Protocol):
    def draw(self, sides: int) -> int:
        """Return a face from 1 to ``sides``, uniformly."""
        ...

    def describe(self) -> dict[str, object]:
        """What a reader needs to know about where faces came from (never a secret)."""
        ...


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_sides(sides: int) -> None:
    if not _is_int(sides) or sides < 1:
        raise InvalidInput("sides", sides, "a positive integer")


class SeededSource:
    """A reproducible source for tests and replays: the same seed gives the same faces."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = random.Random(seed)
        # randrange(n) is exactly _randbelow(n) for one int argument; calling it directly
        # skips argument parsing on every die while keeping the same faces per seed.
        self._below: Callable[[int], int] = rng._randbelow  # type: ignore[attr-defined]

    def draw(self, sides: int) -> int:
        if type(sides) is not int or sides < 1:
            _check_sides(sides)
        return self._below(sides) + 1

    def describe(self) -> dict[str, object]:
        return {"kind": "seeded", "seed": self.seed}


class SystemSource:
    """The default for real play: faces from the operating system's entropy."""

    def draw(self, sides: int) -> int:
        _check_sides(sides)
        return secrets.randbelow(sides) + 1

    def describe(self) -> dict[str, object]:
        return {"kind": "system"}


class MiddleSource:
    """Every die shows its middle face (rounded up): a typical roll, the same every time."""

    def draw(self, sides: int) -> int:
        _check_sides(sides)
        return (sides + 1) // 2

    def describe(self) -> dict[str, object]:
        return {"kind": "middle faces"}


class ReplaySource:
    """Feeds back recorded draws, refusing any request the recording does not match."""

    def __init__(self, draws: Iterable[Draw]) -> None:
        self._draws = tuple(draws)
        self._cursor = 0

    def draw(self, sides: int) -> int:
        _check_sides(sides)
        if self._cursor >= len(self._draws):
            raise ReplayMismatch(self._cursor, "no more draws", f"a d{sides}")
        recorded = self._draws[self._cursor]
        if recorded.sides != sides:
            raise ReplayMismatch(self._cursor, f"a d{recorded.sides}", f"a d{sides}")
        self._cursor += 1
        return recorded.face

    @property
    def exhausted(self) -> bool:
        return self._cursor == len(self._draws)

    def describe(self) -> dict[str, object]:
        return {"kind": "replay", "draws": len(self._draws)}


class RecordingSource:
    """Wraps another source and keeps every draw, in order."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self._draws: list[Draw] = []

    def draw(self, sides: int) -> int:
        face = self.inner.draw(sides)
        self._draws.append(Draw(sides, face))
        return face

    @property
    def draws(self) -> tuple[Draw, ...]:
        return tuple(self._draws)

    def describe(self) -> dict[str, object]:
        return self.inner.describe()
