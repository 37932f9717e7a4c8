"""Exact odds of one dice term (``4d6kh3``, ``8d6e6``, ``10d10>=7``), by the cheapest of
four plans, each with its cost worked out before anything is computed:

- independent: every operation acts on each die alone (face selectors, mi, ma, rr, ro, e),
  so a die's contribution is one small distribution and the term is its n-fold sum.
  Explosions follow each chain of dice to ``max_explosions``, exactly;
- ranked: per-die operations, then keeps and drops by rank (``kh3``, ``kl2`` of ``kh5``...),
  then per-die operations again. The pool is swept from its highest face down, as icepool
  does for keep-highest, tracking only how many dice are above and what the kept ones add
  up to: no roll of the pool is ever enumerated;
- exploded: one explosion, then the k highest or lowest dice kept (``exploded``);
- enumerated: anything else (``ra``, ``ro`` by rank...), on the multisets of faces the pool
  can show, for pools small enough (``multisets``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from rulebound.core.dice import counts
from rulebound.core.dice.counts import Weights
from rulebound.core.dice.nodes import Dice, SetOp, Value

Final = Callable[[Value], int]
"""What a kept die adds to the term: its value, or 1 when it counts as a success."""
DROPPED = None


@dataclass(frozen=True, slots=True)
class Plan:
    """Work to do, estimated: its cost (in ``counts``' units), and the work itself."""

    cost: int
    run: Callable[[], Weights]
    support: int
    """An upper bound on the distinct outcomes."""
    bits: int
    """An upper bound on the bit length of the weights' total."""
    notes: tuple[str, ...] = ()
    integral: bool = True
    """Every outcome is a whole number."""
    grain: int = 0
    """For outcomes not all whole: each is a whole multiple of ``1/grain`` (0: not known)."""

    @property
    def grid(self) -> int:
        """``1/grid`` divides every outcome (0: nothing known): sums on it can convolve."""
        return 1 if self.integral else self.grain


class TooCostly(Exception):
    """A plan whose own preparation would already exceed the budget."""


# --- the plan for a dice term -------------------------------------------------------------


def plan_dice(
    dice: Dice, ops: tuple[SetOp, ...], final: Final, explosions: int, budget: int
) -> Plan:
    """The cheapest plan for ``dice`` with ``ops``, its cost and outcome count estimated."""
    if dice.count == 0:
        return Plan(0, lambda: counts.point(0), 1, 1)
    ranked = [i for i, op in enumerate(ops) if op.op in ("k", "p") and not op.by_face]
    pooled = [i for i, op in enumerate(ops) if op.op == "ra" or (op.op == "ro" and not op.by_face)]
    if not ranked and not pooled:
        return _independent(dice, ops, final, explosions, budget)
    first, last = (ranked[0], ranked[-1]) if ranked else (0, -1)
    block = ops[first : last + 1]
    plain_block = all(op.op in ("k", "p") and all(s.by_rank for s in op.selectors) for op in block)
    before_ok = all(op.op != "e" for op in ops[:first])
    if ranked and not pooled and plain_block and before_ok:
        return _ranked(dice, ops[:first], block, ops[last + 1 :], final, explosions, budget)
    blown = [i for i, op in enumerate(ops[:first]) if op.op == "e"]
    if ranked and not pooled and plain_block and blown == [first - 1] and explosions:
        from rulebound.core.dice import exploded

        before, after = ops[: first - 1], ops[last + 1 :]
        if all(op.op != "e" for op in after):
            found = exploded.plan(
                dice, before, ops[first - 1], block, after, final, explosions, budget
            )
            if found is not None:
                notes = explosion_note(dice, ops, explosions)
                return Plan(found.cost, found.run, found.support, found.bits, notes)
    from rulebound.core.dice.multisets import enumerated

    return enumerated(dice, ops, final, explosions)


def _independent(
    dice: Dice, ops: tuple[SetOp, ...], final: Final, explosions: int, budget: int
) -> Plan:
    per_die = PerDie(dice, ops, final, explosions, budget)
    one = per_die.die()
    n = dice.count
    if one.dense is None:
        cost = counts.pairs_cost((n * one.support()) ** 2, True, one.total.bit_length() * n)
    elif all(w == one.dense[0] for w in one.dense):
        cost = counts.uniform_cost(len(one.dense), n, one.total.bit_length() * n)
    else:
        cost = min(
            counts.miller_cost(one.dense, n),
            counts.squaring_cost(len(one.dense), n, one.total.bit_length()),
        )
    support = (one.support() - 1) * n + 1 if one.dense is not None else one.support() ** n
    bits = one.total.bit_length() * n
    notes = explosion_note(dice, ops, explosions)
    cost += per_die.steps()
    return Plan(cost, lambda: counts.power(one, n), support, bits, notes)


def explosion_note(dice: Dice, ops: tuple[SetOp, ...], explosions: int) -> tuple[str, ...]:
    """Where an explosion's tail is cut: the chance that one die's chain reaches the cap
    (the roll stops there too, so the odds are exact for the roll as made)."""
    for op in ops:
        if op.op == "e":
            hits = sum(1 for face in dice.faces if op.selects(face))
            chance = (hits / len(dice.faces)) ** (explosions + 1)
            return (
                f"{dice.label} explosions stop after {explosions} extra dice per die"
                f" (a chance of {chance:.2g} per die)",
            )
    return ()


class PerDie:
    """The contribution of one die (and of the dice its explosions add) as exact counts.

    ``contribution(j, v)`` is what a die showing ``v`` before operation ``j`` adds to the
    total by the end, with ``weight_total(j)`` as its common total, so mixing faces keeps
    integer weights: a reroll spreads over fresh faces, an explosion adds a chain."""

    def __init__(
        self, dice: Dice, ops: tuple[SetOp, ...], final: Final, explosions: int, budget: int
    ) -> None:
        self.dice = dice
        self.faces = dice.faces
        self.ops = ops
        self.final = final
        self.explosions = explosions
        self.memo: dict[tuple[int, Value | None], Weights] = {}
        self.fresh: dict[int, Weights] = {}
        self.chains: dict[tuple[int, int], Weights] = {}
        self.totals = self._totals()
        steps = self.steps()
        if steps > budget:
            raise TooCostly(f"one die's contribution alone takes about {steps:,} steps")

    def steps(self) -> int:
        """The work of ``die()``, estimated from the operations alone: a reroll mixes every
        fresh face's contribution, an explosion's chain adds one span per extra die."""
        s = len(self.faces)
        numbers = [abs(f) for f in self.faces]
        numbers += [s.number for op in self.ops if op.op in ("mi", "ma") for s in op.selectors]
        reach = max(numbers) * 2 + 1
        span, steps, mixing = 1, s, s
        for op in reversed(self.ops):
            if op.op in ("ro", "rr"):
                steps += s * span
                span = max(span, reach)
                mixing = s * span
            elif op.op == "e" and self.explosions:
                hits = sum(1 for face in self.faces if op.selects(face))
                chain = self.explosions * reach * span
                steps += self.explosions * (s * span + hits * span * chain)
                mixing = s * span + hits * (span + chain)
                span += chain
            steps += s
        return steps + mixing

    def weight_total(self, j: int) -> int:
        return self.totals[j]

    def _totals(self) -> list[int]:
        """The common total of the contributions before each operation (and after all)."""
        totals = [1]
        s = len(self.faces)
        for op in reversed(self.ops):
            below = totals[0]
            if op.op == "ro":
                found = s * below
            elif op.op == "rr":
                found = (s - sum(1 for face in self.faces if op.selects(face))) * below
            elif op.op == "e" and self.explosions:
                found = s**self.explosions * below ** (self.explosions + 1)
            else:
                found = below
            totals.insert(0, found)
        return totals

    def die(self) -> Weights:
        """A fresh die's contribution: every face equally likely."""
        return counts.mixture([(1, self.contribution(0, face)) for face in self.faces])

    def contribution(self, j: int, value: Value | None) -> Weights:
        key = (j, value)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._contribution(j, value)
        return found

    def _contribution(self, j: int, value: Value | None) -> Weights:
        if value is DROPPED:
            return counts.scaled(counts.point(0), self.weight_total(j))
        if j == len(self.ops):
            return counts.point(self.final(value))
        op, below = self.ops[j], self.weight_total(j + 1)
        if op.op in ("k", "p"):
            kept = op.selects(value) == (op.op == "k")
            return self.contribution(j + 1, value if kept else DROPPED)
        if op.op == "mi":
            return self.contribution(j + 1, max(value, op.selectors[-1].number))
        if op.op == "ma":
            return self.contribution(j + 1, min(value, op.selectors[-1].number))
        if op.op in ("ro", "rr"):
            if op.selects(value):
                return self._fresh(j, only_unmatched=op.op == "rr")
            return counts.scaled(self.contribution(j + 1, value), self.weight_total(j) // below)
        assert op.op == "e"
        if not self.explosions:
            return self.contribution(j + 1, value)
        chain = self._chain(j, self.explosions - 1)
        if op.selects(value):
            return counts.added(self.contribution(j + 1, value), chain)
        return counts.scaled(self.contribution(j + 1, value), chain.total)

    def _fresh(self, j: int, only_unmatched: bool) -> Weights:
        """A reroll at operation ``j``: a fresh face (for rr, one it does not reroll)."""
        found = self.fresh.get(j)
        if found is None:
            op = self.ops[j]
            faces = [f for f in self.faces if not (only_unmatched and op.selects(f))]
            mixed = counts.mixture([(1, self.contribution(j + 1, f)) for f in faces])
            found = self.fresh[j] = counts.scaled(mixed, self.weight_total(j) // mixed.total)
        return found

    def _chain(self, j: int, left: int) -> Weights:
        """What a die added by an explosion at operation ``j`` brings, with ``left`` more
        explosions allowed after it: its own contribution and, if it explodes, the next."""
        key = (j, left)
        found = self.chains.get(key)
        if found is not None:
            return found
        op = self.ops[j]
        below = self.weight_total(j + 1)
        longer = self._chain(j, left - 1).total if left > 0 else 1
        parts = []
        for face in self.faces:
            own = self.contribution(j + 1, face)
            if op.selects(face) and left > 0:
                parts.append((1, counts.added(own, self._chain(j, left - 1))))
            else:  # no further die: brought to the same total, (s * below) ** left
                parts.append((1, counts.scaled(own, longer)))
        found = self.chains[key] = counts.mixture(parts)
        assert found.total == (len(self.faces) * below) ** (left + 1)
        return found


# --- keeps and drops by rank ------------------------------------------------------------


def _ranked(
    dice: Dice,
    before: tuple[SetOp, ...],
    block: tuple[SetOp, ...],
    after: tuple[SetOp, ...],
    final: Final,
    explosions: int,
    budget: int,
) -> Plan:
    states, dropped, total = face_states(dice, before)
    kept = sorted(states.items(), key=lambda item: item[0], reverse=True)
    suffix = PerDie(dice, after, final, explosions, budget)
    adds = {value: suffix.contribution(0, value) for value, _ in kept}
    scale = suffix.weight_total(0)
    n = dice.count
    # how many dice reach the ranking: any number once faces drop, none if every face does
    sizes = range(n + 1 if kept else 1) if dropped else range(n, n + 1)
    spread = max((a.support() for a in adds.values()), default=1)
    values = [v for v, _ in kept]
    reach = (int(max(values)) - int(min(values)) + 1) * spread if values else 1
    unit = counts.words((total * scale).bit_length() * n)
    cost, most = suffix.steps(), 0
    for m in sizes:
        ranks = kept_ranks(block, m)
        most = max(most, len(ranks))
        if ranks:
            cap = min(max(ranks), m - min(ranks) + 1)
            per_value = sum(
                (cap - i) * (counts.PAIR + (i * reach + 1) * spread * (2 * unit + 4))
                for i in range(cap)
            )
            cost += len(kept) * (per_value + cap * m * unit)
    notes = explosion_note(dice, after, explosions)
    bits = (total * scale).bit_length() * n

    def run() -> Weights:
        parts = []
        for m in sizes:
            ways = math.comb(n, m) * dropped ** (n - m) * scale ** (n - m)
            if ways:
                summed = rank_sum(m, kept, kept_ranks(block, m), adds, scale)
                parts.append((ways, summed))
        return counts.accumulate(parts, (total * scale) ** n)

    # each kept die adds one of ``reach`` values; a size keeping none adds up to 0
    return Plan(cost, run, most * (reach - 1) + 2, bits, notes)


def face_states(dice: Dice, ops: Iterable[SetOp]) -> tuple[dict[Value, int], int, int]:
    """One die through per-die operations with no explosion: the weight of each value it may
    end on, the weight of its being dropped, and their total."""
    states: dict[Value, int] = dict.fromkeys(dice.faces, 1)
    dropped, total = 0, len(dice.faces)
    faces = dice.faces
    for op in ops:
        if op.op in ("k", "p"):
            moved = {v: w for v, w in states.items() if op.selects(v) != (op.op == "k")}
            dropped += sum(moved.values())
            states = {v: w for v, w in states.items() if v not in moved}
        elif op.op in ("mi", "ma"):
            bound = op.selectors[-1].number
            changed: dict[Value, int] = {}
            for v, w in states.items():
                key = max(v, bound) if op.op == "mi" else min(v, bound)
                changed[key] = changed.get(key, 0) + w
            states = changed
        else:  # ro, rr with face selectors
            fresh = [f for f in faces if not (op.op == "rr" and op.selects(f))]
            spread = len(fresh)
            rerolled = sum(w for v, w in states.items() if op.selects(v))
            changed = {v: w * spread for v, w in states.items() if not op.selects(v)}
            for face in fresh:
                changed[face] = changed.get(face, 0) + rerolled
            states, dropped, total = changed, dropped * spread, total * spread
    return {v: w for v, w in states.items() if w}, dropped, total


def kept_ranks(block: tuple[SetOp, ...], m: int) -> frozenset[int]:
    """Which ranks (1 = highest) of a pool of ``m`` dice the keeps and drops leave kept."""
    kept = list(range(1, m + 1))
    for op in block:
        picked: set[int] = set()
        for selector in op.selectors:
            if selector.kind == "h":
                picked.update(kept[: selector.number])
            elif selector.number:
                picked.update(kept[-selector.number :])
        kept = [r for r in kept if (r in picked) == (op.op == "k")]
    return frozenset(kept)


def rank_sum(
    m: int,
    faces: list[tuple[Value, int]],
    ranks: frozenset[int],
    adds: dict[Value, Weights],
    scale: int,
) -> Weights:
    """What ``m`` independent dice add up to when only the dice at ``ranks`` count.

    ``faces`` are the values a die may show with their weights, highest first; a die that
    counts adds ``adds[value]`` (of total ``scale``), one that does not adds nothing. The
    sweep goes through the values from the end nearer the counted ranks; its state is how
    many dice are above (only up to the farthest counted rank) and the counted dice's sum.
    Each step chooses how many of the remaining dice show the value: C(left, c) w^c ways.
    Once the farthest counted rank is passed, the rest are summed up at once."""
    weight_sum = sum(w for _, w in faces)
    result_total = weight_sum**m * scale**m
    if not ranks or m == 0:
        return Weights(0, [result_total], None, result_total)
    if max(ranks) > m - min(ranks) + 1:
        faces = faces[::-1]
        ranks = frozenset(m + 1 - r for r in ranks)
    cap = max(ranks)
    states: dict[int, _Sums] = {0: _Sums(0, [1])}
    finished = _Sums(0, [])
    below = weight_sum
    powers: dict[tuple[Value, int], Weights] = {}

    def counted(value: Value, k: int) -> Weights:
        key = (value, k)
        if key not in powers:
            powers[key] = counts.power(adds[value], k)
        return powers[key]

    for index, (value, weight) in enumerate(faces):
        below -= weight
        last = index == len(faces) - 1
        moved: dict[int, _Sums] = {}
        for above, partial in states.items():
            left = m - above
            if not last:
                for c in range(min(cap - above - 1, left) + 1):
                    k = sum(1 for r in range(above + 1, above + c + 1) if r in ranks)
                    factor = math.comb(left, c) * weight**c * scale ** (c - k)
                    target = moved.setdefault(above + c, _Sums(0, []))
                    target.add(partial, counted(value, k), factor)
            reach = range(left if last else max(cap - above, 0), left + 1)
            ways = sum(math.comb(left, c) * weight**c * below ** (left - c) for c in reach)
            if ways:
                end = m if last else min(cap, m)
                k = sum(1 for r in range(above + 1, end + 1) if r in ranks)
                finished.add(partial, counted(value, k), ways * scale ** (left - k))
        states = moved
        if not states:
            break
    return counts.of_dict(dict(finished.items()), result_total)


class _Sums:
    """Weights by sum, dense from ``low``, grown as sums arrive."""

    __slots__ = ("low", "values")

    def __init__(self, low: int, values: list[int]) -> None:
        self.low = low
        self.values = values

    def items(self) -> Iterator[tuple[int, int]]:
        return ((self.low + i, w) for i, w in enumerate(self.values) if w)

    def add(self, partial: _Sums, gain: Weights, factor: int) -> None:
        """Add ``partial`` plus ``gain`` (independent), every weight times ``factor``."""
        assert gain.dense is not None
        if len(gain.dense) == 1:
            values = partial.values
            factor *= gain.dense[0]
        else:
            values = counts.convolve(partial.values, gain.dense)
        low = partial.low + gain.low
        if not self.values:
            self.low, self.values = low, [v * factor for v in values]
            return
        if low < self.low:
            self.values[0:0] = [0] * (self.low - low)
            self.low = low
        offset = low - self.low
        end = offset + len(values)
        if end > len(self.values):
            self.values.extend([0] * (end - len(self.values)))
        segment = self.values[offset:end]
        self.values[offset:end] = [a + b * factor for a, b in zip(segment, values, strict=True)]
