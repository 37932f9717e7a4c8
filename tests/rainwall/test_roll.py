"""Rolling: injected randomness, exact replay, immutable results, reallocation as a new result."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput, ReplayMismatch, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import (
    AllocationKind,
    RainwallResult,
    allocation_from_labels,
    reallocate,
    roll_check,
)
from rulebound.rulesets.rainwall.rules import Degree

LOCK = RainwallRequest(dice=7, skill=5, dr=4, bonus=3, skill_name="Lockpicking")


def fixed(*faces: int) -> ReplaySource:
    return ReplaySource(Draw(10, face) for face in faces)


def test_dice_come_only_from_the_injected_source() -> None:
    result = roll_check(LOCK, fixed(9, 8, 7, 6, 6, 5, 1))
    assert result.faces == (9, 8, 7, 6, 6, 5, 1)
    assert result.provenance.draws == tuple(Draw(10, f) for f in result.faces)
    assert dict(result.provenance.source)["kind"] == "replay"


def test_roll_asks_for_exactly_trait_many_d10() -> None:
    with pytest.raises(ReplayMismatch):
        roll_check(LOCK, fixed(1, 2, 3))


@given(st.integers(0, 2**32), st.integers(1, 10), st.integers(1, 10), st.integers(0, 6))
def test_replaying_the_provenance_reproduces_the_result(
    seed: int, dice: int, skill: int, bonus: int
) -> None:
    request = RainwallRequest(dice=dice, skill=skill, dr=3, bonus=bonus)
    original = roll_check(request, SeededSource(seed))
    assert dict(original.provenance.source) == {"kind": "seeded", "seed": str(seed)}
    source = ReplaySource(original.provenance.draws)
    replayed = roll_check(request, source)
    assert source.exhausted
    assert dataclasses.replace(replayed, provenance=original.provenance) == original


def test_same_seed_same_result() -> None:
    assert roll_check(LOCK, SeededSource(11)) == roll_check(LOCK, SeededSource(11))


def test_result_is_frozen() -> None:
    result = roll_check(LOCK, fixed(9, 8, 7, 6, 6, 5, 1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.successes = 9  # type: ignore[misc]
    assert result.succeeded
    assert result.headline == "Barely Succeeding: 4 successes vs DR 4, IoS 1"


def test_trace_records_each_die_the_moves_and_the_bonus() -> None:
    result = roll_check(LOCK, fixed(9, 8, 7, 6, 6, 5, 1))
    assert [d.label for d in result.dice] == [f"d{n}" for n in range(1, 8)]
    assert result.dice[3].marks == ("bonus 1", "success")
    assert result.dice[0].marks == ("failure",)
    assert [s.description for s in result.steps] == [
        "d4: 6 -> 5 (bonus 1)",
        "d5: 6 -> 5 (bonus 1)",
    ]
    assert [(m.source, m.value) for m in result.modifiers] == [("Lockpicking bonus", 3)]
    assert result.allocation_kind is AllocationKind.OPTIMAL
    assert result.parent is None


def test_reallocation_is_a_new_result_linked_to_the_original() -> None:
    original = roll_check(LOCK, fixed(9, 8, 7, 6, 6, 5, 1))
    before = dataclasses.asdict(original)
    revised = reallocate(original, (0, 0, 2, 0, 0, 0, 0))  # spend on the 7 instead
    assert dataclasses.asdict(original) == before
    assert revised.parent is original
    assert revised.allocation_kind is AllocationKind.MANUAL
    assert revised.provenance == original.provenance
    assert (revised.successes, revised.degree) == (3, Degree.FAILURE)
    assert revised.unspent == 1


def test_reallocation_refuses_an_overspend() -> None:
    original = roll_check(LOCK, fixed(9, 8, 7, 6, 6, 5, 1))
    with pytest.raises(RuleViolation):
        reallocate(original, (4, 0, 0, 0, 0, 0, 0))


def test_allocation_from_labels() -> None:
    original = roll_check(LOCK, fixed(9, 8, 7, 6, 6, 5, 1))
    assert allocation_from_labels(original, {"d3": 2}) == (0, 0, 2, 0, 0, 0, 0)
    with pytest.raises(InvalidInput) as caught:
        allocation_from_labels(original, {"d9": 1})
    assert caught.value.field == "allocation"


def test_flubbed_roll_fails_despite_every_die_succeeding() -> None:
    request = RainwallRequest(dice=10, skill=10, dr=2)
    result = roll_check(request, fixed(1, 2, 3, 4, 5, 6, 7, 10, 10, 10))
    assert result.successes == 10
    assert result.degree is Degree.FLUBBED
    assert not result.succeeded


def test_seven_ones_against_dr_4_is_critical_with_ios_4() -> None:
    result = roll_check(LOCK, fixed(1, 1, 1, 1, 1, 1, 1))
    assert isinstance(result, RainwallResult)
    assert isinstance(result.provenance, Provenance)
    assert result.degree is Degree.CRITICAL
    assert result.ios == 4


def test_one_success_is_said_in_the_singular() -> None:
    one = RainwallRequest(dice=2, skill=5, dr=2, bonus=0, skill_name="Lockpicking")
    result = roll_check(one, fixed(3, 9))
    assert result.successes == 1
    assert "1 success vs DR 2" in result.headline
    assert "successes" not in result.headline
