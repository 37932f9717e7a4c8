"""Hypothesis properties of the step-dice rules over every pool and every net modifier -10..+10.

"Rung difference" extends to a lone die by counting the missing skill die as one rung
below D6, so a lone D6 has difference 1 (balanced) and a lone D12 difference 4; every
applied step then moves the difference towards 1 by exactly one.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise, product

from hypothesis import given
from hypothesis import strategies as st

from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.odds import success_distribution
from rulebound.rulesets.empty_reach.rules import LADDER, MAX_BASE_DICE, StepDie
from rulebound.rulesets.empty_reach.steps import Pool, apply_steps, balanced, step_down, step_up

ALL_POOLS = [Pool(a, s) for a, s in product(LADDER, (None, *LADDER))]
pools = st.sampled_from(ALL_POOLS)
nets = st.integers(min_value=-10, max_value=10)
amounts = st.integers(min_value=1, max_value=10)


def diff(pool: Pool) -> int:
    skill_rung = -1 if pool.skill is None else pool.skill.rung
    return abs(pool.attribute.rung - skill_rung)


def odds(pool: Pool) -> dict[int, Fraction]:
    check = prepare(CheckRequest(attribute_die=pool.attribute, skill_die=pool.skill))
    return success_distribution(check).probabilities()


def p_success(pool: Pool) -> Fraction:
    return sum((p for n, p in odds(pool).items() if n >= 1), Fraction(0))


def walk(pool: Pool, net: int) -> list[Pool]:
    """Every pool along the way, one step at a time, starting with ``pool``."""
    seen = [pool]
    step = step_up if net > 0 else step_down
    for _ in range(abs(net)):
        pool, _change = step(pool)
        seen.append(pool)
    return seen


def test_there_are_twenty_starting_pools() -> None:
    assert len(ALL_POOLS) == 20
    assert len(set(ALL_POOLS)) == 20


@given(pools, nets)
def test_never_more_than_two_dice_never_outside_d6_to_d12(start: Pool, net: int) -> None:
    for pool in walk(start, net):
        assert 1 <= len(pool.dice) <= MAX_BASE_DICE
        assert pool.attribute in LADDER
        assert all(StepDie.D6 <= die <= StepDie.D12 for die in pool.dice)
        assert 1 <= pool.size <= 8


@given(pools, nets)
def test_every_step_moves_size_by_one_or_is_reported(start: Pool, net: int) -> None:
    pool, changes = apply_steps(start, net)
    assert len(changes) == abs(net)
    path = walk(start, net)
    assert path[-1] == pool
    for before, after, change in zip(path[:-1], path[1:], changes, strict=True):
        assert change.direction == (1 if net > 0 else -1)
        if change.applied:
            assert after.size - before.size == change.direction
        else:
            assert after == before
            capped = Pool(StepDie.D12, StepDie.D12) if net > 0 else Pool(StepDie.D6)
            assert before == capped
    # a cap is the only way a step goes unapplied
    applied = sum(c.applied for c in changes)
    assert pool.size - start.size == applied * (1 if net > 0 else -1)
    assert pool.size == max(1, min(8, start.size + net))


@given(pools, nets)
def test_steps_balance_the_dice(start: Pool, net: int) -> None:
    pool, _ = apply_steps(start, net)
    assert diff(pool) <= max(diff(start) - abs(net), 1)
    if abs(net) >= diff(start):
        assert balanced(pool)
    assert balanced(pool) == (diff(pool) <= 1)


@given(pools, nets)
def test_each_applied_step_closes_the_gap_by_exactly_one(start: Pool, net: int) -> None:
    path = walk(start, net)
    for before, after in pairwise(path):
        if diff(before) > 1:
            assert diff(after) == diff(before) - 1
        else:
            assert diff(after) <= 1


@given(pools, nets, nets)
def test_steps_of_one_sign_compose(start: Pool, a: int, b: int) -> None:
    if a * b < 0:
        b = -b
    once, _ = apply_steps(start, a + b)
    twice, _ = apply_steps(apply_steps(start, a)[0], b)
    assert once == twice


@given(pools, amounts)
def test_up_then_down_round_trip(start: Pool, k: int) -> None:
    up, up_changes = apply_steps(start, k)
    back, down_changes = apply_steps(up, -k)
    assert all(c.applied for c in down_changes) or not all(c.applied for c in up_changes)
    if not all(c.applied for c in up_changes):
        return
    assert back.size == start.size
    assert diff(back) <= max(diff(start) - 2 * k, 1)
    if 2 * k >= diff(start):
        assert balanced(back)
    if balanced(start):
        assert sorted(back.dice) == sorted(start.dice)
        assert odds(back) == odds(start)


@given(pools, amounts)
def test_down_then_up_round_trip(start: Pool, k: int) -> None:
    down, down_changes = apply_steps(start, -k)
    back, up_changes = apply_steps(down, k)
    if not all(c.applied for c in down_changes):
        return
    assert all(c.applied for c in up_changes)
    assert back.size == start.size
    if balanced(start):
        assert odds(back) == odds(start)


def test_round_trips_exhaustively() -> None:
    """The same round-trip facts over every pool and every k, without sampling."""
    for start, k in product(ALL_POOLS, range(1, 11)):
        up, changes = apply_steps(start, k)
        back, _ = apply_steps(up, -k)
        if all(c.applied for c in changes) and balanced(start):
            assert odds(back) == odds(start), (start, k)
        if all(c.applied for c in changes):
            assert back.size == start.size


def test_round_trip_from_an_unbalanced_start_rebalances() -> None:
    d6, d8, d10, d12 = LADDER
    assert apply_steps(apply_steps(Pool(d10, d6), 1)[0], -1)[0] == Pool(d8, d8)
    assert apply_steps(apply_steps(Pool(d8), 1)[0], -1)[0] == Pool(d6, d6)
    # the one start one round trip of a single step cannot balance: a lone D12 gains a D6,
    # then the higher die (the D12) steps down. Same size, difference 2.
    back = apply_steps(apply_steps(Pool(d12), 1)[0], -1)[0]
    assert back == Pool(d10, d6)
    assert back.size == Pool(d12).size
    assert not balanced(back)
    assert balanced(apply_steps(apply_steps(Pool(d12), 2)[0], -2)[0])


@given(pools, st.integers(min_value=1, max_value=10))
def test_stepping_up_never_lowers_the_odds(start: Pool, net: int) -> None:
    path = walk(start, net)
    for before, after in pairwise(path):
        if after == before:
            assert p_success(after) == p_success(before)
        else:
            assert p_success(after) > p_success(before)
