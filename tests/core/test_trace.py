"""Roll-record building blocks: dice with history, modifiers, steps and provenance."""

import dataclasses

import pytest

from rulebound.core.random_source import Draw
from rulebound.core.trace import DieRecord, DieState, Modifier, Provenance, StepChange


def test_die_record_defaults() -> None:
    die = DieRecord("base", 6, 4)
    assert die.state is DieState.ROLLED
    assert die.history == ()
    assert die.marks == ()
    assert die.role == ""


def test_rerolled_keeps_history_and_marks_state() -> None:
    die = DieRecord("base", 6, 2, role="attribute", marks=("pushed",))
    once = die.rerolled(5, ("success",))
    assert once.face == 5
    assert once.state is DieState.REROLLED
    assert once.history == (2,)
    assert once.marks == ("success",)
    assert (once.label, once.sides, once.role) == ("base", 6, "attribute")
    twice = once.rerolled(1, ())
    assert twice.history == (2, 5)
    assert twice.face == 1
    assert twice.marks == ()
    # the original is untouched
    assert die.face == 2
    assert die.history == ()
    assert die.state is DieState.ROLLED


@pytest.mark.parametrize("state", list(DieState))
def test_with_state_changes_only_the_state(state: DieState) -> None:
    die = DieRecord("gear", 6, 1, "gear", DieState.ROLLED, (3,), ("bane",))
    changed = die.with_state(state)
    assert changed.state is state
    assert dataclasses.replace(changed, state=DieState.ROLLED) == die


def test_die_record_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DieRecord("base", 6, 3).face = 6  # type: ignore[misc]


def test_die_state_values_are_stable_strings() -> None:
    assert [s.value for s in DieState] == ["rolled", "kept", "locked", "rerolled"]
    assert DieState("locked") is DieState.LOCKED


@pytest.mark.parametrize(
    ("value", "text"),
    [(2, "help from 2 allies: +2"), (-1, "help from 2 allies: -1"), (0, "help from 2 allies: +0")],
)
def test_modifier_describe_signs_the_value(value: int, text: str) -> None:
    assert Modifier("help from 2 allies", value).describe() == text


def test_step_change_defaults_to_applied() -> None:
    assert StepChange(1, "up one step").applied is True
    assert StepChange(-1, "capped", applied=False).applied is False


def test_provenance_of_sorts_and_stringifies_the_description() -> None:
    draws = (Draw(6, 3), Draw(20, 11))
    provenance = Provenance.of({"seed": 42, "kind": "seeded", "algo": None}, draws)
    assert provenance.source == (("algo", "None"), ("kind", "seeded"), ("seed", "42"))
    assert provenance.draws == draws


def test_provenance_of_is_independent_of_description_order() -> None:
    a = Provenance.of({"b": 1, "a": 2}, ())
    b = Provenance.of({"a": 2, "b": 1}, ())
    assert a == b
    assert hash(a) == hash(b)
    assert Provenance(source=()).draws == ()
