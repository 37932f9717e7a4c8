"""Free-form dice expressions ("2d6+3", "d20 - 1", "3d6 + 1d4 + 2"): parse, exact odds, roll.

Generic and pure: a table's "/r" and the Discord app's both use it. An expression is a sum
of terms, each ``NdS`` (N dice of S sides; N defaults to 1, ``d%`` is a d100) or a whole
number, joined by ``+`` or ``-``. Parsing errors name the position and what was expected.
The distribution is exact (``Fraction``s, by convolution); a roll draws each die from the
``RandomSource`` it is given, in order, so a table's verifiable dice serve it as well.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource

MAX_DICE = 100
MAX_SIDES = 1000
MAX_TERMS = 20
MAX_OUTCOMES = 20_000
"""Caps on one expression: dice in all, sides of a die, terms, and distinct totals."""
TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<n>\d*)[dD](?P<s>\d+|%))|(?P<num>\d+)|(?P<op>[+-])|(?P<bad>\S))"
)
EXPECTED_TERM = "dice such as 2d6 or d20, or a whole number"


@dataclass(frozen=True, slots=True)
class Term:
    sign: int
    count: int
    sides: int
    """0 for a constant; then ``count`` is its value."""

    def text(self) -> str:
        body = str(self.count) if self.sides == 0 else f"{self.count}d{self.sides}"
        return ("-" if self.sign < 0 else "+") + body


@dataclass(frozen=True, slots=True)
class Expression:
    terms: tuple[Term, ...]

    def text(self) -> str:
        return "".join(t.text() for t in self.terms).removeprefix("+")

    @property
    def dice(self) -> int:
        return sum(t.count for t in self.terms if t.sides)

    def distribution(self) -> dict[int, Fraction]:
        """Every total and its exact chance."""
        totals: dict[int, Fraction] = {0: Fraction(1)}
        for term in self.terms:
            if term.sides == 0:
                totals = {k + term.sign * term.count: p for k, p in totals.items()}
                continue
            face = Fraction(1, term.sides)
            for _ in range(term.count):
                step: dict[int, Fraction] = {}
                for total, p in totals.items():
                    for f in range(1, term.sides + 1):
                        key = total + term.sign * f
                        step[key] = step.get(key, Fraction(0)) + p * face
                totals = step
        return dict(sorted(totals.items()))

    def mean(self) -> Fraction:
        total = Fraction(0)
        for t in self.terms:
            total += t.sign * (t.count if t.sides == 0 else Fraction(t.count * (t.sides + 1), 2))
        return total

    def bounds(self) -> tuple[int, int]:
        """The lowest and the highest total."""
        low = high = 0
        for t in self.terms:
            a, b = (t.count, t.count) if t.sides == 0 else (t.count, t.count * t.sides)
            low, high = (low + a, high + b) if t.sign > 0 else (low - b, high - a)
        return low, high

    def at_least(self, target: int) -> Fraction:
        return sum((p for k, p in self.distribution().items() if k >= target), Fraction(0))

    def roll(self, source: RandomSource) -> Rolled:
        faces: list[tuple[int, int]] = []
        total = 0
        for term in self.terms:
            if term.sides == 0:
                total += term.sign * term.count
                continue
            for _ in range(term.count):
                face = source.draw(term.sides)
                faces.append((term.sides, face))
                total += term.sign * face
        return Rolled(self, tuple(faces), total)


@dataclass(frozen=True, slots=True)
class Rolled:
    expression: Expression
    faces: tuple[tuple[int, int], ...]
    """(sides, face) of each die, in the order drawn."""
    total: int


def parse(text: str, field: str = "dice") -> Expression:
    """An expression, or InvalidInput naming the position (1-based) and what was expected."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(field, text, EXPECTED_TERM + " (for example 2d6+3)")
    terms: list[Term] = []
    sign, want_term, at, seen_sign = 1, True, 0, False
    for match in TOKEN.finditer(text):
        at = match.start() + len(match.group(0)) - len(match.group(0).lstrip()) + 1
        if match.group("bad") is not None:
            what = EXPECTED_TERM if want_term else "+ or - and another term"
            raise InvalidInput(field, text, f"at position {at}: {what}, not {match.group('bad')!r}")
        if match.group("op") is not None:
            if want_term and (terms or sign < 0 or seen_sign):
                raise InvalidInput(field, text, f"at position {at}: {EXPECTED_TERM}, not a sign")
            sign, want_term, seen_sign = (1 if match.group("op") == "+" else -1), True, True
            continue
        if not want_term:
            raise InvalidInput(field, text, f"at position {at}: + or - between two terms")
        terms.append(_term(text, field, at, sign, match.groupdict()))
        want_term, seen_sign = False, False
        if len(terms) > MAX_TERMS:
            raise InvalidInput(field, text, f"at most {MAX_TERMS} terms")
    if want_term:
        raise InvalidInput(field, text, f"at the end: {EXPECTED_TERM} after the sign")
    expression = Expression(tuple(terms))
    if expression.dice > MAX_DICE:
        raise InvalidInput(field, text, f"at most {MAX_DICE} dice in all")
    low, high = expression.bounds()
    if high - low + 1 > MAX_OUTCOMES:
        raise InvalidInput(field, text, f"fewer than {MAX_OUTCOMES} possible totals")
    return expression


def _term(text: str, field: str, at: int, sign: int, parts: Mapping[str, str | None]) -> Term:
    if parts["num"] is not None:
        value = int(parts["num"])
        if value > 1_000_000:
            raise InvalidInput(field, text, f"at position {at}: a number up to 1000000")
        return Term(sign, value, 0)
    count = int(parts["n"] or 1)
    sides = 100 if parts["s"] == "%" else int(parts["s"] or 0)
    if not 1 <= count <= MAX_DICE:
        raise InvalidInput(field, text, f"at position {at}: 1 to {MAX_DICE} dice")
    if not 2 <= sides <= MAX_SIDES:
        raise InvalidInput(field, text, f"at position {at}: dice of 2 to {MAX_SIDES} sides")
    return Term(sign, count, sides)
