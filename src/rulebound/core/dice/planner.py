"""A plan for the exact odds of a whole tree, its cost summed before anything heavy runs.

Each node becomes a ``Plan``: an upper bound on its outcomes and on its weights' size, the
estimated work of its own step, and a thunk that computes it. Only when the whole tree's
work fits ``max_odds_work`` (and its fractions ``max_odds_digits``) are the thunks run.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

from rulebound.core.dice import counts, nodes
from rulebound.core.dice.checks import bounds
from rulebound.core.dice.counts import Weights
from rulebound.core.dice.limits import DiceLimits
from rulebound.core.dice.pools import Plan, plan_dice
from rulebound.core.dice.roller import ValueMember, arithmetic, keep_or_drop


def _grain(op: str, left: Plan, right: Plan, divisor: nodes.Node) -> int:
    """What ``Plan.grain`` is for ``left op right`` (not a whole-number operation)."""
    a, b = left.grid, right.grid
    while isinstance(divisor, nodes.Annotated | nodes.Paren):
        divisor = divisor.inner
    if not (a and b):
        return 0
    if op in ("+", "-"):
        return math.lcm(a, b)
    if op == "*":
        return a * b
    if op != "/" or b != 1 or not isinstance(divisor, nodes.Literal):
        return 0
    value = divisor.value
    return a * abs(value) if isinstance(value, int) and value else 0


def _sum(
    op: str, left: Plan, right: Plan, grain: int, support: int, bits: int, notes: tuple[str, ...]
) -> Plan:
    """A sum or difference: a convolution of whole numbers, or of outcomes taken onto a grid
    of whole numbers and back (``1/grain`` divides them all), else pair by pair."""
    sign = 1 if op == "+" else -1
    pairs = left.support * right.support
    integral = left.integral and right.integral

    def run_sum() -> Weights:
        b = right.run()
        return counts.added(left.run(), b if sign > 0 else counts.negated(b))

    if integral:
        cost = counts.convolve_cost(left.support, right.support, bits)
        return Plan(cost, run_sum, support, bits, notes)
    if not grain:
        cost = counts.pairs_cost(pairs, False, bits)
        return Plan(cost, run_sum, support, bits, notes, False)

    def run_on_grid() -> Weights:
        a, b = counts.on_grid(left.run(), grain), counts.on_grid(right.run(), grain)
        return counts.off_grid(counts.added(a, b if sign > 0 else counts.negated(b)), grain)

    moved = (left.support + right.support + support) * counts.pairs_cost(1, False, bits)
    cost = moved + counts.pairs_cost(pairs, True, bits)
    return Plan(cost, run_on_grid, support, bits, notes, False, grain)


class OverBudget(Exception):
    """The odds would cost more than the caps allow; the message says which and why."""


class Planner:
    def __init__(self, limits: DiceLimits) -> None:
        self.limits = limits
        self.spent = 0

    def charge(self, plan: Plan) -> Plan:
        self.spent += plan.cost
        if self.spent > self.limits.max_odds_work:
            raise OverBudget(
                f"working them out exactly would take about {self.spent:,} steps, over the"
                f" cap of {self.limits.max_odds_work:,} (max_odds_work)"
            )
        if plan.bits > self.limits.max_odds_digits * 3.33:
            raise OverBudget(
                f"their fractions would run to about {int(plan.bits / 3.33):,} digits, over"
                f" the cap of {self.limits.max_odds_digits:,} (max_odds_digits)"
            )
        return plan

    def finish(self, plan: Plan) -> Plan:
        """The whole tree's plan, charged for what reading it costs: truncating fractional
        totals, and the passes over the totals that the mean and the tail take."""
        per = counts.words(plan.bits) + (0 if plan.integral else 6 * counts.PAIR)
        cost = plan.support * per
        return self.charge(Plan(cost, plan.run, plan.support, plan.bits, plan.notes, plan.integral))

    def plan(self, node: nodes.Node) -> Plan:
        if isinstance(node, nodes.Literal):
            value = node.value
            grain = Fraction(value).denominator
            return Plan(0, lambda: counts.point(value), 1, 1, (), grain == 1, grain)
        if isinstance(node, nodes.Annotated | nodes.Paren):
            return self.plan(node.inner)
        if isinstance(node, nodes.Unary):
            inner = self.plan(node.operand)
            if node.op == "+":
                return inner
            return self.charge(
                Plan(
                    inner.support,
                    lambda: counts.negated(inner.run()),
                    inner.support,
                    inner.bits,
                    inner.notes,
                    inner.integral,
                    inner.grain,
                )
            )
        if isinstance(node, nodes.Count):
            flat = nodes.flatten(node.dice)
            assert flat.dice is not None
            plan = self.dice(flat.dice, flat.ops, lambda v: int(node.meets(v)))
            return Plan(
                plan.cost, plan.run, plan.support, plan.bits, plan.notes + _never(node, flat)
            )
        if isinstance(node, nodes.Dice | nodes.Pool | nodes.NumberSet):
            flat = nodes.flatten(node)
            if flat.dice is not None:
                return self.dice(flat.dice, flat.ops, _identity)
            return self.elements(flat)
        assert isinstance(node, nodes.Binary)
        return self.binary(node)

    def dice(
        self, dice: nodes.Dice, ops: tuple[nodes.SetOp, ...], final: Callable[[nodes.Value], int]
    ) -> Plan:
        from rulebound.core.dice.pools import TooCostly

        left = self.limits.max_odds_work - self.spent
        try:
            plan = plan_dice(dice, ops, final, self.limits.max_explosions, left)
        except TooCostly as exc:
            raise OverBudget(f"{exc}, over the cap of {left:,} steps (max_odds_work)") from None
        return self.charge(plan)

    def binary(self, node: nodes.Binary) -> Plan:
        left, right = self.plan(node.left), self.plan(node.right)
        bits = left.bits + right.bits
        integral = left.integral and right.integral
        pairs = left.support * right.support
        notes = left.notes + right.notes
        op = node.op
        whole = op in nodes.COMPARATORS or op == "//" or (integral and op in ("*", "%"))
        grain = 1 if whole else _grain(op, left, right, node.right)
        low, high = bounds(node, self.limits, "dice", "")
        span = int((high - low) * grain) + 1 if grain else pairs
        support = 2 if op in nodes.COMPARATORS else min(pairs, span)
        if op in ("+", "-"):
            return self.charge(_sum(op, left, right, grain, support, bits, notes))

        def run_other() -> Weights:
            return counts.combined(left.run(), right.run(), lambda a, b: arithmetic(op, a, b))

        cost = counts.pairs_cost(pairs, whole, bits)
        return self.charge(Plan(cost, run_other, support, bits, notes, whole, grain))

    # sets of items: (1d4+1, 3, 2d6kl1)kh1

    def elements(self, flat: nodes.Flat) -> Plan:
        items = [self.plan(item) for item in flat.elements]
        if not items:  # "()": an empty set adds up to 0
            return Plan(0, lambda: counts.point(0), 1, 1)
        bits = sum(item.bits for item in items)
        integral = all(item.integral for item in items)
        notes = tuple(note for item in items for note in item.notes)
        by_face = all(op.by_face for op in flat.ops)
        if by_face:
            survives = _survivor(flat.ops)
            supports = [item.support + 1 for item in items]
            cost = sum(supports) * counts.PAIR + sum(
                counts.convolve_cost(a, b, bits) for a, b in itertools.pairwise(supports)
            )

            def run_each() -> Weights:
                total = counts.point(0)
                for item in items:
                    total = counts.added(total, counts.mapped(item.run(), survives))
                return total

            return self.charge(Plan(cost, run_each, math.prod(supports), bits, notes, integral))
        extreme = _extreme(flat.ops)
        if extreme is not None:
            cost = sum(item.support for item in items) * len(items) * counts.words(bits) * 4

            def run_extreme() -> Weights:
                return extreme_of([item.run() for item in items], extreme)

            support = sum(item.support for item in items)
            return self.charge(Plan(cost, run_extreme, support, bits, notes, integral))
        cost, states = 0, 1
        for item in items:
            states *= item.support
            cost += states * counts.PAIR
        cost += states * len(flat.ops) * counts.PAIR
        ops = flat.ops

        def run_all() -> Weights:
            return enumerate_items([item.run() for item in items], ops)

        support = math.prod(item.support for item in items)
        return self.charge(Plan(cost, run_all, support, bits, notes, integral))


def _never(node: nodes.Count, flat: nodes.Flat) -> tuple[str, ...]:
    """A note for a count no die can ever meet: ``3d6>=10`` counts dice, and likely was
    meant as the total compared (with spaces: ``3d6 >= 10``)."""
    assert flat.dice is not None
    values = set(flat.dice.faces)
    values |= {s.number for op in flat.ops if op.op in ("mi", "ma") for s in op.selectors}
    if any(node.meets(v) for v in values):
        return ()
    written = f"{nodes.text_of(node.dice)} {node.comparator} {node.target}"
    return (
        f"no {flat.dice.label} can show {node.comparator}{node.target}: an attached comparison"
        f" counts dice; to compare the total, write {written}",
    )


def _identity(value: nodes.Value) -> int:
    return int(value)


def _survivor(ops: tuple[nodes.SetOp, ...]) -> Callable[[nodes.Value], nodes.Value]:
    """An item's value after keeps and drops by face: itself, or 0 once dropped."""

    def survive(value: nodes.Value) -> nodes.Value:
        for op in ops:
            if op.selects(value) != (op.op == "k"):
                return 0
        return value

    return survive


