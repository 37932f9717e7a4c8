"""The exact distribution of the number of successes among independent checks.

Each check succeeds with its own exact chance ``p_i = a_i / q_i``; the number of successes
is Poisson-binomial, its generating polynomial ``C(z) = prod (b_i + a_i z)`` over
``prod q_i``, with ``b_i = q_i - a_i``. Its coefficients are whole numbers, so everything
here is integer arithmetic on numerators over the one denominator ``prod q_i``: exact, and
no Fraction is normalised until the end. A night of two thousand checks has coefficients of
thousands of digits; the figure a ledger needs, ``2 P(X < k) + P(X = k)``, is worked out in
one of two ways, whichever costs less for the checks at hand.

A table rolls a handful of distinct checks all night, so ``C`` is a product of few powers
``F_g ** m_g`` (``F_g = b_g + a_g z``), and ``C' / C = sum m_g a_g / F_g`` gives each
coefficient from the one before (``walked``): one pass up to ``k`` (or ``n - k``, counting
failures), each step a few operations per distinct chance of a long number with a short one,
no multiplication of two long numbers.

With many distinct chances the pass grows with their number, and the product is formed
instead (``multiplied``): polynomials multiplied by Kronecker substitution (packed into one
number, a slot per coefficient), small ones in binary with Python's integers, large ones in
decimal with ``decimal``, whose multiplication of very long numbers is a number-theoretic
transform; the figure is read from the two halves of the checks with one dot product, so
the whole product is never formed.
"""

from __future__ import annotations

import decimal
import heapq
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import repeat
from math import prod
from operator import floordiv, mul, sub
from typing import TypeAlias

EXACT = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[decimal.Inexact, decimal.Rounded, decimal.InvalidOperation, decimal.Overflow],
)
"""Decimal arithmetic that never rounds: any rounding would raise."""
SCHOOLBOOK = 48
"""Products of at most this many coefficient pairs are multiplied term by term."""
DECIMAL_BITS = 1 << 17
"""A packed product longer than this many bits is multiplied in decimal."""
WALK = 24
"""The walk is taken when its steps times the distinct chances are at most this many times
the checks: past that, the product (whose cost hardly depends on how many distinct chances
there are) is the cheaper."""

Coefficients: TypeAlias = list[int] | list[decimal.Decimal]
"""A polynomial, lowest power first: whole numbers, as ``int`` or (once long) ``Decimal``."""
Groups: TypeAlias = tuple[tuple[Fraction, int], ...]
"""Each distinct chance (strictly between 0 and 1) and how many checks had it."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Where ``actual`` successes land among every way the same checks could have gone."""

    luckier_than: Fraction
    """P(X < actual) + P(X = actual) / 2: the share of possible nights with these checks that
    went worse, a tie counting half."""


def split_certain(chances: Iterable[Fraction]) -> tuple[list[Fraction], int]:
    """The chances strictly between 0 and 1, and how many were 1 (a sure success)."""
    uncertain, sure = [], 0
    for p in chances:
        if p >= 1:
            sure += 1
        elif p > 0:
            uncertain.append(p)
    return uncertain, sure


def standing(chances: Sequence[Fraction], actual: int) -> Standing:
    """``actual`` successes against the exact distribution of the successes of ``chances``:
    ``2 P(X < k) + P(X = k)`` over ``2``, its numerator ``walked`` or ``multiplied``."""
    uncertain, sure = split_certain(chances)
    counts = Counter((p.numerator, p.denominator) for p in uncertain)  # cheaper than hash(p)
    groups = tuple(sorted((Fraction(a, q), m) for (a, q), m in counts.items()))
    return _standing(groups, actual - sure)


@lru_cache(maxsize=64)
def _standing(groups: Groups, k: int) -> Standing:
    """``groups``: each distinct chance and how many checks had it (a line of a member and
    one of their only character are the same checks, worked out once)."""
    n = sum(m for _, m in groups)
    if k < 0:
        return Standing(Fraction(0))
    if k > n:
        return Standing(Fraction(1))
    ranked = walked if walks(groups, k) else multiplied
    denominator = 2 * prod(p.denominator**m for p, m in groups)
    return Standing(Fraction(ranked(groups, k), denominator))


