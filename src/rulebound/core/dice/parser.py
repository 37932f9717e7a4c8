"""Text to an ``Expression``: d20's grammar and meanings, plus rulebound's own forms.

A hand-written recursive descent (no parser generator at run time), so every refusal
names the position, what was expected, what was found, and a tip in our notation::

    expression := [N "#"] comparison ["adv" | "dis"] [comment]
    comparison := sum ((== != >= <= > <) sum)*           totals compared: 1 or 0
    sum        := product ((+ -) product)*
    product    := signed ((* / // %) signed)*
    signed     := (+ -) signed | atom
    atom       := (dice | set | number) ["[" label "]"]*
    dice       := [N] ("d" | "D") (S | "%" | "F") op* [count]     no spaces inside
    op         := (k p rr ro ra e mi ma) selector | "!" [selector]
    selector   := [h l < >] N
    count      := (>= <= > < == != =) N | "t" N | "cs" comparator N
    set        := "(" [comparison ("," comparison)* [","]] ")" ((k p) selector)*

Whitespace is free between terms and never inside dice, as in d20; this is what tells
success counting (``10d10>=7``, attached) from a comparison of totals (``3d6 >= 10``).
A comment is whatever follows a complete expression after a space, if it starts with a
letter (``1d20+5 Stealth``); something that looks like a forgotten operator is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import NoReturn

from rulebound.core.dice.advice import attached_tip
from rulebound.core.dice.checks import check
from rulebound.core.dice.limits import DEFAULT_LIMITS, DiceLimits
from rulebound.core.dice.nodes import (
    COMPARATORS,
    DICE_OPS,
    IMMEDIATE,
    Annotated,
    Binary,
    Count,
    Dice,
    Expression,
    Literal,
    Node,
    NumberSet,
    Paren,
    Pool,
    Selector,
    SetOp,
    Unary,
)
from rulebound.core.errors import InvalidInput, LimitExceeded

EXAMPLE = "a dice expression such as 2d6+3, 4d6kh3, 1d20+5 adv or 10d10>=7"
OPERAND = "a number, dice (2d6, d20, d%, 4dF) or a parenthesis"
COUNT_COMPARATORS = (*COMPARATORS, "=")
OPERATIONS = ("rr", "ro", "ra", "mi", "ma", "k", "p", "e", "!")
ADVANTAGE = re.compile(r"(advantage|adv|disadvantage|dis)(?=\s|$)", re.IGNORECASE)
LOOKS_LIKE_OP = re.compile(r"(?:kh|kl|ph|pl|rr|ro|ra|mi|ma|k|p|e)[<>]?\d+\b|!")
LOOKS_LIKE_DICE = re.compile(r"\d*[dD](?:\d+|%|[fF])\b")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
COMMENT_START = re.compile(r"[^\W\d]|\*|_|[\"'`@#~|]|<[@#:]|[^\x00-\x7f]")
BOLD = re.compile(r"\*")
"""A ``*`` with no operand after it starts a comment (``1d20 **bold**``), as d20 reads it."""


def parse(text: object, field: str = "dice", limits: DiceLimits = DEFAULT_LIMITS) -> Expression:
    """An expression, or ``InvalidInput`` for ``field`` saying where and what was expected."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(field, text if isinstance(text, str) else "", EXAMPLE)
    limits.text(field, text)
    text = "".join(" " if c.isspace() else c for c in text)  # one line: a tab is a space
    if CONTROL.search(text):
        raise InvalidInput(field, text[:80], "an expression without control characters")
    return _Parser(text.strip(), field, limits).expression()


