"""Pushing: which dice may be rerolled, the new linked result, the limits, and replay."""

from __future__ import annotations

import dataclasses
from itertools import product

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import ReplaySource, SeededSource
from rulebound.core.trace import DieState
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, prepare
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push, roll_check

from .conftest import Scripted

FORCE = CheckRequest(attribute_die="D8", skill_die="D10", skill="Force")


def rolled(
    scripted: type[Scripted], *faces: int, request: CheckRequest = FORCE
) -> EmptyReachResult:
    return roll_check(prepare(request), scripted(*faces))


@pytest.mark.parametrize(
    ("faces", "default"),
    [((3, 7), (0,)), ((1, 4), (1,)), ((6, 10), ()), ((1, 1), ()), ((2, 5), (0, 1)), ((8, 1), ())],
)
def test_default_reroll_is_dice_with_neither_success_nor_one(
    scripted: type[Scripted], faces: tuple[int, int], default: tuple[int, ...]
) -> None:
    result = rolled(scripted, *faces)
    assert result.default_reroll() == default
    assert result.rerollable() == tuple(i for i, f in enumerate(faces) if f != 1)


def test_default_push_rerolls_the_failed_die_and_keeps_the_rest(scripted: type[Scripted]) -> None:
    result = rolled(scripted, 3, 7)
    pushed = push(result, scripted(8))
    assert pushed.parent is result
    assert pushed.push_number == 1
    assert [d.face for d in pushed.dice] == [8, 7]
    assert [d.state for d in pushed.dice] == [DieState.REROLLED, DieState.KEPT]
    assert pushed.dice[0].history == (3,)
    assert pushed.dice[1].history == ()
    assert pushed.successes == 2
    assert pushed.headline == "2 successes (pushed 1x)"
    # the pushed-from result is untouched
    assert [d.face for d in result.dice] == [3, 7]
    assert all(d.state is DieState.ROLLED for d in result.dice)


def test_every_die_counts_after_a_push(scripted: type[Scripted]) -> None:
    pushed = push(rolled(scripted, 4, 10), scripted(2))
    assert pushed.successes == 2
    assert not push(rolled(scripted, 4, 5), scripted(2, 3), [0, 1]).succeeded


def test_a_success_may_be_rerolled_when_chosen(scripted: type[Scripted]) -> None:
    pushed = push(rolled(scripted, 6, 3), scripted(2), [0])
    assert [d.face for d in pushed.dice] == [2, 3]
    assert pushed.dice[0].history == (6,)
    assert pushed.dice[1].state is DieState.KEPT


@pytest.mark.parametrize("reroll", [[0], [0, 1], [1, 0]])
def test_a_one_can_never_be_rerolled(scripted: type[Scripted], reroll: list[int]) -> None:
    with pytest.raises(InvalidInput) as error:
        push(rolled(scripted, 1, 4), scripted(5, 5), reroll)
    assert error.value.field == "reroll"
    assert "not showing 1" in error.value.expected


def test_banes_are_locked_after_a_push(scripted: type[Scripted]) -> None:
    pushed = push(rolled(scripted, 1, 4), scripted(6))
    assert pushed.dice[0].state is DieState.LOCKED
    assert pushed.dice[0].face == 1
    assert pushed.dice[1].state is DieState.REROLLED


@pytest.mark.parametrize("reroll", [[0, 0], [2], [-1], []])
def test_bad_selections(scripted: type[Scripted], reroll: list[int]) -> None:
    with pytest.raises(InvalidInput) as error:
        push(rolled(scripted, 3, 4), scripted(5, 5), reroll)
    assert error.value.field == "reroll"


def test_nothing_to_reroll_by_default(scripted: type[Scripted]) -> None:
    with pytest.raises(InvalidInput, match="at least one die"):
        push(rolled(scripted, 6, 1), scripted())


@pytest.mark.parametrize("faces", [(6, 1), (1, 1), (8, 10)])
def test_an_unseen_push_with_nothing_to_reroll_still_counts_as_the_push(
    scripted: type[Scripted], faces: tuple[int, int]
) -> None:
    """Ruling E1: its roller cannot see the dice, so refusing it would tell of them."""
    result = rolled(scripted, *faces)
    pushed = push(result, scripted(), (), none_left=True)
    assert [d.face for d in pushed.dice] == list(faces)
    assert pushed.push_number == 1
    assert pushed.pushes_left == 0
    assert pushed.costs is not None
    assert pushed.costs.points == faces.count(1)  # every bane showing costs, as after a push
    with pytest.raises(InvalidInput, match="at least one die"):
        push(result, scripted(), ())  # one who sees the dice chooses at least one


