"""The four odds questions of issue 6, each answered by rulebound, icepool and dyce.

Every answer is normalised to plain Python values with exact ``Fraction``s so
the three libraries can be compared with ``==``. The peers get the idiomatic
formulation a user of each library would write, with the rules' corner cases
(Rainwall's flub) written in, so that the answers agree exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

DICE = (6, 8, 10, 12)
PAIRS = tuple(combinations_with_replacement(DICE, 2))
"""Q1: the 10 unordered pairs of D6 to D12."""
Q2 = {"dice": 7, "skill": 5, "bonus": 3, "drs": tuple(range(1, 8))}
Q3 = {"dr": 3, "scores": tuple(range(1, 11))}

Answer = Any
Solver = Callable[[], Answer]


def hits(face: int) -> int:
    return 2 if face >= 10 else 1 if face >= 6 else 0


def greedy_total(faces: tuple[int, ...], skill: int, bonus: int) -> int:
    """Rainwall's spend on sorted faces: fix the cheapest failures first."""
    total = 0
    for face in faces:
        if face <= skill:
            total += 1
        elif face - skill <= bonus:
            bonus -= face - skill
            total += 1
        else:
            break
    return total


def _tails(weights: dict[int, int], total: int, drs: tuple[int, ...]) -> tuple[Fraction, ...]:
    return tuple(Fraction(sum(w for k, w in weights.items() if k >= dr), total) for dr in drs)


# rulebound ------------------------------------------------------------------------


def rulebound_q1() -> Answer:
    """The pool-level entry point: the dice alone, no request to validate (issue 16)."""
    from rulebound.rulesets.empty_reach.odds import pool_outcomes

    return {(a, b): pool_outcomes(a, b, policy="always").probabilities() for a, b in PAIRS}


def rulebound_q1_request() -> Answer:
    """The same question through a validated request per pair (``prepare``)."""
    from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
    from rulebound.rulesets.empty_reach.odds import outcome_distribution

    out = {}
    for a, b in PAIRS:
        check = prepare(CheckRequest(attribute_die=f"D{a}", skill_die=f"D{b}"))
        out[(a, b)] = outcome_distribution(check, "always").probabilities()
    return out


def rulebound_q2() -> Answer:
    from rulebound.rulesets.rainwall.odds import success_chance
    from rulebound.rulesets.rainwall.request import RainwallRequest

    d, s, b = Q2["dice"], Q2["skill"], Q2["bonus"]
    return tuple(
        success_chance(RainwallRequest(dice=d, skill=s, dr=dr, bonus=b)) for dr in Q2["drs"]
    )


def rulebound_q3() -> Answer:
    from rulebound.rulesets.rainwall.tables import success_grid

    grid = success_grid(Q3["dr"])
    rows, columns = [int(r) for r in grid.rows], [int(c) for c in grid.columns]
    (panel,) = grid.panels
    return {
        (n, s): p
        for n, cells in zip(rows, panel.cells, strict=True)
        for s, p in zip(columns, cells, strict=True)
    }


def rulebound_q4() -> Answer:
    from rulebound.rulesets.legacy.odds import death_save_odds

    odds = death_save_odds()
    return (odds.p_stable, odds.p_dead, odds.expected_rolls)


# icepool --------------------------------------------------------------------------


def icepool_q1() -> Answer:
    import icepool

    out = {}
    for a, b in PAIRS:
        dice = [
            icepool.d(s).reroll([2, 3, 4, 5], depth=1).map(lambda f: (hits(f), int(f == 1)))
            for s in (a, b)
        ]
        pair = icepool.map(lambda x, y: (x[0] + y[0], x[1] + y[1]), *dice)
        out[(a, b)] = {k: Fraction(q, pair.denominator()) for k, q in pair.items()}
    return out