class _Parser:
    def __init__(self, text: str, field: str, limits: DiceLimits) -> None:
        self.s = text
        self.i = 0
        self.field = field
        self.limits = limits
        self.depth = 0

    # errors

    def fail(self, expected: str, at: int | None = None, tip: str | None = None) -> NoReturn:
        at = self.i if at is None else at
        if at >= len(self.s):
            where = "at the end"
        else:
            shown = self.s[at : at + 12]
            where = f"at position {at + 1} ({shown!r})"
        shown_text = self.s if len(self.s) <= 80 else self.s[:79] + "…"
        raise InvalidInput(self.field, shown_text, f"{where}: {expected}", tip=tip)

    def cap(self, value: str, limit: int, unit: str) -> NoReturn:
        raise LimitExceeded(self.field, value, limit, unit)

    # small helpers

    def peek(self, n: int = 1) -> str:
        return self.s[self.i : self.i + n]

    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def number(self) -> int:
        start = self.i
        while self.i < len(self.s) and self.s[self.i].isdigit():
            self.i += 1
        if start == self.i:
            self.fail("a whole number")
        return self.limits.number(self.field, self.s[start : self.i], start + 1)

    def starts_operand(self, at: int) -> bool:
        while at < len(self.s) and self.s[at].isspace():
            at += 1
        return at < len(self.s) and (
            self.s[at].isdigit() or (self.s[at] in "(.+-dD" and not self.s.startswith("dis", at))
        )

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > self.limits.max_depth:
            self.cap(
                f"{self.depth} levels deep",
                self.limits.max_depth,
                "parentheses, sets and signs inside one another (the cap on nesting)",
            )

    # the grammar

    def expression(self) -> Expression:
        repeat = 1
        found = re.match(r"(\d+)\s*#\s*", self.s)
        if found:
            repeat = self.number()
            if repeat < 1:
                self.fail("a repeat of at least 1 (6#4d6kh3 rolls 4d6kh3 six times)", at=0)
            if repeat > self.limits.max_repeats:
                self.cap(
                    f"{repeat} repeats", self.limits.max_repeats, "repeats (the cap on repeats)"
                )
            self.i = found.end()
        root = self.comparison()
        self.skip_ws()
        advantage = ADVANTAGE.match(self.s, self.i)
        if advantage:
            root = self.advantage(root, advantage.group(1).lower().startswith("adv"))
            self.i = advantage.end()
            self.skip_ws()
            if ADVANTAGE.match(self.s, self.i):  # else the second word would read as a comment
                self.fail(
                    "no second adv or dis",
                    tip="advantage and disadvantage cancel out: roll without either",
                )
        comment = self.comment()
        return check(Expression(root, comment, repeat), self.field, self.s, self.limits)

    def comment(self) -> str:
        rest = self.s[self.i :]
        if not rest:
            return ""
        before = self.s[: self.i].rstrip()
        if self.i == len(before):
            self.fail("an operator (+ - * / // %) or a comparison between terms")
        if LOOKS_LIKE_OP.match(rest):
            op = LOOKS_LIKE_OP.match(rest)
            assert op is not None
            self.fail(
                "dice operations written right after the dice",
                tip=f"write {before}{op.group(0)}, without the space",
            )
        if LOOKS_LIKE_DICE.match(rest) or rest[0].isdigit() or rest[0] in ".(":
            term = re.match(r"\S+", rest)
            shown = term.group(0) if term else rest
            self.fail("+ or - between two terms", tip=f"write {before}+{shown}")
        if rest[0] == ")":
            self.fail("a '(' before this ')'")
        if not COMMENT_START.match(rest):
            self.fail("an operator, a comparison, or a comment that starts with a letter")
        return rest

    def comparison(self) -> Node:
        # "1d20 <@123>": a mention is a comment
        return self.chain(self.sum, COMPARATORS, COMMENT_START)

    def sum(self) -> Node:
        return self.chain(self.product, ("+", "-"))

    def product(self) -> Node:
        return self.chain(self.signed, ("//", "*", "/", "%"), BOLD)

    def chain(
        self,
        operand: Callable[[], Node],
        ops: tuple[str, ...],
        comment: re.Pattern[str] | None = None,
    ) -> Node:
        """``operand (op operand)*``, left to right; ``ops`` longest first. An operator with no
        operand after it is an error, unless ``comment`` matches there: then the chain ends
        before it, and the rest is a comment."""
        left = operand()
        while True:
            save = self.i
            self.skip_ws()
            op = next((o for o in ops if self.s.startswith(o, self.i)), None)
            if op is None:
                self.i = save
                return left
            if not self.starts_operand(self.i + len(op)):
                if comment is not None and comment.match(self.s, self.i):
                    self.i = save
                    return left
                self.i += len(op)
                self.skip_ws()
                self.fail(f"{OPERAND} after {op}")
            self.i += len(op)
            self.skip_ws()
            left = Binary(op, left, operand())

    def signed(self) -> Node:
        op = self.peek()
        if op in ("+", "-"):
            self.i += 1
            self.skip_ws()
            self.deeper()
            operand = self.signed()
            self.depth -= 1
            return Unary(op, operand)
        return self.atom()

    def atom(self) -> Node:
        char = self.peek()
        node: Node
        if char == "(":
            node = self.set_or_paren()
        elif char and (char.isdigit() or char in ".dD"):
            node = self.number_or_dice()
        else:
            self.fail(OPERAND)
        save = self.i
        self.skip_ws()
        labels: list[str] = []
        while self.peek() == "[":
            end = self.s.find("]", self.i)
            if end < 0:
                self.fail("a ']' to close the annotation")
            labels.append(self.s[self.i + 1 : end])
            self.i = end + 1
            save = self.i
            self.skip_ws()
        self.i = save
        return Annotated(node, tuple(labels)) if labels else node

    def number_or_dice(self) -> Node:
        start = self.i
        digits = re.match(r"\d*", self.s[self.i :])
        assert digits is not None
        after = self.i + len(digits.group(0))
        if after < len(self.s) and self.s[after] in "dD":
            return self.dice(start)
        if after < len(self.s) and self.s[after] == ".":
            fraction = re.match(r"\d*\.\d*", self.s[self.i :])
            assert fraction is not None
            whole, _, part = fraction.group(0).partition(".")
            if not whole and not part:
                self.fail(OPERAND)
            if len(whole) > self.limits.max_digits or len(part) > self.limits.max_digits:
                self.fail(f"a decimal of at most {self.limits.max_digits} digits each side")
            self.i += len(fraction.group(0))
            value = Fraction(
                int(whole or "0") * 10 ** len(part) + int(part or "0"), 10 ** len(part)
            )
            return Literal(value.numerator if value.denominator == 1 else value)
        return Literal(self.number())

    def dice(self, start: int) -> Node:
        count = 1
        if self.s[self.i].isdigit():
            count = self.number()
            if count > self.limits.max_dice:
                self.cap(
                    f"{count} dice", self.limits.max_dice, "dice in one roll (the cap on dice)"
                )
        self.i += 1  # the d
        char = self.peek()
        if char == "%":
            self.i += 1
            dice = Dice(count, 100, "%")
        elif char in ("F", "f"):
            self.i += 1
            dice = Dice(count, 3, "F")
        elif char.isdigit():
            at = self.i
            sides = self.number()
            if sides < 1:
                self.fail("a die of at least 1 side", at=at)
            if sides > self.limits.max_sides:
                self.cap(f"d{sides}", self.limits.max_sides, "sides (the cap on sides)")
            dice = Dice(count, sides)
        else:
            self.fail("the sides after d: d20, d%, dF", tip="dice are written 2d6, d20, d% or 4dF")
        ops = self.operations(dice, start)
        node: Dice | Pool = Pool(dice, ops) if ops else dice
        return self.count(node, start)

    def operations(self, dice: Dice, start: int) -> tuple[SetOp, ...]:
        ops: list[SetOp] = []
        while True:
            at = self.i
            op = next((o for o in OPERATIONS if self.s.startswith(o, self.i)), None)
            if op == "!" and self.s.startswith("!=", self.i):
                op = None  # 10d10!=1 counts the dice that do not show 1
            if op is None:
                nxt = self.peek()
                if (nxt.isalpha() and nxt not in "tTcC") or self.peek(2) in ("!!", "!p"):
                    written = self.s[start : self.i]
                    tip = attached_tip(written, self.s[self.i :])
                    self.fail("an operation of dice: k, p, rr, ro, ra, e, mi, ma", tip=tip)
                return tuple(ops)
            if op == "!" and self.s.startswith(("!!", "!p"), self.i):
                tip = attached_tip(self.s[start : self.i], self.s[self.i :])
                self.fail("an explosion written e or !", tip=tip)
            self.i += len(op)
            if op == "!":
                op = "e"
                selector = (
                    self.selector(op, start, at)
                    if self.peek() in ("<", ">") or self.peek().isdigit()
                    else Selector("", max(dice.faces))
                )
            else:
                selector = self.selector(op, start, at)
            if op in IMMEDIATE and selector.kind:
                self.fail(f"{op} takes a plain number", at=at, tip=f"write {op}2")
            if ops and ops[-1].op == op and op not in IMMEDIATE:
                ops[-1] = SetOp(op, (*ops[-1].selectors, selector))
            else:
                ops.append(SetOp(op, (selector,)))
            if len(ops) > self.limits.max_operations:
                self.cap(
                    f"{len(ops)} operations",
                    self.limits.max_operations,
                    "operations on one dice term (the cap on operations)",
                )

    def selector(self, op: str, start: int, op_at: int) -> Selector:
        kind = self.peek()
        if kind in ("h", "l", "<", ">"):
            self.i += 1
        else:
            kind = ""
        if not self.peek().isdigit():
            dice = self.s[start:op_at]
            tip = attached_tip(dice, self.s[op_at:]) or attached_tip(dice, op + kind)
            self.fail(
                f"a selector after {op}{kind}: h3 (highest 3), l1 (lowest 1), >4, <2 or a face",
                at=op_at,
                tip=tip,
            )
        return Selector(kind, self.number())

    def count(self, dice: Dice | Pool, start: int) -> Node:
        """An attached comparison counts the dice that meet it (``10d10>=7``), also written
        ``10d10t7`` (Dice Maiden) or ``10d10cs>=7`` (Foundry)."""
        at, plain = self.i, False
        if self.peek(2).lower() == "cs":
            self.i += 2
            op = next((c for c in COUNT_COMPARATORS if self.s.startswith(c, self.i)), None)
            if op is None:
                tip = attached_tip(self.s[start:at], self.s[at:])
                self.fail("a comparison after cs: cs>=7, cs<=2, cs=6", tip=tip)
            self.i += len(op)
        elif self.peek() in ("t", "T") and self.s[self.i + 1 : self.i + 2].isdigit():
            self.i += 1
            op = ">="
        else:
            op = next((c for c in COUNT_COMPARATORS if self.s.startswith(c, self.i)), None)
            if op is None or not self.s[self.i + len(op) : self.i + len(op) + 1].isdigit():
                if self.peek().isalpha():
                    tip = attached_tip(self.s[start:at], self.s[at:])
                    self.fail("an operation of dice: k, p, rr, ro, ra, e, mi, ma", tip=tip)
                return dice
            self.i += len(op)
            plain = True
        digits = re.match(r"\d*", self.s[self.i :])
        assert digits is not None
        after = self.s[self.i + len(digits.group(0)) : self.i + len(digits.group(0)) + 1]
        if plain and after and after in "dD.(":  # 2d6>3d6: totals compared, as d20 reads it
            self.i = at
            return dice
        target = self.number()
        return Count(dice, "==" if op == "=" else op, target)

    def set_or_paren(self) -> Node:
        start = self.i
        self.i += 1
        self.deeper()
        self.skip_ws()
        items: list[Node] = []
        comma = False
        while self.peek() != ")":
            if not self.peek():
                self.fail(f"a ')' to close the parenthesis opened at position {start + 1}")
            items.append(self.comparison())
            self.skip_ws()
            if self.peek() == ",":
                comma = True
                self.i += 1
                self.skip_ws()
            elif self.peek() != ")":
                self.fail("',' or ')'")
            if len(items) > self.limits.max_set_items:
                self.cap(
                    f"{len(items)} items",
                    self.limits.max_set_items,
                    "items in a set (the cap on sets)",
                )
        self.i += 1
        self.depth -= 1
        base: NumberSet | Paren = (
            Paren(items[0]) if len(items) == 1 and not comma else NumberSet(tuple(items))
        )
        ops: list[SetOp] = []
        while self.peek() in ("k", "p") or self.peek(2) in ("rr", "ro", "ra", "mi", "ma"):
            at = self.i
            op = self.peek(2) if self.peek(2) in DICE_OPS else self.peek()
            if op not in ("k", "p"):
                inner = self.s[start + 1 : at - 1]
                self.fail(f"{op} works on dice only", tip=f"write {inner}{op}1")
            self.i += 1
            selector = self.selector(op, start, at)
            if ops and ops[-1].op == op:
                ops[-1] = SetOp(op, (*ops[-1].selectors, selector))
            else:
                ops.append(SetOp(op, (selector,)))
        if self.peek() == "e" or self.peek() == "!":
            inner = self.s[start + 1 : self.i - 1]
            self.fail("explosions work on dice only", tip=f"write {inner}e6")
        return Pool(base, tuple(ops)) if ops else base

    # advantage

    def advantage(self, root: Node, high: bool) -> Node:
        changed = _with_advantage(root, high)
        if changed is None:
            word = "adv" if high else "dis"
            self.fail(
                f"{word} needs a 1d20 as the leftmost dice",
                tip=f"{word} turns the leftmost 1d20 into 2d20k{'h' if high else 'l'}1:"
                f" 1d20+5 {word}",
            )
        return changed


