"""Exact distributions on integer counts: outcome -> weight, Fractions only at the very end.

A ``Weights`` holds integer weights and their sum, never reduced on the way (a gcd per step
costs more than it saves). Integer outcomes in a short range are a dense list, so a sum of
dice is arithmetic on lists; anything else (a half from ``/``, a sparse range from ``*``) is
a dict. The algorithms are the ones peers use, picked by cost:

- a sum of n identical uniform dice by the recurrence of ((1 - x^s) / (1 - x))^n, a handful of
  small-by-big multiplications per total, half the totals (the rest by symmetry);
- any other n-fold sum by J.C.P. Miller's recurrence for the power of a polynomial (work in
  proportion to totals times faces), or by repeated squaring when that is cheaper;
- a product of two long lists by Kronecker substitution: each list packed into one decimal
  number, multiplied by ``decimal``'s number-theoretic transform, and unpacked.

``cost`` functions estimate each step's work beforehand, in the same units, so an odds plan
can be refused before anything is computed.
"""

from __future__ import annotations

import decimal
import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction

from rulebound.core.dice.nodes import Value

_DECIMAL = decimal.Context(
    prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[]
)
NAIVE_LIMIT = 40_000
"""Products of two lists up to this many pairs are multiplied term by term."""


class Weights:
    """Outcome -> positive integer weight; ``total`` is their sum. Treated as immutable."""

    __slots__ = ("dense", "low", "sparse", "total")

    def __init__(
        self, low: int, dense: list[int] | None, sparse: dict[Value, int] | None, total: int
    ) -> None:
        self.low = low
        self.dense = dense
        """Weights of low, low + 1, ...; first and last positive."""
        self.sparse = sparse
        """Positive weights by outcome, when ``dense`` is None."""
        self.total = total

    def items(self) -> Iterator[tuple[Value, int]]:
        """(outcome, weight) pairs with positive weight, lowest outcome first."""
        if self.dense is not None:
            low = self.low
            return ((low + i, w) for i, w in enumerate(self.dense) if w)
        assert self.sparse is not None
        return iter(sorted(self.sparse.items()))

    def support(self) -> int:
        if self.dense is not None:
            return len(self.dense)
        assert self.sparse is not None
        return len(self.sparse)

    def bounds(self) -> tuple[Value, Value]:
        if self.dense is not None:
            return self.low, self.low + len(self.dense) - 1
        assert self.sparse is not None
        return min(self.sparse), max(self.sparse)

    def as_dict(self) -> dict[Value, int]:
        return dict(self.items())

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self.items()), self.total)

    def __repr__(self) -> str:
        return f"Weights({self.as_dict()!r}, total={self.total})"


# --- making -----------------------------------------------------------------------------


def point(value: Value) -> Weights:
    return of_dict({value: 1})


def of_dict(weights: Mapping[Value, int], total: int | None = None) -> Weights:
    """Weights from a mapping (zero weights dropped); dense when the outcomes are integers in
    a range not much wider than their number."""
    found = sum(weights.values()) if total is None else total
    whole = [(int(k), w) for k, w in weights.items() if w and type(k) is int]
    if whole and len(whole) == sum(1 for w in weights.values() if w):
        keys = [k for k, _ in whole]
        low, high = min(keys), max(keys)
        if high - low + 1 <= 2 * len(keys) + 64:
            dense = [0] * (high - low + 1)
            for at, weight in whole:
                dense[at - low] += weight
            return Weights(low, dense, None, found)
    sparse: dict[Value, int] = {}
    for outcome, weight in weights.items():
        if weight:
            plain = _plain(outcome)
            sparse[plain] = sparse.get(plain, 0) + weight
    if not sparse:
        raise ValueError("a distribution needs an outcome")
    return Weights(0, None, sparse, found)


def _plain(value: Value) -> Value:
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def _dense(low: int, weights: list[int], total: int) -> Weights:
    start = 0
    while weights[start] == 0:
        start += 1
    end = len(weights)
    while weights[end - 1] == 0:
        end -= 1
    if start or end != len(weights):
        weights = weights[start:end]
    return Weights(low + start, weights, None, total)


# --- arithmetic -------------------------------------------------------------------------


def scaled(a: Weights, factor: int) -> Weights:
    """The same distribution with every weight (and the total) times ``factor``."""
    if factor == 1:
        return a
    if a.dense is not None:
        return Weights(a.low, [w * factor for w in a.dense], None, a.total * factor)
    assert a.sparse is not None
    return Weights(0, None, {k: w * factor for k, w in a.sparse.items()}, a.total * factor)