def walks(groups: Groups, k: int) -> bool:
    """Whether ``walked`` is the cheaper way (``WALK``)."""
    n = sum(m for _, m in groups)
    return min(k, n - k) * len(groups) <= WALK * n


def walked(groups: Groups, k: int) -> int:
    """``2 (C_0 + ... + C_(k-1)) + C_k`` for ``0 <= k <= n``, coefficient by coefficient.

    With ``H_g = C / F_g`` (whole: ``m_g >= 1``), ``C' = sum m_g a_g H_g`` and
    ``C = F_g H_g`` give ``j C_j = sum m_g a_g H_g,(j-1)`` and
    ``H_g,j = (C_j - a_g H_g,(j-1)) / b_g``: both divisions exact, so every number stays
    below ``prod q_i``. Past the middle, the failures are counted instead (the same sum
    over ``b + a z`` turned around, taken from twice the total)."""
    n = sum(m for _, m in groups)
    terms = [(p.numerator, p.denominator - p.numerator, m) for p, m in groups]
    if 2 * k <= n:
        return _walk(terms, k)
    every: int = prod((a + b) ** m for a, b, m in terms)
    return 2 * every - _walk([(b, a, m) for a, b, m in terms], n - k)


def _walk(terms: Sequence[tuple[int, int, int]], k: int) -> int:
    """``walked`` for ``k`` at most the middle; ``terms``: each ``(a, b, m)``."""
    gains = [a for a, _, _ in terms]
    stays = [b for _, b, _ in terms]
    counts = [m for _, _, m in terms]
    c: int = prod(b**m for _, b, m in terms)  # C_0: every check failed
    h = [c // b for b in stays]
    below = 0
    for j in range(1, k + 1):
        below += c
        shifted = list(map(mul, gains, h))  # a_g H_g,(j-1)
        c = sum(map(mul, counts, shifted)) // j
        h = list(map(floordiv, map(sub, repeat(c), shifted), stays))
    return 2 * below + c


def multiplied(groups: Groups, k: int) -> int:
    """``walked`` by multiplication, for ``0 <= k <= n``.

    With ``C(z) = L(z) R(z)`` (two halves of the checks) and ``S_j`` the sums of the first
    ``j + 1`` coefficients of ``R``, the figure is ``sum_l L_l (S_(k-1-l) + S_(k-l))``: one
    dot product, the whole product never formed."""
    halves: tuple[list[Coefficients], list[Coefficients]] = ([], [])
    weights = [0, 0]
    for p, m in sorted(groups, key=lambda g: -g[1] * g[0].denominator.bit_length()):
        lighter = 0 if weights[0] <= weights[1] else 1
        halves[lighter].append(binomial(p, m))
        weights[lighter] += m * p.denominator.bit_length()
    left = product(halves[0])
    sums = _prefix_sums(product(halves[1]))
    with decimal.localcontext(EXACT):
        both = [sums[j - 1] + sums[j] if j else sums[0] for j in range(len(sums))]
        both.append(sums[-1] + sums[-1])  # past the last: every outcome, twice
    return _integer(_dot(left, both, k))


def distribution(chances: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """P(X = j) for j = 0 .. len(chances), exactly (the whole polynomial: for tests and small
    sets of checks)."""
    uncertain, sure = split_certain(chances)
    zeros = len(chances) - len(uncertain) - sure
    denominator = prod(p.denominator for p in uncertain)
    coefficients = [Fraction(_integer(c), denominator) for c in polynomial(uncertain)]
    return (*([Fraction(0)] * sure), *coefficients, *([Fraction(0)] * zeros))


def polynomial(chances: Sequence[Fraction]) -> Coefficients:
    """The whole-number coefficients of ``prod (b_i + a_i z)``."""
    return product([binomial(p, m) for p, m in Counter(chances).items()])


def binomial(p: Fraction, m: int) -> list[int]:
    """``(b + a z) ** m`` for ``p = a / (a + b)``: ``C(m, j) a**j b**(m - j)``, each from the
    one before."""
    a, b = p.numerator, p.denominator - p.numerator
    out = [b**m]
    for j in range(m):
        out.append(out[-1] * a * (m - j) // (b * (j + 1)))
    return out


def product(polynomials: list[Coefficients]) -> Coefficients:
    """The product, the two shortest multiplied first (so each multiplication is balanced)."""
    heap = [(len(c), i, c) for i, c in enumerate(polynomials)]
    if not heap:
        return [1]
    heapq.heapify(heap)
    count = len(heap)
    while len(heap) > 1:
        _, _, first = heapq.heappop(heap)
        _, _, second = heapq.heappop(heap)
        made = multiply(first, second)
        heapq.heappush(heap, (len(made), count, made))
        count += 1
    return heap[0][2]


def multiply(a: Coefficients, b: Coefficients) -> Coefficients:
    """The product of two polynomials with non-negative whole coefficients."""
    if len(a) * len(b) <= SCHOOLBOOK and isinstance(a[0], int) and isinstance(b[0], int):
        return _schoolbook(a, b)
    with decimal.localcontext(EXACT):
        bound = _total(a) * _total(b)  # no coefficient of the product exceeds it
    if isinstance(bound, int) and bound.bit_length() * (len(a) + len(b)) <= DECIMAL_BITS:
        return _binary(a, b, bound.bit_length())  # type: ignore[arg-type]
    return _decimal(_as_decimal(a), _as_decimal(b), _width(bound))


def _width(bound: int | decimal.Decimal) -> int:
    """Digits enough for any whole number up to ``bound`` (one spare for an int's estimate)."""
    if isinstance(bound, int):
        return bound.bit_length() * 30103 // 100000 + 2
    return len(_digits(bound))


def _schoolbook(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _binary(a: list[int], b: list[int], bits: int) -> list[int]:
    size = (bits + 8) // 8
    packed_a = int.from_bytes(b"".join(c.to_bytes(size, "little") for c in a), "little")
    packed_b = int.from_bytes(b"".join(c.to_bytes(size, "little") for c in b), "little")
    count = len(a) + len(b) - 1
    raw = (packed_a * packed_b).to_bytes(size * count, "little")
    return [int.from_bytes(raw[i * size : (i + 1) * size], "little") for i in range(count)]


def _decimal(a: list[decimal.Decimal], b: list[decimal.Decimal], width: int) -> Coefficients:
    """Kronecker substitution at ``10**width``: each coefficient its own ``width`` digits."""
    count = len(a) + len(b) - 1
    with decimal.localcontext(EXACT):
        packed = decimal.Decimal(_pack(a, width)) * decimal.Decimal(_pack(b, width))
    text = _digits(packed).rjust(count * width, "0")
    end = len(text)
    return [decimal.Decimal(text[end - (i + 1) * width : end - i * width]) for i in range(count)]


def _pack(coefficients: list[decimal.Decimal], width: int) -> str:
    return "".join(_digits(c).rjust(width, "0") for c in reversed(coefficients))


def _digits(value: decimal.Decimal) -> str:
    """A whole, non-negative Decimal's digits (its exponent is 0: no notation to undo)."""
    return str(value)


def _as_decimal(coefficients: Coefficients) -> list[decimal.Decimal]:
    return [c if isinstance(c, decimal.Decimal) else decimal.Decimal(c) for c in coefficients]


def _total(coefficients: Coefficients) -> int | decimal.Decimal:
    if isinstance(coefficients[0], int):
        return sum(coefficients)
    return sum(coefficients, decimal.Decimal(0))


def _prefix_sums(coefficients: Coefficients) -> Coefficients:
    """``out[j] = c[0] + ... + c[j]``."""
    out: list[int | decimal.Decimal] = []
    with decimal.localcontext(EXACT):
        running: int | decimal.Decimal = 0
        for c in coefficients:
            running = running + c
            out.append(running)
    return out  # type: ignore[return-value]


def _dot(
    left: Sequence[int | decimal.Decimal], right: Sequence[int | decimal.Decimal], k: int
) -> int | decimal.Decimal:
    """``sum(left[l] * right[min(k - l, last)])`` over every l up to k: ``right`` held at its
    last value past its end (a prefix sum stays at the total)."""
    last = len(right) - 1
    with decimal.localcontext(EXACT):
        total: int | decimal.Decimal = 0
        for index in range(min(k, len(left) - 1) + 1):
            total = total + left[index] * right[min(k - index, last)]
    return total


def _integer(value: int | decimal.Decimal) -> int:
    return value if isinstance(value, int) else int(value)