def test_push_only_once(scripted: type[Scripted]) -> None:
    pushed = push(rolled(scripted, 3, 4), scripted(2, 2))
    assert pushed.pushes_left == 0
    with pytest.raises(RuleViolation) as error:
        push(pushed, scripted(5, 5))
    assert error.value.rule == "push limit"
    assert "once" in error.value.detail


EXTRA = {
    "Compassion": "Empathy",
    "Inquisitive": "Wits",
    "Reckless": "Agility",
    "True Grit": "Strength",
}


@pytest.mark.parametrize(("specialty", "attribute"), list(product(EXTRA, EXTRA.values())))
def test_twice_only_with_the_matching_specialty(specialty: str, attribute: str) -> None:
    check = prepare(CheckRequest(attribute_die="D8", attribute=attribute, specialties=(specialty,)))
    assert check.max_pushes == (2 if EXTRA[specialty] == attribute else 1)


def test_two_pushes_with_true_grit(scripted: type[Scripted]) -> None:
    request = CheckRequest(
        attribute_die="D8", skill_die="D6", skill="Force", specialties=("True Grit",)
    )
    first = push(rolled(scripted, 3, 2, request=request), scripted(4, 5))
    assert first.pushes_left == 1
    second = push(first, scripted(7), [0])
    assert second.parent is first
    assert second.push_number == 2
    assert second.dice[0].history == (3, 4)
    assert second.dice[0].state is DieState.REROLLED
    assert second.dice[1].state is DieState.KEPT
    assert second.dice[1].history == (2,)
    assert second.headline == "1 success (pushed 2x)"
    with pytest.raises(RuleViolation, match="2 times"):
        push(second, scripted(1))


def test_passive_rolls_cannot_be_pushed(scripted: type[Scripted]) -> None:
    request = CheckRequest(attribute_die="D8", skill="Observation", unpushable="passive roll")
    result = rolled(scripted, 3, request=request)
    assert result.pushes_left == 0
    assert "cannot be pushed: passive roll" in result.check.notes
    with pytest.raises(RuleViolation) as error:
        push(result, scripted(4))
    assert error.value.rule == "no push"
    assert "passive roll" in error.value.detail


def test_passive_beats_an_extra_push_specialty() -> None:
    request = CheckRequest(
        attribute_die="D8", skill="Survival", specialties=("Inquisitive",), unpushable="passive"
    )
    assert prepare(request).max_pushes == 0


def test_replay_reproduces_roll_and_push_exactly() -> None:
    request = CheckRequest(
        attribute_die="D6",
        skill_die="D6",
        skill="Stealth",
        gear=GearInUse(name="cloak", bonus=2),
    )
    check = prepare(request)
    for seed in range(60):
        source = SeededSource(seed)
        result = roll_check(check, source)
        again = roll_check(check, ReplaySource(result.provenance.draws))
        assert again.dice == result.dice
        assert again.successes == result.successes
        if not result.rerollable():
            continue
        pushed = push(result, source, result.rerollable())
        replay = ReplaySource(pushed.provenance.draws)
        repeated = push(result, replay, result.rerollable())
        assert replay.exhausted
        assert repeated.dice == pushed.dice
        assert repeated.costs == pushed.costs
        assert repeated.successes == pushed.successes
        assert [d.face for d in pushed.provenance.draws][: len(result.rerollable())] == [
            pushed.dice[i].face for i in result.rerollable()
        ]


def test_provenance_records_the_source_and_each_draw(scripted: type[Scripted]) -> None:
    result = roll_check(prepare(FORCE), SeededSource(7))
    assert dict(result.provenance.source) == {"kind": "seeded", "seed": "7"}
    assert [(d.sides, d.face) for d in result.provenance.draws] == [
        (8, result.dice[0].face),
        (10, result.dice[1].face),
    ]
    same = roll_check(prepare(FORCE), SeededSource(7))
    assert same.dice == result.dice


def test_results_are_immutable(scripted: type[Scripted]) -> None:
    result = rolled(scripted, 3, 4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.successes = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.dice[0].face = 6  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.check.net = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.check.request.helpers = 2
    assert isinstance(result.dice, tuple)
    pushed = push(result, scripted(1, 1), [0, 1])
    assert pushed.costs is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        pushed.costs.points = 0  # type: ignore[misc]
