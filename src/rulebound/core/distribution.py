"""Exact discrete distributions: an immutable mapping from outcome to integer weight.

Weights are kept as integers reduced by their gcd, so probabilities are exact
``Fraction``s and sampling needs only one uniform integer draw over the total.
Every odds engine in rulebound is built from the few combinators here.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import reduce
from typing import TYPE_CHECKING, Generic, TypeVar

from rulebound.core.errors import InvalidInput

if TYPE_CHECKING:
    from rulebound.core.random_source import RandomSource

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)
V = TypeVar("V", bound=Hashable)


def _coprime_maker() -> Callable[[int, int], Fraction] | None:
    """A way to build a ``Fraction`` from a numerator and denominator already in lowest
    terms, skipping the constructor's type checks (over half its time): the classmethod
    Python 3.12 added, or, before it, setting the two slots ``Fraction`` has always had.
    None unless the result is indistinguishable from ``Fraction(3, 4)``."""
    made: Callable[[int, int], Fraction] | None = getattr(Fraction, "_from_coprime_ints", None)
    if made is None:

        def made(numerator: int, denominator: int) -> Fraction:
            fraction = object.__new__(Fraction)
            fraction._numerator = numerator  # type: ignore[attr-defined]
            fraction._denominator = denominator  # type: ignore[attr-defined]
            return fraction

    try:
        probe = made(3, 4)
    except (AttributeError, TypeError):
        return None
    plain = Fraction(3, 4)
    same = (probe.numerator, probe.denominator, hash(probe), repr(probe)) == (
        3,
        4,
        hash(plain),
        repr(plain),
    )
    return made if same and probe == plain and type(probe) is Fraction else None


_COPRIME = _coprime_maker()


def exact(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for plain ints and a positive denominator,
    about twice as fast: every probability the engines report is built here."""
    if _COPRIME is None:
        return Fraction(numerator, denominator)
    divisor = math.gcd(numerator, denominator)
    if divisor == 1:
        return _COPRIME(numerator, denominator)
    return _COPRIME(numerator // divisor, denominator // divisor)


def exact_over(numerators: Iterable[int], denominator: int) -> list[Fraction]:
    """``[exact(n, denominator) for n in numerators]`` without a call per value: a row of
    a designer table, or a distribution's outcomes, share their denominator."""
    made, gcd = _COPRIME, math.gcd
    if made is None:
        return [Fraction(n, denominator) for n in numerators]
    fractions = []
    for numerator in numerators:  # a plain loop: cheaper than a comprehension on a first call
        divisor = gcd(numerator, denominator)
        fractions.append(made(numerator // divisor, denominator // divisor))
    return fractions


class Distribution(Generic[T]):
    """A finite distribution with exact weights. Instances never change."""

    __slots__ = ("_total", "_weights")

    _weights: dict[T, int]
    _total: int

    def __init__(self, weights: Mapping[T, int]) -> None:
        cleaned: dict[T, int] = {}
        for outcome, weight in weights.items():
            if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
                raise InvalidInput("weight", weight, "a non-negative integer")
            if weight:
                cleaned[outcome] = cleaned.get(outcome, 0) + weight
        if not cleaned:
            raise InvalidInput(
                "weights", dict(weights), "at least one outcome with positive weight"
            )
        self._settle(cleaned)

    def _settle(self, cleaned: dict[T, int]) -> None:
        """Keep the weights reduced by their gcd, the outcomes sorted where they can be."""
        divisor = math.gcd(*cleaned.values())
        try:
            keys: list[T] = sorted(cleaned)  # type: ignore[type-var]
        except TypeError:
            keys = list(cleaned)
        weights = {}  # plain loops: cheaper than comprehensions on a first call
        if divisor == 1:
            for key in keys:
                weights[key] = cleaned[key]
        else:
            for key in keys:
                weights[key] = cleaned[key] // divisor
        self._weights = weights
        self._total = sum(weights.values())

    @staticmethod
    def _trusted(weights: dict[U, int]) -> Distribution[U]:
        """Build from weights a combinator computed: positive ints, not empty. The dict is
        only read (``_settle`` builds its own), so a cached one may be passed."""
        made: Distribution[U] = object.__new__(Distribution)
        made._settle(weights)
        return made

    # construction -----------------------------------------------------------------
    @staticmethod
    def die(sides: int) -> Distribution[int]:
        if not isinstance(sides, int) or isinstance(sides, bool) or sides < 1:
            raise InvalidInput("sides", sides, "a positive number of sides")
        return Distribution(dict.fromkeys(range(1, sides + 1), 1))

    @staticmethod
    def uniform(outcomes: Iterable[U]) -> Distribution[U]:
        weights: dict[U, int] = {}
        for outcome in outcomes:
            weights[outcome] = weights.get(outcome, 0) + 1
        return Distribution(weights)

    @staticmethod
    def single(outcome: U) -> Distribution[U]:
        return Distribution({outcome: 1})

    @staticmethod
    def from_probabilities(probabilities: Mapping[U, Fraction]) -> Distribution[U]:
        for outcome, p in probabilities.items():
            if not isinstance(p, Fraction | int) or isinstance(p, bool) or p < 0:
                raise InvalidInput(f"probabilities[{outcome!r}]", p, "a non-negative Fraction")
        if sum(probabilities.values()) != 1:
            raise InvalidInput("probabilities", probabilities, "probabilities summing to 1")
        denominator = reduce(math.lcm, (p.denominator for p in probabilities.values()), 1)
        return Distribution({k: int(p * denominator) for k, p in probabilities.items()})

    # reading ----------------------------------------------------------------------
    @property
    def total(self) -> int:
        return self._total

    def outcomes(self) -> tuple[T, ...]:
        return tuple(self._weights)

    def items(self) -> Iterator[tuple[T, int]]:
        return iter(self._weights.items())

    def weight(self, outcome: T) -> int:
        return self._weights.get(outcome, 0)

    def probability(self, outcome: T) -> Fraction:
        return exact(self._weights.get(outcome, 0), self._total)

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        hits = sum(w for k, w in self._weights.items() if predicate(k))
        return exact(hits, self._total)

    def probabilities(self) -> dict[T, Fraction]:
        weights = self._weights  # one denominator for every outcome
        return dict(zip(weights, exact_over(weights.values(), self._total), strict=True))

    def mean(self, value: Callable[[T], int | Fraction] | None = None) -> Fraction:
        if value is None:

            def value(outcome: T) -> int | Fraction:
                if isinstance(outcome, int | Fraction):
                    return outcome
                raise InvalidInput("outcome", outcome, "a number, or pass a value function")

        return Fraction(sum(value(k) * w for k, w in self._weights.items()), self._total)

    # combinators ------------------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        weights: dict[U, int] = {}
        for outcome, weight in self._weights.items():
            key = f(outcome)
            weights[key] = weights.get(key, 0) + weight
        return Distribution._trusted(weights)

    def flat_map(self, f: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Follow each outcome with a distribution that depends on it (a push, a reroll)."""
        children = [(w, f(k)) for k, w in self._weights.items()]
        common = reduce(math.lcm, (child.total for _, child in children), 1)
        weights: dict[U, int] = {}
        for weight, child in children:
            scale = weight * (common // child.total)
            for outcome, child_weight in child.items():
                weights[outcome] = weights.get(outcome, 0) + scale * child_weight
        return Distribution._trusted(weights)

    def combine(self, other: Distribution[U], f: Callable[[T, U], V]) -> Distribution[V]:
        """Combine two independent distributions outcome by outcome."""
        weights: dict[V, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                key = f(a, b)
                weights[key] = weights.get(key, 0) + wa * wb
        return Distribution._trusted(weights)

    def joint(self, other: Distribution[U]) -> Distribution[tuple[T, U]]:
        return self.combine(other, lambda a, b: (a, b))

    def convolve(self, other: Distribution[T]) -> Distribution[T]:
        """The distribution of a sum of two independent numbers or vectors."""
        return self.combine(other, add_outcomes)

    def repeat(self, times: int) -> Distribution[T]:
        """The sum of ``times`` independent copies, by repeated squaring."""
        if not isinstance(times, int) or isinstance(times, bool) or times < 1:
            raise InvalidInput("times", times, "an integer, at least 1")
        result: Distribution[T] | None = None
        base = self
        while times:
            if times & 1:
                result = base if result is None else result.convolve(base)
            times >>= 1
            if times:
                base = base.convolve(base)
        assert result is not None
        return result

    def sample(self, source: RandomSource) -> T:
        """Draw one outcome with a single uniform draw over the total weight."""
        ticket = source.draw(self._total)
        for outcome, weight in self._weights.items():
            ticket -= weight
            if ticket <= 0:
                return outcome
        raise AssertionError("unreachable: ticket exceeded total weight")

    # dunder -----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self._weights == other._weights

    def __hash__(self) -> int:
        return hash(frozenset(self._weights.items()))

    def __len__(self) -> int:
        return len(self._weights)

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {w}" for k, w in self._weights.items())
        return f"Distribution({{{body}}})"

    def _repr_html_(self) -> str:
        """A notebook's view: each outcome with its weight and exact chance, in order."""
        from rulebound.core.display import html_table

        rows = [(str(k), w, self.probability(k)) for k, w in self._weights.items()]
        return html_table(["outcome", "weight", "chance"], rows, f"total weight {self._total}")


def add_outcomes(a: T, b: T) -> T:
    """Add numbers, or tuples element by element (joint counts such as (successes, banes))."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            raise InvalidInput("outcome", b, f"a tuple of length {len(a)}")
        return tuple(map(operator.add, a, b))  # type: ignore[return-value]
    return a + b  # type: ignore[no-any-return, operator]


def sum_all(parts: Iterable[Distribution[T]]) -> Distribution[T]:
    """Convolve independent parts; an empty input is an error since the zero is unknown."""
    items = list(parts)
    if not items:
        raise InvalidInput("parts", items, "at least one distribution")
    return reduce(Distribution.convolve, items)
