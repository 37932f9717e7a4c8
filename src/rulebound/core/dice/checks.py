"""The checks a parsed expression must pass before it may roll, each naming its cap.

All of them look at the tree, never at dice: how many dice and parts it has, whether an
``rr`` or an explosion could go on forever, whether a divisor can be 0, and how many dice a
roll could draw. Rerolls until none match are the one unbounded draw: their count is a sum
of geometric variables, and an expression is refused when the chance that it needs more
draws than the cap exceeds ``max_reroll_risk`` (the roller still stops at the cap).
"""

from __future__ import annotations

import math
from fractions import Fraction

from rulebound.core.dice import nodes
from rulebound.core.dice.limits import DiceLimits
from rulebound.core.errors import InvalidInput, LimitExceeded

Bounds = tuple[Fraction, Fraction]


def check(
    expression: nodes.Expression, field: str, text: str, limits: DiceLimits
) -> nodes.Expression:
    """``expression`` if it may roll; else ``InvalidInput`` (or ``LimitExceeded``) naming why."""
    shown = text if len(text) <= 80 else text[:79] + "…"
    parts = len(nodes.walk(expression.root))
    if parts > limits.max_nodes:
        raise LimitExceeded(
            field,
            f"{parts} parts",
            limits.max_nodes,
            "numbers, dice and operators (the cap on an expression's size)",
        )
    flats = nodes.dice_flats(expression.root)
    dice = sum(flat.dice.count for flat in flats if flat.dice is not None) * expression.repeat
    if dice > limits.max_dice:
        raise LimitExceeded(
            field, f"{dice} dice", limits.max_dice, "dice in one roll (the cap on dice)"
        )
    for flat in flats:
        _operations(flat, field, shown)
    bounds(expression.root, limits, field, shown)
    _draws(flats, expression.repeat, limits, field)
    return expression


def _operations(flat: nodes.Flat, field: str, shown: str) -> None:
    dice = flat.dice
    assert dice is not None
    explosions = [op for op in flat.ops if op.op == "e"]
    if len(explosions) > 1:
        raise InvalidInput(
            field,
            shown,
            "one explosion per dice term",
            tip="join the faces in one: 4d6e5e6 explodes on a 5 or a 6",
        )
    for op in flat.ops:
        if op.op not in ("rr", "e"):
            continue
        word = "rr (reroll until none match)" if op.op == "rr" else "e (explode)"
        if not op.by_face:
            raise InvalidInput(
                field,
                shown,
                f"{word} with a face selector: {op.op}1, {op.op}<3 or {op.op}>5",
                tip="highest and lowest (h, l) select a die every time, so it never stops",
            )
        if all(op.selects(face) for face in dice.faces):
            what = "rerolls" if op.op == "rr" else "explodes on"
            raise InvalidInput(
                field,
                shown,
                f"{word} that leaves some face alone: it {what} every face of {dice.label}",
                tip="a reroll once is ro; an explosion on the top face is e" + str(max(dice.faces)),
            )


def _draws(flats: list[nodes.Flat], repeat: int, limits: DiceLimits, field: str) -> None:
    """Refuse a roll that could draw more dice than ``max_draws``: surely (explosions at
    their cap, rerolls once), or with a chance above ``max_reroll_risk`` (``rr``)."""
    certain, rerolled, worst = 0, 0, Fraction(0)
    for flat in flats:
        dice = flat.dice
        assert dice is not None
        pool = dice.count
        certain += pool
        for op in flat.ops:
            if op.op == "ro":
                certain += pool
            elif op.op == "ra":
                certain, pool = certain + 1, pool + 1
            elif op.op == "e":
                certain, pool = (
                    certain + pool * limits.max_explosions,
                    pool * (1 + limits.max_explosions),
                )
            elif op.op == "rr":
                certain += pool  # a die forced onto a reroll face (mi, ma) rerolls once
                rerolled += pool
                matched = sum(1 for face in dice.faces if op.selects(face))
                worst = max(worst, Fraction(matched, len(dice.faces)))
    certain *= repeat
    rerolled *= repeat
    if certain > limits.max_draws:
        raise LimitExceeded(
            field,
            f"up to {certain} dice drawn",
            limits.max_draws,
            "dice drawn in one roll, rerolls and explosions included (the cap on draws)",
        )
    budget = limits.max_draws - certain
    if rerolled and worst and reroll_risk(rerolled, float(worst), budget) > limits.max_reroll_risk:
        raise LimitExceeded(
            field,
            f"{rerolled} dice rerolled with a chance of {float(worst):.0%} each time",
            limits.max_draws,
            "dice drawn in one roll (the cap on draws): rr this likely could need more",
        )


