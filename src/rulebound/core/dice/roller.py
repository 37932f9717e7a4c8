"""Rolling an expression with faces from an injected ``RandomSource``, in a defined order.

The order is what makes a logged roll replayable: the tree is rolled depth first, left to
right; a dice term draws its dice in turn, then applies its operations in order. Within an
operation the dice are visited in pool order (the order drawn, extra dice at the end):
``rr`` rerolls every matching die, then looks again, until none match; ``ro`` rerolls each
matching die once; ``ra`` adds one die for the first die it selects; ``e`` adds a die for
each matching die, then for each matching new die, until none match or a chain reaches
``max_explosions`` (the die ``ra`` adds is not an explosion: its chain starts with it). A
fudge die draws a d3 and shows the face minus 2.

Selection follows d20: ``k`` and ``p`` act on the dice (or set items) still kept; ``h`` and
``l`` take the highest or lowest by value (ties in pool order); several selectors of one
operation (``k1k2``, ``kh1kl1``) select the union.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol, TypeVar

from rulebound.core.dice import nodes
from rulebound.core.dice.limits import DEFAULT_LIMITS, DiceLimits
from rulebound.core.dice.story import DieRoll, Part, Roll
from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.random_source import RandomSource


def roll(
    expression: nodes.Expression, source: RandomSource, limits: DiceLimits = DEFAULT_LIMITS
) -> Roll:
    """Roll ``expression`` (every repeat) with faces from ``source``."""
    roller = _Roller(source, limits)
    return Roll(expression, tuple(roller.part(expression.root) for _ in range(expression.repeat)))


class _Die:
    """A die while its operations run (frozen into a ``DieRoll`` once they are done)."""

    __slots__ = ("added", "depth", "dice", "exploded", "faces", "kept", "value")

    def __init__(self, dice: nodes.Dice, face: int, depth: int = 0, added: bool = False) -> None:
        self.dice = dice
        self.faces = [face]
        self.value: nodes.Value = face
        self.kept = True
        self.exploded = False
        self.added = added
        self.depth = depth

    def frozen(self, success: bool | None = None) -> DieRoll:
        return DieRoll(
            self.dice.label,
            self.dice.sides,
            tuple(self.faces),
            int(self.value),
            self.kept,
            self.exploded,
            self.added,
            success if self.kept else None,
        )


class _Element:
    """A set's item while the set's operations run."""

    __slots__ = ("kept", "part", "value")

    def __init__(self, part: Part) -> None:
        self.part = part
        self.value = part.total
        self.kept = True


class Member(Protocol):
    """What a selection reads and a keep or drop changes: a die, or a set's item."""

    value: nodes.Value
    kept: bool


M = TypeVar("M", bound=Member)


class ValueMember:
    """A member that is its value alone: what the odds keep and drop as they enumerate the
    values a pool or a set can end with."""

    __slots__ = ("kept", "value")

    def __init__(self, value: nodes.Value) -> None:
        self.value = value
        self.kept = True