def shifted(a: Weights, by: Value) -> Weights:
    if by == 0:
        return a
    if a.dense is not None and isinstance(_plain(by), int):
        return Weights(a.low + int(by), a.dense, None, a.total)
    return mapped(a, lambda v: v + by)


def negated(a: Weights) -> Weights:
    if a.dense is not None:
        high = a.low + len(a.dense) - 1
        return Weights(-high, a.dense[::-1], None, a.total)
    return mapped(a, lambda v: -v)


def mapped(a: Weights, f: Callable[[Value], Value]) -> Weights:
    found: dict[Value, int] = {}
    for value, weight in a.items():
        key = _plain(f(value))
        found[key] = found.get(key, 0) + weight
    return of_dict(found, a.total)


def combined(a: Weights, b: Weights, f: Callable[[Value, Value], Value]) -> Weights:
    """Two independent outcomes combined by ``f``, every pair weighed."""
    found: dict[Value, int] = {}
    right = list(b.items())
    for x, wx in a.items():
        for y, wy in right:
            key = _plain(f(x, y))
            found[key] = found.get(key, 0) + wx * wy
    return of_dict(found, a.total * b.total)


def added(a: Weights, b: Weights) -> Weights:
    """The sum of two independent outcomes."""
    if a.dense is not None and b.dense is not None:
        return Weights(a.low + b.low, convolve(a.dense, b.dense), None, a.total * b.total)
    if b.support() == 1:
        value, weight = next(b.items())
        return scaled(shifted(a, value), weight)
    if a.support() == 1:
        return added(b, a)
    return combined(a, b, lambda x, y: x + y)


def on_grid(a: Weights, grain: int) -> Weights:
    """The outcomes times ``grain``, each then a whole number: a sum of outcomes on a grid of
    ``1/grain`` is a convolution of these."""
    return of_dict({int(v * grain): w for v, w in a.items()}, a.total)


def off_grid(a: Weights, grain: int) -> Weights:
    """``on_grid`` undone: each outcome divided by ``grain`` again."""
    return mapped(a, lambda v: Fraction(v, grain))