def reroll_risk(dice: int, chance: float, budget: int) -> float:
    """The chance that ``dice`` dice, each rerolled while a roll shows a face it matches
    (``chance`` of the faces), need more than ``budget`` rerolls in all: a negative binomial
    tail, P(fewer than ``dice`` stops in ``dice + budget`` rolls), summed in logarithms."""
    if chance >= 1:
        return 1.0
    trials = dice + budget
    stop = 1 - chance
    logs = [
        math.lgamma(trials + 1)
        - math.lgamma(j + 1)
        - math.lgamma(trials - j + 1)
        + j * math.log(stop)
        + (trials - j) * math.log(chance)
        for j in range(dice)
    ]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(x - top) for x in logs))


# --- the range of every value, to refuse a divisor that can be 0 ------------------------


def bounds(node: nodes.Node, limits: DiceLimits, field: str, shown: str) -> Bounds:
    """The least and greatest value ``node`` can take (sound, not always tight)."""
    if isinstance(node, nodes.Literal):
        value = Fraction(node.value)
        return value, value
    if isinstance(node, nodes.Annotated | nodes.Paren):
        return bounds(node.inner, limits, field, shown)
    if isinstance(node, nodes.Unary):
        low, high = bounds(node.operand, limits, field, shown)
        return (-high, -low) if node.op == "-" else (low, high)
    if isinstance(node, nodes.Count):
        return Fraction(0), Fraction(_most_dice(nodes.flatten(node.dice), limits))
    if isinstance(node, nodes.Dice | nodes.Pool | nodes.NumberSet):
        return _set_bounds(nodes.flatten(node), limits, field, shown)
    assert isinstance(node, nodes.Binary)
    left = bounds(node.left, limits, field, shown)
    right = bounds(node.right, limits, field, shown)
    if node.op in nodes.COMPARATORS:
        return Fraction(0), Fraction(1)
    if node.op == "+":
        return left[0] + right[0], left[1] + right[1]
    if node.op == "-":
        return left[0] - right[1], left[1] - right[0]
    if node.op == "*":
        return _span([a * b for a in left for b in right])
    if right[0] <= 0 <= right[1]:
        raise InvalidInput(
            field,
            shown,
            f"a divisor that is never 0 ({nodes.text_of(node.right)} can be 0)",
            tip="divide by dice that never show 0, such as 1d6",
        )
    if node.op == "%":
        return (Fraction(0), right[1]) if right[0] > 0 else (right[0], Fraction(0))
    low, high = _span([a / b for a in left for b in right])
    if node.op == "//":
        return Fraction(math.floor(low)), Fraction(math.floor(high))
    return low, high


def _span(values: list[Fraction]) -> Bounds:
    return min(values), max(values)


def _set_bounds(flat: nodes.Flat, limits: DiceLimits, field: str, shown: str) -> Bounds:
    dice = flat.dice
    if dice is not None:
        numbers = [Fraction(f) for f in dice.faces]
        numbers += [
            Fraction(s.number) for op in flat.ops if op.op in ("mi", "ma") for s in op.selectors
        ]
        low, high = min(numbers), max(numbers)
        fewest = _fewest_kept(flat.ops, dice.count)
        most = _most_dice(flat, limits)
        return _span([fewest * low, most * low, fewest * high, most * high])
    each = [bounds(element, limits, field, shown) for element in flat.elements]
    lows, highs = sorted(low for low, _ in each), sorted((high for _, high in each), reverse=True)
    kept = range(_fewest_kept(flat.ops, len(each)), len(each) + 1)
    return min(sum(lows[:k], Fraction(0)) for k in kept), max(
        sum(highs[:k], Fraction(0)) for k in kept
    )


def _fewest_kept(ops: tuple[nodes.SetOp, ...], count: int) -> int:
    """The fewest of ``count`` dice or items that keeps and drops can leave: those by rank
    (``kh3``) leave a number set by the pool's size, which explosions only grow; one by face
    (``k>3``) may leave none."""
    block = tuple(op for op in ops if op.op in nodes.SET_OPS)
    if any(not s.by_rank for op in block for s in op.selectors):
        return 0
    from rulebound.core.dice.pools import kept_ranks

    return len(kept_ranks(block, count))


def _most_dice(flat: nodes.Flat, limits: DiceLimits) -> int:
    """The most dice a dice term's pool can hold after its explosions and added dice."""
    if flat.dice is None:
        return len(flat.elements)
    pool = flat.dice.count
    for op in flat.ops:
        if op.op == "e":
            pool *= 1 + limits.max_explosions
        elif op.op == "ra":
            pool += 1
    return pool
