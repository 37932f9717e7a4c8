"""The last resort for a dice term: every multiset of faces its pool can show, weighed.

For what no faster plan serves (``ra``, ``ro`` by rank, a keep between rerolls): the pool is
a sorted tuple of the values still kept, each operation maps every tuple to the tuples it
may become, with integer weights brought to a common total. Its cost (the number of
multisets times the branches of each operation) is estimated first, so only small pools
are ever enumerated.
"""

from __future__ import annotations

import math
from functools import cache

from rulebound.core.dice import counts
from rulebound.core.dice.counts import Weights
from rulebound.core.dice.nodes import Dice, SetOp, Value
from rulebound.core.dice.pools import Final, Plan, explosion_note
from rulebound.core.dice.roller import ValueMember, chosen


def enumerated(dice: Dice, ops: tuple[SetOp, ...], final: Final, explosions: int) -> Plan:
    values = len(set(dice.faces) | {s.number for op in ops for s in op.selectors})
    shown = set(dice.faces) | {
        s.number for op in ops if op.op in ("mi", "ma") for s in op.selectors
    }
    faces = len(dice.faces)
    most = dice.count
    states = math.comb(most + values - 1, values - 1)
    cost = states * most
    for op in ops:
        if op.op in ("ro", "rr"):
            hit = most if op.by_face else min(most, sum(s.number for s in op.selectors))
            branches = math.comb(hit + faces - 1, faces - 1)
        elif op.by_face and not any(op.selects(v) for v in shown):
            branches = 1  # selects no value a die can show: ``e0`` or ``ra0`` on a d4 add nothing
        elif op.op == "ra":
            branches, most = faces, most + 1
        elif op.op == "e":
            hits = sum(1 for face in dice.faces if op.selects(face))
            chains = math.comb(explosions + hits, hits) * faces
            most *= explosions + 1
            branches = min(chains ** min(most, 64), math.comb(most + values, values))
        else:
            branches = 1
        cost += states * branches
        states = min(states * branches, math.comb(most + values, values))
    cost *= 2 * counts.PAIR

    def run() -> Weights:
        return enumerate_pool(dice, ops, final, explosions)

    bits = len(dice.faces).bit_length() * (most + dice.count * len(ops)) * (explosions + 1)
    notes = explosion_note(dice, ops, explosions)
    return Plan(cost, run, most * values + 1, bits, notes)


Multiset = tuple[Value, ...]
"""A pool's kept values, highest first."""


def enumerate_pool(dice: Dice, ops: tuple[SetOp, ...], final: Final, explosions: int) -> Weights:
    """Every multiset of values the pool can end with, weighed, then summed."""
    s = len(dice.faces)
    states: dict[Multiset, int] = {(): 1}
    for _ in range(dice.count):
        states = spread(states, [(1, (f,)) for f in dice.faces])
    total = s**dice.count
    for op in ops:
        states, factor = _operate(states, op, dice, explosions)
        total *= factor
    found: dict[Value, int] = {}
    for state, weight in states.items():
        key = sum(final(v) for v in state)
        found[key] = found.get(key, 0) + weight
    return counts.of_dict(found, total)


def spread(
    states: dict[Multiset, int], outcomes: list[tuple[int, Multiset]]
) -> dict[Multiset, int]:
    """Each weighed multiset joined with each weighed outcome: the weights multiply."""
    out: dict[Multiset, int] = {}
    for state, weight in states.items():
        for w, extra in outcomes:
            key = tuple(sorted(state + extra, reverse=True))
            out[key] = out.get(key, 0) + weight * w
    return out


@cache
def _fresh_multisets(faces: tuple[Value, ...], j: int) -> tuple[tuple[int, Multiset], ...]:
    """The multisets of ``j`` fresh dice over ``faces``, with their counts (of len^j)."""
    states: dict[Multiset, int] = {(): 1}
    for _ in range(j):
        states = spread(states, [(1, (f,)) for f in faces])
    return tuple((w, k) for k, w in states.items())


@cache
def _chain_multisets(
    faces: tuple[Value, ...], matched: tuple[Value, ...], left: int
) -> tuple[tuple[int, Multiset], ...]:
    """The dice one explosion adds, as multisets with counts of len(faces)^(left+1)."""
    s = len(faces)
    out: dict[Multiset, int] = {}
    for face in faces:
        if face in matched and left > 0:
            for w, rest in _chain_multisets(faces, matched, left - 1):
                key = tuple(sorted((face, *rest), reverse=True))
                out[key] = out.get(key, 0) + w
        else:
            out[(face,)] = out.get((face,), 0) + s**left
    return tuple((w, k) for k, w in out.items())


def _operate(
    states: dict[Multiset, int], op: SetOp, dice: Dice, explosions: int
) -> tuple[dict[Multiset, int], int]:
    """One operation on every multiset: the new multisets and the factor of the total."""
    faces = dice.faces
    plan: list[tuple[Multiset, int, list[tuple[int, Multiset]]]] = []
    """Each multiset (less the dice the operation takes), its weight, and the weighed
    multisets of dice it adds back."""
    for state, weight in states.items():
        members = [ValueMember(v) for v in state]
        picked = chosen(op.selectors, members, most=1 if op.op == "ra" else None)
        ids = {id(m) for m in picked}
        rest = tuple(m.value for m in members if id(m) not in ids)
        hit = tuple(m.value for m in picked)
        if op.op == "k":
            plan.append((hit, weight, [(1, ())]))
        elif op.op == "p":
            plan.append((rest, weight, [(1, ())]))
        elif op.op in ("mi", "ma"):
            bound = op.selectors[-1].number
            moved = tuple(max(v, bound) if op.op == "mi" else min(v, bound) for v in state)
            plan.append((moved, weight, [(1, ())]))
        elif op.op == "ro":
            plan.append((rest, weight, list(_fresh_multisets(faces, len(hit)))))
        elif op.op == "rr":
            allowed = tuple(f for f in faces if not op.selects(f))
            plan.append((rest, weight, list(_fresh_multisets(allowed, len(hit)))))
        elif op.op == "ra":
            added: list[tuple[int, Multiset]] = (
                list(_fresh_multisets(faces, 1)) if hit else [(1, ())]
            )
            plan.append((state, weight, added))
        else:  # e
            matched = tuple(f for f in faces if op.selects(f))
            chains: dict[Multiset, int] = {(): 1}
            for _ in hit if explosions else ():
                chains = spread(chains, list(_chain_multisets(faces, matched, explosions - 1)))
            plan.append((state, weight, [(w, k) for k, w in chains.items()]))
    factor = math.lcm(*(sum(w for w, _ in outcomes) for _, _, outcomes in plan))
    out: dict[Multiset, int] = {}
    for state, weight, outcomes in plan:
        scale = factor // sum(w for w, _ in outcomes)
        for w, extra in outcomes:
            key = tuple(sorted(state + extra, reverse=True))
            out[key] = out.get(key, 0) + weight * w * scale
    return out, factor