def _extreme(ops: tuple[nodes.SetOp, ...]) -> str | None:
    """ "h" for a lone kh1 (the greatest item counts), "l" for a lone kl1, else None."""
    if len(ops) == 1 and ops[0].op == "k" and len(ops[0].selectors) == 1:
        selector = ops[0].selectors[0]
        if selector.kind in ("h", "l") and selector.number == 1:
            return selector.kind
    return None


def extreme_of(items: list[Weights], kind: str) -> Weights:
    """The greatest (or least) of independent items, from the product of their chances of
    being at most (at least) each value: no combination of items is enumerated."""
    values = sorted({v for item in items for v, _ in item.items()}, reverse=kind == "l")
    total = math.prod(item.total for item in items)
    found: dict[nodes.Value, int] = {}
    previous = 0
    running = [0] * len(items)
    tables = [item.as_dict() for item in items]
    for value in values:
        for i, table in enumerate(tables):
            running[i] += table.get(value, 0)
        reached = math.prod(running)
        if reached != previous:
            found[value] = reached - previous
        previous = reached
    return counts.of_dict(found, total)


def enumerate_items(items: list[Weights], ops: tuple[nodes.SetOp, ...]) -> Weights:
    """Every combination of the items' values (as a multiset), kept and dropped as d20
    does, summed."""
    from rulebound.core.dice.multisets import Multiset, spread

    states: dict[Multiset, int] = {(): 1}
    for item in items:
        states = spread(states, [(w, (value,)) for value, w in item.items()])
    found: dict[nodes.Value, int] = {}
    for state, weight in states.items():
        members = [ValueMember(v) for v in state]
        for op in ops:
            keep_or_drop(op, members)
        summed = sum((m.value for m in members if m.kept), start=Fraction(0))
        plain: nodes.Value = summed.numerator if summed.denominator == 1 else summed
        found[plain] = found.get(plain, 0) + weight
    return counts.of_dict(found, math.prod(item.total for item in items))