def mixture(parts: Sequence[tuple[int, Weights]]) -> Weights:
    """Each part chosen with chance ``factor / sum of factors``: the parts are brought to a
    common total (their lcm), so the result's weights stay integers."""
    common = math.lcm(*(part.total for _, part in parts))
    dense = all(part.dense is not None for _, part in parts)
    total = sum(factor for factor, _ in parts) * common
    if dense:
        low = min(part.low for _, part in parts)
        high = max(part.low + len(part.dense or ()) - 1 for _, part in parts)
        out = [0] * (high - low + 1)
        for factor, part in parts:
            times = factor * (common // part.total)
            if not times:
                continue
            offset = part.low - low
            for i, w in enumerate(part.dense or ()):
                if w:
                    out[offset + i] += w * times
        return _dense(low, out, total)
    found: dict[Value, int] = {}
    for factor, part in parts:
        times = factor * (common // part.total)
        for value, weight in part.items():
            found[value] = found.get(value, 0) + weight * times
    return of_dict(found, total)


def accumulate(parts: Sequence[tuple[int, Weights]], total: int) -> Weights:
    """The weights of every part times its factor, added up, over the ``total`` given (parts
    that are pieces of one distribution, such as its cases by pool size)."""
    found: dict[Value, int] = {}
    for factor, part in parts:
        for value, weight in part.items():
            found[value] = found.get(value, 0) + weight * factor
    return of_dict(found, total)


def power(a: Weights, n: int) -> Weights:
    """The sum of ``n`` independent copies (n >= 0), by the cheapest algorithm."""
    if n == 0:
        return point(0)
    if a.support() == 1:
        value, weight = next(a.items())
        return of_dict({value * n: weight**n}, a.total**n)
    if n == 1:
        return a
    if a.dense is None:
        summed = a
        for _ in range(n - 1):
            summed = combined(summed, a, lambda x, y: x + y)
        return summed
    dense, low = a.dense, a.low
    if all(w == dense[0] for w in dense):
        counts = uniform_power(len(dense), n)
        factor = dense[0] ** n
        if factor != 1:
            counts = [c * factor for c in counts]
        return Weights(low * n, counts, None, a.total**n)
    if miller_cost(dense, n) <= squaring_cost(len(dense), n, a.total.bit_length()):
        return Weights(low * n, miller_power(dense, n), None, a.total**n)
    result: Weights | None = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else added(result, base)
        n >>= 1
        if n:
            base = added(base, base)
    assert result is not None
    return result


# --- the algorithms on lists ---------------------------------------------------------------


def uniform_power(sides: int, n: int) -> list[int]:
    """Coefficients of (1 + x + ... + x^(sides-1))^n: the ways n dice of ``sides`` faces
    make each total. With f = ((1 - x^s) / (1 - x))^n, (1 - x)(1 - x^s) f' equals
    n (1 - s x^(s-1) + (s-1) x^s) f, so each coefficient follows from three before it."""
    top = n * (sides - 1)
    out = [0] * (top + 1)
    out[0] = 1
    half = top // 2
    s = sides
    for k in range(half):
        value = (k + n) * out[k]
        if k >= s - 1:
            value += (k - s + 1 - n * s) * out[k - s + 1]
            if k >= s:
                value += (n * (s - 1) - k + s) * out[k - s]
        out[k + 1] = value // (k + 1)
    for k in range(half + 1, top + 1):
        out[k] = out[top - k]
    return out


def miller_power(p: Sequence[int], n: int) -> list[int]:
    """Coefficients of p(x)^n for p[0] > 0 (J.C.P. Miller): k p0 a_k equals the sum over j of
    ((n + 1) j - k) p_j a_(k-j). Palindromic p gives a palindromic power: half is computed."""
    degree = len(p) - 1
    top = n * degree
    out = [0] * (top + 1)
    p0 = p[0]
    out[0] = p0**n
    terms = [(j, pj) for j, pj in enumerate(p) if j and pj]
    mirrored = list(p) == list(p)[::-1]
    last = top // 2 if mirrored else top
    for k in range(1, last + 1):
        acc = 0
        for j, pj in terms:
            if j > k:
                break
            acc += ((n + 1) * j - k) * pj * out[k - j]
        out[k] = acc // (k * p0)
    if mirrored:
        for k in range(last + 1, top + 1):
            out[k] = out[top - k]
    return out


def convolve(a: list[int], b: list[int]) -> list[int]:
    """The product of two polynomials given by their coefficients."""
    if len(a) > len(b):
        a, b = b, a
    if len(a) * len(b) <= NAIVE_LIMIT or len(a) <= 8:
        return _naive(a, b)
    width = len(str(sum(a) * sum(b))) + 1
    limit = sys.get_int_max_str_digits()
    if limit and width >= limit:
        return _naive(a, b)
    return _kronecker(a, b, width)


def _naive(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    size = len(b)
    for i, x in enumerate(a):
        if x:
            out[i : i + size] = [o + x * y for o, y in zip(out[i : i + size], b, strict=True)]
    return out


def _kronecker(a: list[int], b: list[int], width: int) -> list[int]:
    """a * b by packing each list into one decimal number of ``width`` digits a slot (wide
    enough for any coefficient of the product, so no slot carries into the next)."""
    pattern = f"0{width}d"

    def packed(values: list[int]) -> decimal.Decimal:
        return decimal.Decimal("".join(format(v, pattern) for v in reversed(values)))

    product = _DECIMAL.multiply(packed(a), packed(b))
    size = len(a) + len(b) - 1
    digits = format(product, "f").rjust(size * width, "0")
    end = len(digits)
    return [int(digits[end - (i + 1) * width : end - i * width]) for i in range(size)]


# --- costs, in one unit: about one machine-word step of an integer operation -------------

OVERHEAD = 3
"""Units one Python-level integer operation costs beyond its words (the interpreter's)."""
PAIR = 50
"""Units to combine one pair of outcomes by a Python function and file it in a dict."""


def words(bits: int) -> int:
    """The units of one operation on integers of ``bits`` bits."""
    return OVERHEAD + bits // 64


def uniform_cost(sides: int, n: int, bits: int) -> int:
    return (n * (sides - 1) // 2 + 1) * 4 * words(bits)


def miller_cost(p: Sequence[int], n: int) -> int:
    terms = sum(1 for w in p[1:] if w)
    bits = max(p).bit_length() * n + n.bit_length()
    return (n * (len(p) - 1) + 1) * max(terms, 1) * words(bits)


def squaring_cost(length: int, n: int, bits: int) -> int:
    cost, size, steps = 0, length, n.bit_length()
    for step in range(1, steps + 1):
        cost += convolve_cost(size, size, bits << step) * 2
        size = 2 * size - 1
    return cost


def convolve_cost(la: int, lb: int, bits: int) -> int:
    """Term by term for short lists, else Kronecker's packing, transform and unpacking."""
    if min(la, lb) <= 8 or la * lb <= NAIVE_LIMIT:
        return la * lb * words(bits)
    digits = bits * 30 // 100 + 2
    return (la + lb) * (digits // 4 + 8) * 8


def pairs_cost(pairs: int, integral: bool, bits: int) -> int:
    """Combining outcomes pair by pair (a product, a division: anything but a sum)."""
    return pairs * ((PAIR if integral else 6 * PAIR) + words(bits))