class _Roller:
    def __init__(self, source: RandomSource, limits: DiceLimits) -> None:
        self.source = source
        self.limits = limits
        self.drawn = 0

    def face(self, dice: nodes.Dice) -> int:
        self.drawn += 1
        if self.drawn > self.limits.max_draws:
            raise LimitExceeded(
                "dice",
                f"more than {self.limits.max_draws} dice drawn",
                self.limits.max_draws,
                "dice drawn in one roll (the cap on draws)",
            )
        face = self.source.draw(dice.sides)
        return face - 2 if dice.kind == "F" else face

    # nodes

    def part(self, node: nodes.Node) -> Part:
        if isinstance(node, nodes.Literal):
            return Part(node, node.value)
        if isinstance(node, nodes.Dice | nodes.Pool | nodes.NumberSet):
            return self.pool(node, nodes.flatten(node))
        if isinstance(node, nodes.Count):
            return self.count(node)
        if isinstance(node, nodes.Paren | nodes.Annotated):
            inner = self.part(node.inner)
            return Part(node, inner.total, (inner,))
        if isinstance(node, nodes.Unary):
            operand = self.part(node.operand)
            return Part(node, -operand.total if node.op == "-" else operand.total, (operand,))
        assert isinstance(node, nodes.Binary)
        left, right = self.part(node.left), self.part(node.right)
        return Part(node, arithmetic(node.op, left.total, right.total), (left, right))

    def pool(self, node: nodes.Node, flat: nodes.Flat) -> Part:
        if flat.dice is not None:
            dice = self.dice(flat)
            total = sum((d.value for d in dice if d.kept), start=0)
            return Part(node, total, dice=tuple(d.frozen() for d in dice))
        elements = [_Element(self.part(item)) for item in flat.elements]
        for op in flat.ops:
            keep_or_drop(op, elements)
        total = sum((e.value for e in elements if e.kept), start=0)
        parts = tuple(
            Part(e.part.node, e.part.total, e.part.parts, e.part.dice, e.kept) for e in elements
        )
        return Part(node, total, parts)

    def count(self, node: nodes.Count) -> Part:
        dice = self.dice(nodes.flatten(node.dice))
        hits = [d.kept and node.meets(d.value) for d in dice]
        return Part(
            node, sum(hits), dice=tuple(d.frozen(h) for d, h in zip(dice, hits, strict=True))
        )

    # a dice term

    def dice(self, flat: nodes.Flat) -> list[_Die]:
        dice = flat.dice
        assert dice is not None
        pool = [_Die(dice, self.face(dice)) for _ in range(dice.count)]
        for op in flat.ops:
            if op.op in ("k", "p"):
                keep_or_drop(op, pool)
            elif op.op in ("mi", "ma"):
                bound = op.selectors[-1].number
                for die in pool:
                    if die.kept and (die.value < bound if op.op == "mi" else die.value > bound):
                        die.value = bound
            elif op.op == "ra":
                for die in chosen(op.selectors, pool, most=1):
                    die.exploded = True  # a new die, not an explosion: its own chain starts
                    pool.append(_Die(dice, self.face(dice), added=True))
            elif op.op == "e":
                self.explode(op, pool, dice)
            else:
                self.reroll(op, pool)
        return pool

    def reroll(self, op: nodes.SetOp, pool: list[_Die]) -> None:
        targets = chosen(op.selectors, pool)
        while targets:
            for die in targets:
                face = self.face(die.dice)
                die.faces.append(face)
                die.value = face
            if op.op == "ro":
                return
            targets = chosen(op.selectors, pool)

    def explode(self, op: nodes.SetOp, pool: list[_Die], dice: nodes.Dice) -> None:
        done: set[int] = set()
        targets = chosen(op.selectors, pool)
        while targets:
            for die in targets:
                done.add(id(die))
                if die.depth < self.limits.max_explosions:
                    die.exploded = True
                    pool.append(_Die(dice, self.face(dice), die.depth + 1, added=True))
            targets = [d for d in chosen(op.selectors, pool) if id(d) not in done]


def chosen(
    selectors: tuple[nodes.Selector, ...], pool: Sequence[M], most: int | None = None
) -> list[M]:
    """The kept members the selectors pick (their union, in pool order); with ``most``, at
    most that many, taken selector by selector as d20 does for ``ra``."""
    kept = [m for m in pool if m.kept]
    picked: list[M] = []
    for selector in selectors:
        if most is not None and len(picked) >= most:
            break
        if selector.kind == "h":
            found = sorted(kept, key=lambda m: m.value, reverse=True)[: selector.number]
        elif selector.kind == "l":
            found = sorted(kept, key=lambda m: m.value)[: selector.number]
        else:
            found = [m for m in kept if selector.matches_face(m.value)]
        if most is not None:
            found = found[: most - len(picked)]
        picked += [m for m in found if all(m is not p for p in picked)]
    order = {id(m): i for i, m in enumerate(pool)}
    return sorted(picked, key=lambda m: order[id(m)])


def keep_or_drop(op: nodes.SetOp, members: Sequence[Member]) -> None:
    picked = {id(m) for m in chosen(op.selectors, members)}
    for member in members:
        if member.kept and (id(member) in picked) != (op.op == "k"):
            member.kept = False


def arithmetic(op: str, left: nodes.Value, right: nodes.Value) -> nodes.Value:
    """One operator of d20's, on exact numbers: ``/`` is exact, ``//`` floors, ``%`` takes
    the divisor's sign (Python's rules, which d20 follows), comparisons give 1 or 0."""
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op in ("/", "//", "%") and right == 0:
        raise InvalidInput("dice", op, "a divisor that is never 0")
    if op == "/":
        value = Fraction(left) / right
        return value.numerator if value.denominator == 1 else value
    if op == "//":
        return int(Fraction(left) // right)
    if op == "%":
        value = Fraction(left) % right
        return value.numerator if value.denominator == 1 else value
    return int(nodes.compare(op, left, right))
