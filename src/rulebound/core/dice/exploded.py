"""Keeping the highest (or lowest) dice after an explosion: ``4d6e6kh3`` keeps the best three
of all the dice rolled, the extra ones included (d20's meaning).

The pool's size is random, so the rank sweep of ``pools.rank_sum`` does not apply. Each
original die is instead a unit (the die, and the chain of dice its explosions add), and
only the k dice that can still be kept matter: a unit's outcome is the multiset of its k
best values, and the pool's state after each unit is the k best values so far. The units
are folded in one by one, the state never longer than k.
"""

from __future__ import annotations

import math

from rulebound.core.dice import counts
from rulebound.core.dice.counts import Weights
from rulebound.core.dice.nodes import Dice, SetOp, Value
from rulebound.core.dice.pools import Final, PerDie, Plan, TooCostly, face_states, kept_ranks

Best = tuple[Value, ...]
"""Up to k values, best first."""


def anchored(block: tuple[SetOp, ...], fewest: int, most: int) -> tuple[int, bool] | None:
    """(k, from the top) when the keeps and drops leave the k highest (or lowest) dice of
    every pool size from ``fewest`` to ``most``; None otherwise."""
    for top in (True, False):
        found = kept_ranks(block, most)
        k = len(found)
        for m in range(fewest, most + 1):
            ranks = kept_ranks(block, m)
            size = min(k, m)
            wanted = set(range(1, size + 1)) if top else set(range(m - size + 1, m + 1))
            if ranks != wanted:
                break
        else:
            return k, top
    return None


def plan(
    dice: Dice,
    before: tuple[SetOp, ...],
    explode: SetOp,
    block: tuple[SetOp, ...],
    after: tuple[SetOp, ...],
    final: Final,
    explosions: int,
    budget: int,
) -> Plan | None:
    """The plan for ``before``, one explosion, keeps by rank, then per-die ``after``; None
    when the keeps are not the k best (or worst) of every pool size."""
    fewest, most = 0, dice.count * (explosions + 1)
    found = anchored(block, fewest, most)
    if found is None:
        return None
    k, top = found
    faces = len(dice.faces)
    values = len(set(dice.faces) | {s.number for op in before for s in op.selectors})
    bound = math.comb(k + values, values)
    if explosions * faces * bound > budget:
        raise TooCostly(f"an exploding die's best {k} values alone take about {bound:,} states")
    suffix = PerDie(dice, after, final, explosions, budget)
    if suffix.weight_total(0) != 1:
        return None  # a reroll after the keeps: left to the enumeration
    units, units_total = unit(dice, before, explode, k, top, explosions)
    states = min(bound, len(units) ** dice.count)
    unit_words = counts.words(units_total.bit_length() * dice.count)
    cost = dice.count * states * len(units) * (counts.PAIR + unit_words)
    cost += states * k * counts.PAIR

    def run() -> Weights:
        pool: dict[Best, int] = {(): 1}
        for _ in range(dice.count):
            grown: dict[Best, int] = {}
            for state, weight in pool.items():
                for extra, w in units.items():
                    key = merge(state, extra, k, top)
                    grown[key] = grown.get(key, 0) + weight * w
            pool = grown
        adds = {v: suffix.contribution(0, v) for state in pool for v in state}
        parts = []
        for state, weight in pool.items():
            total = counts.point(0)
            for value in state:
                total = counts.added(total, adds[value])
            parts.append((weight, total))
        return counts.accumulate(parts, units_total**dice.count)

    support = k * (faces * (explosions + 1)) + 1
    bits = units_total.bit_length() * dice.count
    return Plan(cost, run, support, bits)


def merge(state: Best, extra: Best, k: int, top: bool) -> Best:
    return tuple(sorted((*state, *extra), reverse=top)[:k])


def unit(
    dice: Dice, before: tuple[SetOp, ...], explode: SetOp, k: int, top: bool, explosions: int
) -> tuple[dict[Best, int], int]:
    """One original die and its chain, as the weights of its k best values, and their total
    (the die's own total times s^explosions)."""
    states, dropped, _ = face_states(dice, before)
    s = len(dice.faces)
    chains: list[dict[Best, int]] = []
    for left in range(explosions):  # chains[left]: a new die with ``left`` more allowed
        found: dict[Best, int] = {}
        for face in dice.faces:
            if explode.selects(face) and left > 0:
                for rest, w in chains[left - 1].items():
                    key = merge((face,), rest, k, top)
                    found[key] = found.get(key, 0) + w
            else:
                key = (face,)
                found[key] = found.get(key, 0) + s**left
        chains.append(found)
    weights: dict[Best, int] = {}
    spread = s**explosions
    if dropped:
        weights[()] = dropped * spread
    for value, w in states.items():
        if explode.selects(value) and explosions:
            for rest, cw in chains[explosions - 1].items():
                key = merge((value,), rest, k, top)
                weights[key] = weights.get(key, 0) + w * cw
        else:
            weights[(value,)] = weights.get((value,), 0) + w * spread
    return weights, sum(weights.values())