def _with_advantage(node: Node, high: bool) -> Node | None:
    """``node`` with its leftmost 1d20 rolled twice, keeping the higher (or lower) one, as
    d20 does for advantage; None when its leftmost atom is no 1d20."""
    keep = SetOp("k", (Selector("h" if high else "l", 1),))
    if isinstance(node, Dice):
        if node.count == 1 and node.sides == 20 and not node.kind:
            return Pool(Dice(2, 20), (keep,))
        return None
    if isinstance(node, Pool):
        if not isinstance(node.base, Dice):
            return None
        base = _with_advantage(node.base, high)
        if base is None:
            return None
        first = node.ops[0] if node.ops else None
        if first is not None and first.op == "k":
            ops = (SetOp("k", (*keep.selectors, *first.selectors)), *node.ops[1:])
        else:
            ops = (keep, *node.ops)
        return Pool(Dice(2, 20), ops)
    if isinstance(node, Count):
        inner = _with_advantage(node.dice, high)
        return None if inner is None else Count(inner, node.comparator, node.target)  # type: ignore[arg-type]
    if isinstance(node, Binary):
        left = _with_advantage(node.left, high)
        return None if left is None else Binary(node.op, left, node.right)
    if isinstance(node, Unary):
        operand = _with_advantage(node.operand, high)
        return None if operand is None else Unary(node.op, operand)
    if isinstance(node, Annotated):
        inner = _with_advantage(node.inner, high)
        return None if inner is None else Annotated(inner, node.labels)
    if isinstance(node, Paren):
        inner = _with_advantage(node.inner, high)
        return None if inner is None else Paren(inner)
    if isinstance(node, NumberSet) and node.items:
        first_item = _with_advantage(node.items[0], high)
        return None if first_item is None else NumberSet((first_item, *node.items[1:]))
    return None