def _icepool_spend() -> Any:
    import icepool

    class Spend(icepool.MultisetEvaluator):
        def next_state(self, state: Any, order: Any, face: int, count: int) -> Any:
            if order != icepool.Order.Ascending:
                raise icepool.UnsupportedOrder()
            total, left = state or (0, Q2["bonus"])
            if face <= Q2["skill"]:
                return (total + count, left)
            fixed = min(count, left // (face - Q2["skill"]))
            return (total + fixed, left - fixed * (face - Q2["skill"]))

        def final_outcome(self, state: Any, *_: Any) -> int:
            return state[0]

    return Spend()


def icepool_q2() -> Answer:
    import icepool

    totals = _icepool_spend().evaluate(icepool.d10.pool(Q2["dice"]))
    return _tails(dict(totals.items()), totals.denominator(), Q2["drs"])


def icepool_q3() -> Answer:
    import icepool

    out = {}
    for n in Q3["scores"]:
        for s in Q3["scores"]:
            if n == 10 and s == 10:  # Flubbed: three or more 10s fail whatever else shows
                tens = n @ (icepool.d10 == 10)
                out[(n, s)] = Fraction(tens.probability("<", 3))
            else:
                out[(n, s)] = Fraction((n @ (icepool.d10 <= s)).probability(">=", Q3["dr"]))
    return out


def _death_step(state: tuple[int, int], face: int) -> tuple[int, int]:
    s, f = state
    if s >= 3 or f >= 3:
        return state
    if face == 1:
        return (min(s + 2, 3), f)
    if face <= 10:
        return (s + 1, f)
    return (s, min(f + (2 if face == 20 else 1), 3))


def icepool_q4() -> Answer:
    import icepool

    end = icepool.map(_death_step, (0, 0), icepool.d20, repeat="inf")
    rolls = icepool.mean_time_to_absorb(_death_step, (0, 0), icepool.d20)
    stable = Fraction(sum(q for k, q in end.items() if k[0] >= 3), end.denominator())
    return (stable, 1 - stable, Fraction(rolls))


# dyce -----------------------------------------------------------------------------


def dyce_q1() -> Answer:
    from dyce import H, expand

    def push(result: Any) -> Any:
        return result.h if 2 <= result.outcome <= 5 else result.outcome

    out = {}
    for a, b in PAIRS:
        coded = [expand(push, H(s)).apply(lambda f: 10 * hits(f) + (f == 1)) for s in (a, b)]
        pair = coded[0] + coded[1]
        out[(a, b)] = {(k // 10, k % 10): Fraction(c, pair.total) for k, c in pair.items()}
    return out


def dyce_q2() -> Answer:
    from dyce import P

    weights: dict[int, int] = {}
    pool = Q2["dice"] @ P(10)
    for faces, count in pool.rolls_with_counts():
        total = greedy_total(faces, Q2["skill"], Q2["bonus"])
        weights[total] = weights.get(total, 0) + count
    return _tails(weights, pool.total, Q2["drs"])


def dyce_q3() -> Answer:
    from dyce import H

    out = {}
    for n in Q3["scores"]:
        for s in Q3["scores"]:
            if n == 10 and s == 10:
                tens = n @ H(10).eq(10)
                out[(n, s)] = Fraction(sum(c for k, c in tens.items() if k < 3), tens.total)
            else:
                hits_h = n @ H(10).le(s)
                out[(n, s)] = Fraction(
                    sum(c for k, c in hits_h.items() if k >= Q3["dr"]), hits_h.total
                )
    return out


def dyce_q4() -> Answer:
    """``expand`` walks every path, so the d20 is given as the four kinds of face the rule
    tells apart, each with its count: what a dyce user would write (on ``H(20)`` the same
    answer takes about 11 s, not 4 ms)."""
    from dyce import H, expand

    d20 = H({1: 1, 2: 9, 11: 9, 20: 1})  # a 1; 2-10; 11-19; a 20

    def save(result: Any, s: int = 0, f: int = 0, rolls: int = 1) -> Any:
        s, f = _death_step((s, f), result.outcome)
        if s >= 3 or f >= 3:
            return 100 * rolls + (s >= 3)  # rolls taken, and 1 if stable
        return expand(save, d20, s=s, f=f, rolls=rolls + 1)

    ends = expand(save, d20)
    stable = Fraction(sum(c for k, c in ends.items() if k % 100), ends.total)
    rolls = Fraction(sum(c * (k // 100) for k, c in ends.items()), ends.total)
    return (stable, 1 - stable, rolls)


QUESTIONS: dict[str, dict[str, Solver]] = {
    "Q1 Empty Reach pushed (successes, banes), 10 pairs": {
        "rulebound": rulebound_q1,
        "icepool": icepool_q1,
        "dyce": dyce_q1,
    },
    "Q2 Rainwall P(success) 7 dice, skill 5, DR 1-7, bonus 3": {
        "rulebound": rulebound_q2,
        "icepool": icepool_q2,
        "dyce": dyce_q2,
    },
    "Q3 Rainwall DR-3 table, dice 1-10 x skill 1-10": {
        "rulebound": rulebound_q3,
        "icepool": icepool_q3,
        "dyce": dyce_q3,
    },
    "Q4 Legacy death saves (stable, dead, expected rolls)": {
        "rulebound": rulebound_q4,
        "icepool": icepool_q4,
        "dyce": dyce_q4,
    },
}
