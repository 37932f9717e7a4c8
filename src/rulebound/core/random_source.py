"""Where faces come from: an injected source, never a global one.

A source only answers "give me a face from 1 to N". Nothing in the core knows
whether that face came from a seeded generator, the OS, a recording being
replayed, or (later) a committed-seed HMAC derivation. Every roll wraps its
source in a ``RecordingSource`` so the result carries the exact draws needed to
replay it with ``ReplaySource``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Any, Protocol, TypeVar, runtime_checkable

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


T = TypeVar("T")


def trusted_builder(cls: type[T]) -> Callable[..., T]:
    """A constructor for a frozen, slotted dataclass from values its caller has checked.

    It takes every field, positionally and in order, and sets each slot once through
    its descriptor: no ``__init__`` (a frozen class pays ``object.__setattr__`` per
    field there), no ``__post_init__``. The instance is the same immutable value the
    class's own constructor makes (equal, hashable, frozen); only code that built the
    values itself (a face it drew, a record of faces it checked) may use it.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    scope |= {f"_set_{name}": getattr(cls, name).__set__ for name in names}
    body = "".join(f"    _set_{name}(o, {name})\n" for name in names)
    code = f"def build({', '.join(names)}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(code, scope)  # one small function per class, made once at import
    build: Callable[..., T] = scope["build"]
    build.__qualname__ = f"trusted_builder({cls.__name__})"
    return build


_trusted_draw = trusted_builder(Draw)
_DRAW_TABLES: dict[int, tuple[Draw | None, ...]] = {}
_MAX_TABLE_SIDES = 1000
"""Dice up to this many sides share one ``Draw`` per face (``Limits.max_sides``)."""


def _draw_table(sides: object) -> tuple[Draw | None, ...] | None:
    """The shared draws of a die (index = face; index 0 unused), or None for a die
    with no table (not a plain int from 1 to ``_MAX_TABLE_SIDES``).

    A ``Draw`` is an immutable value, so every roll can share one per (sides, face):
    equal, same hash, same JSON as a new one, built once instead of on every die."""
    table = _DRAW_TABLES.get(sides) if type(sides) is int else None
    if table is None and type(sides) is int and 1 <= sides <= _MAX_TABLE_SIDES:
        built = (None, *(_trusted_draw(sides, face) for face in range(1, sides + 1)))
        table = _DRAW_TABLES.setdefault(sides, built)
    return table


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


def sorted_description(source: RandomSource) -> tuple[tuple[str, str], ...]:
    """A source's description as a roll's provenance keeps it: (key, text) pairs by key,
    ``sorted((k, str(v)) for k, v in source.describe().items())``; for a seeded source and
    a recording (exactly those classes) without building and sorting a dict per roll."""
    if type(source) is RecordingSource:
        return sorted_description(source.inner)
    if type(source) is SeededSource:
        seed = source.seed
        if seed is not source._described_seed:  # worked out once per seed
            source._described_seed = seed
            source._description = (("kind", "seeded"), ("seed", str(seed)))
        return source._description
    return tuple(sorted([(k, str(v)) for k, v in source.describe().items()]))


_UNDESCRIBED = object()
"""A seeded source whose description is not worked out yet (any seed, even None, differs)."""
_GETRANDBITS_BELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


class SeededSource:
    """A reproducible source for tests and replays: the same seed gives the same faces."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._described_seed: object = _UNDESCRIBED
        self._description: tuple[tuple[str, str], ...] = ()
        rng = random.Random(seed)
        # randrange(n) is exactly _randbelow(n) for one int argument; calling it directly
        # skips argument parsing on every die while keeping the same faces per seed.
        self._below: Callable[[int], int] = rng._randbelow  # type: ignore[attr-defined]
        # The same, one die at a time without a call: only where ``_randbelow`` is this
        # Python's getrandbits rejection loop, which ``_faces`` repeats step for step.
        same = random.Random._randbelow is _GETRANDBITS_BELOW  # type: ignore[attr-defined]
        self._bits: Callable[[int], int] | None = rng.getrandbits if same else None

    def _faces(self, sides: int, count: int) -> list[int]:
        """``count`` faces of a die, exactly those ``draw`` would give one by one."""
        bits = self._bits
        if bits is None:
            below = self._below
            return [below(sides) + 1 for _ in range(count)]
        k, faces = sides.bit_length(), []
        for _ in range(count):
            r = bits(k)
            while r >= sides:
                r = bits(k)
            faces.append(r + 1)
        return faces

    def draw(self, sides: int) -> int:
        if type(sides) is not int or sides < 1:
            _check_sides(sides)
        bits = self._bits
        if bits is None:
            return self._below(sides) + 1
        k = sides.bit_length()  # ``_faces``'s steps for one die, without another call
        r = bits(k)
        while r >= sides:
            r = bits(k)
        return r + 1

    def describe(self) -> dict[str, object]:
        return {"kind": "seeded", "seed": self.seed}


_system_below: Callable[[int], int] = random.SystemRandom()._randbelow  # type: ignore[attr-defined]
"""What ``secrets.randbelow`` draws with (the OS's entropy), without importing ``secrets``
(and ``hmac``, ``hashlib``) into every process that may roll."""


class SystemSource:
    """The default for real play: faces from the operating system's entropy."""

    def draw(self, sides: int) -> int:
        _check_sides(sides)
        return _system_below(sides) + 1

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
        table = _DRAW_TABLES.get(sides) if type(sides) is int else None  # made: at hand
        if table is None:
            table = _draw_table(sides)
        if table is not None and type(face) is int and 0 < face <= sides:
            self._draws.append(table[face])  # type: ignore[arg-type]  # checked just now
        elif type(sides) is int and type(face) is int and 1 <= face <= sides:
            self._draws.append(_trusted_draw(sides, face))
        else:
            self._draws.append(Draw(sides, face))  # names what is wrong
        return face

    def draw_many(self, sides: int, count: int) -> tuple[int, ...]:
        """``count`` faces of a ``sides``-sided die, each recorded (one call per roll)."""
        table = _draw_table(sides)
        if table is None:
            return tuple([self.draw(sides) for _ in range(count)])
        inner, record = self.inner, self._draws.append
        if type(inner) is SeededSource:  # exactly its draws, without a call per die
            faces = inner._faces(sides, count)
            self._draws += [table[face] for face in faces]  # type: ignore[misc]
            return tuple(faces)
        if type(inner) is RecordingSource:  # a recording of a recording: checked there
            drawn = inner.draw_many(sides, count)
            self._draws += [table[face] for face in drawn]  # type: ignore[misc]
            return drawn
        draw = inner.draw
        faces = []
        for _ in range(count):
            face = draw(sides)
            if type(face) is int and 0 < face <= sides:
                record(table[face])  # type: ignore[arg-type]
            else:
                record(Draw(sides, face))  # names what is wrong
            faces.append(face)
        return tuple(faces)

    @property
    def draws(self) -> tuple[Draw, ...]:
        return tuple(self._draws)

    def describe(self) -> dict[str, object]:
        return self.inner.describe()
