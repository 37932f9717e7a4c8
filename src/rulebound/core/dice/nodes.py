"""The parsed form of a free-dice expression, and the one printer that writes it back.

Nodes are immutable values: two expressions that mean the same parse to equal trees, and
``parse(text_of(tree)) == tree`` holds for every tree the parser makes. The shapes follow
d20's grammar (avrae/d20): a number is a comparison of sums of products of signed atoms; an
atom is dice, a set or a literal, with annotations; dice and sets carry operations. Two
shapes are rulebound's own: ``Count`` (success counting, ``10d10>=7``) and the repeat of an
``Expression`` (``6#4d6kh3``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

Value = int | Fraction
SELECTOR_KINDS = ("", "h", "l", "<", ">")
"""Literal face, highest N, lowest N, faces below N, faces above N (d20's selectors)."""
SET_OPS = ("k", "p")
DICE_OPS = ("k", "p", "rr", "ro", "ra", "e", "mi", "ma")
IMMEDIATE = ("mi", "ma")
"""Operations never merged with the one before (d20 merges ``k1k2`` into one keep)."""
COMPARATORS = ("==", "!=", ">=", "<=", ">", "<")
ARITHMETIC = ("+", "-", "*", "/", "//", "%")


@dataclass(frozen=True, slots=True)
class Literal:
    """A number written in the expression; it rolls nothing."""

    value: Value


@dataclass(frozen=True, slots=True)
class Dice:
    count: int
    sides: int
    """For ``d%`` 100, for ``dF`` 3 (the faces are then -1, 0 and +1)."""
    kind: str = ""
    """"" for ``NdS``, "%" for ``d%`` (a d100, as rulebound has always read it), "F" for fudge."""

    @property
    def faces(self) -> tuple[int, ...]:
        return (-1, 0, 1) if self.kind == "F" else tuple(range(1, self.sides + 1))

    @property
    def label(self) -> str:
        return "dF" if self.kind == "F" else f"d{self.sides}"


@dataclass(frozen=True, slots=True)
class Selector:
    """Which dice an operation acts on: by face ("", "<", ">") or by rank ("h", "l")."""

    kind: str
    number: int

    def matches_face(self, value: Value) -> bool:
        """For a face selector ("", "<", ">"): whether a die showing ``value`` is selected."""
        if self.kind == "<":
            return value < self.number
        if self.kind == ">":
            return value > self.number
        return value == self.number

    @property
    def by_rank(self) -> bool:
        return self.kind in ("h", "l")


@dataclass(frozen=True, slots=True)
class SetOp:
    """One operation on a pool (keep, drop, reroll, explode, min, max) and its selectors."""

    op: str
    selectors: tuple[Selector, ...]

    @property
    def by_face(self) -> bool:
        """Every selector picks dice by their own face, not by their rank in the pool."""
        return not any(s.by_rank for s in self.selectors)

    def selects(self, value: Value) -> bool:
        return any(s.matches_face(value) for s in self.selectors)


@dataclass(frozen=True, slots=True)
class Pool:
    """Dice or a set with operations (``4d6kh3``, ``(1d4, 3)kh1``, ``(2d6)kh1``)."""

    base: Dice | NumberSet | Paren
    ops: tuple[SetOp, ...]


@dataclass(frozen=True, slots=True)
class Count:
    """Success counting: how many of the dice (after their operations) meet the target."""

    dice: Dice | Pool
    comparator: str
    target: int

    def meets(self, value: Value) -> bool:
        return compare(self.comparator, value, self.target)


@dataclass(frozen=True, slots=True)
class NumberSet:
    """A set in brackets, ``(1d4, 3)``: its items can be kept or dropped like dice."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Paren:
    """Brackets around one term: kept so a pool over ``(2d6)`` treats it as one item."""

    inner: Node


@dataclass(frozen=True, slots=True)
class Unary:
    """A leading sign; only "-" and "+" parse."""

    op: str
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary:
    """Arithmetic between two terms; ``op`` is one of ``ARITHMETIC``."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Annotated:
    inner: Node
    labels: tuple[str, ...]


Node = Literal | Dice | Pool | Count | NumberSet | Paren | Unary | Binary | Annotated


@dataclass(frozen=True, slots=True)
class Expression:
    """A whole expression: its tree, a trailing comment, and how many times it is rolled."""

    root: Node
    comment: str = ""
    repeat: int = 1

    def text(self) -> str:
        """The canonical text: what the log records and what parses back to this value."""
        head = f"{self.repeat}#" if self.repeat > 1 else ""
        tail = f" {self.comment}" if self.comment else ""
        return head + text_of(self.root) + tail

    def __str__(self) -> str:
        return self.text()


def compare(op: str, left: Value, right: Value) -> bool:
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    if op == ">=":
        return left >= right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    return left < right


def number_text(value: Value) -> str:
    """An int as digits, a Fraction from a decimal literal as that decimal ("1.5")."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    whole, rest = divmod(value.numerator, value.denominator)
    digits = ""
    while rest and len(digits) < 40:  # a literal's fraction is a finite decimal
        whole_digit, rest = divmod(rest * 10, value.denominator)
        digits += str(whole_digit)
    return f"{whole}.{digits}"


def op_text(op: SetOp) -> str:
    return "".join(f"{op.op}{s.kind}{s.number}" for s in op.selectors)


def text_of(node: Node) -> str:
    """A node as compact canonical text: no spaces but around comparisons (``1d20+5 >= 15``),
    which keeps a comparison of totals apart from success counting (``10d10>=7``)."""
    if isinstance(node, Literal):
        return number_text(node.value)
    if isinstance(node, Dice):
        return f"{node.count}d{node.kind or node.sides}"
    if isinstance(node, Pool):
        return text_of(node.base) + "".join(op_text(op) for op in node.ops)
    if isinstance(node, Count):
        return f"{text_of(node.dice)}{node.comparator}{node.target}"
    if isinstance(node, NumberSet):
        inside = ", ".join(text_of(item) for item in node.items)
        return f"({inside},)" if len(node.items) == 1 else f"({inside})"
    if isinstance(node, Paren):
        return f"({text_of(node.inner)})"
    if isinstance(node, Unary):
        return node.op + text_of(node.operand)
    if isinstance(node, Binary):
        gap = " " if node.op in COMPARATORS else ""
        return f"{text_of(node.left)}{gap}{node.op}{gap}{text_of(node.right)}"
    labels = " ".join(f"[{label}]" for label in node.labels)
    return f"{text_of(node.inner)} {labels}"


def children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Pool):
        return (node.base,)
    if isinstance(node, Count):
        return (node.dice,)
    if isinstance(node, NumberSet):
        return node.items
    if isinstance(node, Paren | Annotated):
        return (node.inner,)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    return ()


def walk(node: Node) -> list[Node]:
    """Every node, depth first, left to right (the order dice are rolled in)."""
    found = [node]
    for child in children(node):
        found += walk(child)
    return found


def unwrap(node: Node) -> Node:
    """The node an annotation or parentheses wrap (they change nothing of its value)."""
    while isinstance(node, Annotated | Paren):
        node = node.inner
    return node


@dataclass(frozen=True, slots=True)
class Flat:
    """What a set operation works on, after d20's parentheses: ``(2d6)kh1`` keeps the higher
    of two dice (a parenthesis passes its inner dice or set through), and the operations in
    the order they apply, inner ones first (``((10d6kh5)kl2)kh1`` is three keeps in turn)."""

    base: Node
    """``Dice``, a ``NumberSet`` (its items are the elements), or any other node: then the
    set holds that one element."""
    ops: tuple[SetOp, ...]

    @property
    def dice(self) -> Dice | None:
        return self.base if isinstance(self.base, Dice) else None

    @property
    def elements(self) -> tuple[Node, ...]:
        return self.base.items if isinstance(self.base, NumberSet) else (self.base,)


def flatten(node: Node) -> Flat:
    """The set a node offers to an operation, with every operation already on it."""
    while isinstance(node, Annotated):
        node = node.inner
    if isinstance(node, Pool):
        inner = flatten(node.base)
        return Flat(inner.base, inner.ops + node.ops)
    if isinstance(node, Paren):
        return flatten(node.inner)
    return Flat(node, ())


def dice_flats(node: Node) -> list[Flat]:
    """Every dice term with all the operations that reach its dice, each once, in rolling
    order."""
    if isinstance(node, Dice | Pool):
        flat = flatten(node)
        if flat.dice is not None:
            return [flat]
        return [f for element in flat.elements for f in dice_flats(element)]
    return [f for child in children(node) for f in dice_flats(child)]
