"""Exact odds for Legacy checks, built on the same rule functions the roller uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rulebound.core.distribution import Distribution
from rulebound.core.errors import InvalidInput
from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.extended import ExtendedSpec, ExtendedStatus, status_of
from rulebound.rulesets.legacy.opposed import OpposedOutcome, compare, standing
from rulebound.rulesets.legacy.rules import (
    DEATH_SAVE_DIE,
    DEATH_SAVE_LIMIT,
    OUTCOMES,
    Edge,
    Outcome,
    Thresholds,
    classify,
    death_save_points,
    weighted_margin,
)


@cache
def kept_face(die: int, edge: Edge) -> Distribution[int]:
    """The face that counts: one die, or the lower (advantage) or higher (disadvantage) of two."""
    one = Distribution.die(die)
    if edge is Edge.ADVANTAGE:
        return one.combine(one, min)
    if edge is Edge.DISADVANTAGE:
        return one.combine(one, max)
    return one


def outcome_distribution(t: Thresholds, edge: Edge) -> Distribution[Outcome]:
    return kept_face(t.die, edge).map(lambda face: classify(face, t))


def full_chances(t: Thresholds, edge: Edge) -> dict[Outcome, Fraction]:
    """Every outcome, including the impossible ones at 0, in best-to-worst order."""
    dist = outcome_distribution(t, edge)
    return {o: dist.probability(o) for o in OUTCOMES}


def check_chances(req: CheckRequest) -> dict[Outcome, Fraction]:
    res = resolve(req)
    return full_chances(res.thresholds, res.edge)


def p_success(req: CheckRequest) -> Fraction:
    chances = check_chances(req)
    return chances[Outcome.CRITICAL_SUCCESS] + chances[Outcome.SUCCESS]


_RANK = {o: len(OUTCOMES) - i for i, o in enumerate(OUTCOMES)}


def p_reroll_improves(req: CheckRequest, current: Outcome) -> Fraction:
    """The chance a fresh roll of the same check lands on a strictly better outcome."""
    return sum((p for o, p in check_chances(req).items() if _RANK[o] > _RANK[current]), Fraction(0))


def _side(req: CheckRequest) -> Distribution[tuple[bool, int]]:
    res = resolve(req)
    return kept_face(res.thresholds.die, res.edge).map(lambda f: standing(f, res.thresholds))


def opposed_chances(actor: CheckRequest, opponent: CheckRequest) -> dict[OpposedOutcome, Fraction]:
    a, b = actor.ability_bonus, opponent.ability_bonus
    dist = _side(actor).combine(_side(opponent), lambda x, y: compare(x, y, a, b))
    return {o: dist.probability(o) for o in OpposedOutcome}


@dataclass(frozen=True, slots=True)
class DeathSaveOdds:
    p_stable: Fraction
    p_dead: Fraction
    expected_rolls: Fraction


def death_save_odds(
    successes: int = 0, failures: int = 0, cancel_chance: Fraction = Fraction(0)
) -> DeathSaveOdds:
    """Solve the death-save chain exactly from a starting tally.

    Every save adds at least one success or failure, so the chain is acyclic and
    a memoised recursion over (successes, failures) is the exact solution.
    ``cancel_chance`` is the chance a critical failure is cancelled to a single
    failure (a Halfling soul's LCK save: ``p_success(luck_request(lck))``).
    """
    if not 0 <= cancel_chance <= 1:
        raise InvalidInput("cancel_chance", cancel_chance, "a probability from 0 to 1")
    step = dict(Distribution.die(DEATH_SAVE_DIE).map(death_save_points).probabilities())
    if cancel_chance:
        critical = step.pop((0, 2))
        step[(0, 1)] += critical * cancel_chance
        step[(0, 2)] = critical * (1 - cancel_chance)

    @cache
    def solve(s: int, f: int) -> tuple[Fraction, Fraction, Fraction]:
        if s >= DEATH_SAVE_LIMIT:
            return (Fraction(1), Fraction(0), Fraction(0))
        if f >= DEATH_SAVE_LIMIT:
            return (Fraction(0), Fraction(1), Fraction(0))
        stable = dead = rolls = Fraction(0)
        for (ds, df), p in step.items():
            ps, pd, pr = solve(s + ds, f + df)
            stable += p * ps
            dead += p * pd
            rolls += p * pr
        return (stable, dead, 1 + rolls)

    stable, dead, rolls = solve(successes, failures)
    return DeathSaveOdds(stable, dead, rolls)


def extended_chances(
    req: CheckRequest,
    spec: ExtendedSpec,
    success: int = 0,
    failure: int = 0,
    rolls_made: int = 0,
) -> dict[ExtendedStatus, Fraction]:
    """The chance of each way an extended check ends, by exact dynamic programming.

    The state is (success, failure, rolls made), with tallies capped at their
    thresholds since nothing past a threshold matters. A saved check's tallies
    and rolls give the odds from where it stands.
    """
    res = resolve(req)
    per_roll = (
        kept_face(res.thresholds.die, res.edge).map(_tally_of(res.thresholds)).probabilities()
    )
    ended: dict[ExtendedStatus, Fraction] = dict.fromkeys(
        [s for s in ExtendedStatus if s is not ExtendedStatus.IN_PROGRESS], Fraction(0)
    )
    start = (min(success, spec.success_threshold), min(failure, spec.failure_threshold))
    now = status_of(start[0], start[1], rolls_made, spec)
    if now is not ExtendedStatus.IN_PROGRESS:
        ended[now] = Fraction(1)
        return ended
    states: dict[tuple[int, int], Fraction] = {start: Fraction(1)}
    for made in range(rolls_made + 1, spec.max_rolls + 1):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (s, f), p in states.items():
            for (ds, df), q in per_roll.items():
                key = (min(s + ds, spec.success_threshold), min(f + df, spec.failure_threshold))
                status = status_of(key[0], key[1], made, spec)
                if status is ExtendedStatus.IN_PROGRESS:
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
                else:
                    ended[status] += p * q
        states = nxt
    return ended


def _tally_of(t: Thresholds) -> Callable[[int], tuple[int, int]]:
    def tally(face: int) -> tuple[int, int]:
        outcome = classify(face, t)
        m = weighted_margin(face, t, outcome)
        return (m, 0) if outcome.passed else (0, -m)

    return tally
