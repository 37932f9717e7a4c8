"""The balancing rule with concrete pools: which die moves, caps, lone dice, summed modifiers."""

from __future__ import annotations

import pytest

from rulebound.core.trace import StepChange
from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.rules import StepDie
from rulebound.rulesets.empty_reach.steps import Pool, apply_steps, balanced, step_down, step_up

D6, D8, D10, D12 = StepDie.D6, StepDie.D8, StepDie.D10, StepDie.D12


def dice(pool: Pool) -> tuple[str, ...]:
    return tuple(d.label for d in pool.dice)


@pytest.mark.parametrize(
    ("start", "net", "expected"),
    [
        (Pool(D8), +1, ("D8", "D6")),
        (Pool(D8), +2, ("D8", "D8")),
        (Pool(D8), +3, ("D8", "D10")),
        (Pool(D8), +7, ("D12", "D12")),
        (Pool(D6), +1, ("D6", "D6")),
        (Pool(D12), +1, ("D12", "D6")),
        (Pool(D6, D6), -1, ("D6",)),
        (Pool(D6, D6), -2, ("D6",)),
        (Pool(D8, D6), -1, ("D6", "D6")),
        (Pool(D8, D6), -2, ("D6",)),
        (Pool(D6, D12), +1, ("D8", "D12")),
        (Pool(D6, D12), +2, ("D10", "D12")),
        (Pool(D12, D6), +1, ("D12", "D8")),
        (Pool(D6, D12), -1, ("D6", "D10")),
        (Pool(D12, D6), -1, ("D10", "D6")),
        (Pool(D12, D6), -3, ("D6", "D6")),
        (Pool(D12, D6), -4, ("D6",)),
        (Pool(D10), -1, ("D8",)),
        (Pool(D10), -2, ("D6",)),
        (Pool(D8, D10), 0, ("D8", "D10")),
        (Pool(D12, D12), -7, ("D6",)),
        (Pool(D6), +7, ("D12", "D12")),
    ],
)
def test_apply_steps_examples(start: Pool, net: int, expected: tuple[str, ...]) -> None:
    pool, changes = apply_steps(start, net)
    assert dice(pool) == expected
    assert len(changes) == abs(net)
    assert all(c.direction == (1 if net > 0 else -1) for c in changes)


def test_equal_dice_the_skill_die_moves() -> None:
    up, change = step_up(Pool(D8, D8))
    assert (up.attribute, up.skill) == (D8, D10)
    assert change == StepChange(+1, "skill die D8 -> D10")
    down, change = step_down(Pool(D8, D8))
    assert (down.attribute, down.skill) == (D8, D6)
    assert change == StepChange(-1, "skill die D8 -> D6")


def test_step_up_raises_the_lower_die_whichever_it_is() -> None:
    assert step_up(Pool(D6, D10))[0] == Pool(D8, D10)
    assert step_up(Pool(D10, D6))[0] == Pool(D10, D8)
    assert step_up(Pool(D6, D10))[1].description == "attribute die D6 -> D8"


def test_step_down_lowers_the_higher_die_whichever_it_is() -> None:
    assert step_down(Pool(D6, D10))[0] == Pool(D6, D8)
    assert step_down(Pool(D10, D6))[0] == Pool(D8, D6)


def test_lone_die_steps_up_by_adding_a_d6() -> None:
    pool, change = step_up(Pool(D10))
    assert pool == Pool(D10, D6)
    assert change == StepChange(+1, "add a D6 skill die")
    assert change.applied


def test_past_two_d6_removes_a_die() -> None:
    pool, change = step_down(Pool(D6, D6))
    assert pool == Pool(D6)
    assert change.applied
    assert "remove" in change.description


def test_two_d12_cap_is_reported_not_dropped() -> None:
    pool, changes = apply_steps(Pool(D12, D12), +2)
    assert pool == Pool(D12, D12)
    assert [c.applied for c in changes] == [False, False]
    assert all("two D12s" in c.description for c in changes)
    pool, changes = apply_steps(Pool(D10, D12), +3)
    assert pool == Pool(D12, D12)
    assert [c.applied for c in changes] == [True, False, False]


def test_lone_d6_floor_is_reported() -> None:
    pool, changes = apply_steps(Pool(D6, D6), -3)
    assert pool == Pool(D6)
    assert [c.applied for c in changes] == [True, False, False]
    assert "single D6" in changes[1].description
    _, (only,) = apply_steps(Pool(D6), -1)
    assert not only.applied
    assert only.direction == -1


def test_pool_size_counts_rungs() -> None:
    assert Pool(D6).size == 1
    assert Pool(D8).size == 2
    assert Pool(D6, D6).size == 2
    assert Pool(D12, D12).size == 8
    assert Pool(D10, D6).size == 4
    assert Pool(D8, D10).describe() == "D8 + D10"
    assert Pool(D12).dice == (D12,)


@pytest.mark.parametrize(
    ("pool", "expected"),
    [
        (Pool(D6), True),
        (Pool(D8), False),
        (Pool(D12), False),
        (Pool(D6, D6), True),
        (Pool(D6, D8), True),
        (Pool(D10, D8), True),
        (Pool(D6, D10), False),
        (Pool(D12, D6), False),
    ],
)
def test_balanced(pool: Pool, expected: bool) -> None:
    assert balanced(pool) is expected


def test_zero_net_takes_no_steps() -> None:
    pool, changes = apply_steps(Pool(D6, D12), 0)
    assert pool == Pool(D6, D12)
    assert changes == ()


def test_modifiers_are_summed_before_stepping() -> None:
    check = prepare(CheckRequest(attribute_die="D6", skill_die="D12", helpers=2, difficulty=-2))
    assert check.net == 0
    assert check.steps == ()
    # summed first: an unbalanced pool stays as it is (applying +2 then -2 would rebalance it)
    assert check.pool == Pool(D6, D12)
    assert [m.value for m in check.modifiers] == [2, -2]


def test_prepare_records_start_pool_steps_and_result() -> None:
    check = prepare(CheckRequest(attribute_die="D8", helpers=2))
    assert check.start == Pool(D8)
    assert check.pool == Pool(D8, D8)
    assert [c.description for c in check.steps] == ["add a D6 skill die", "skill die D6 -> D8"]
    assert check.net == 2
