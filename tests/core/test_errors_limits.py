"""Errors say what was wrong and what was expected; limits cap request sizes."""

import dataclasses

import pytest

from rulebound.core.errors import (
    ContentError,
    InvalidInput,
    LimitExceeded,
    ReplayMismatch,
    RuleboundError,
    RuleViolation,
    UnknownRuleset,
)
from rulebound.core.limits import DEFAULT_LIMITS, Limits

# errors ---------------------------------------------------------------------------


def test_invalid_input_names_field_value_and_expectation() -> None:
    error = InvalidInput("dice", -2, "a count from 1 to 24")
    assert (error.field, error.value, error.expected, error.tip) == (
        "dice",
        -2,
        "a count from 1 to 24",
        None,
    )
    assert str(error) == "dice: got -2; expected a count from 1 to 24"


def test_invalid_input_reprs_the_value_and_appends_a_tip() -> None:
    error = InvalidInput("skill", "shot", "a known skill", tip="did you mean 'shoot'?")
    assert str(error) == "skill: got 'shot'; expected a known skill. Tip: did you mean 'shoot'?"
    assert error.tip == "did you mean 'shoot'?"


def test_limit_exceeded_carries_its_limit() -> None:
    error = LimitExceeded("dice", 30, 24)
    assert error.limit == 24
    assert error.field == "dice"
    assert error.value == 30
    assert error.expected == "at most 24"
    assert str(error) == "dice: got 30; expected at most 24"


def test_rule_violation_names_the_rule() -> None:
    error = RuleViolation("push", "a passive roll cannot be pushed")
    assert (error.rule, error.detail) == ("push", "a passive roll cannot be pushed")
    assert str(error) == "push: a passive roll cannot be pushed"


def test_content_error_names_the_source() -> None:
    error = ContentError("races.toml", "speed: got 'fast'; not an integer")
    assert error.source == "races.toml"
    assert str(error) == "races.toml: speed: got 'fast'; not an integer"


def test_replay_mismatch_names_the_draw() -> None:
    error = ReplayMismatch(3, "a d6", "a d8")
    assert error.index == 3
    assert str(error) == "draw #3: recording holds a d6, the roll asked for a d8"


def test_unknown_ruleset_is_an_invalid_input() -> None:
    error = UnknownRuleset("ruleset", "nope", "one of a, b")
    assert error.field == "ruleset"
    assert str(error) == "ruleset: got 'nope'; expected one of a, b"


@pytest.mark.parametrize(
    "error",
    [
        InvalidInput("f", 1, "x"),
        LimitExceeded("f", 2, 1),
        RuleViolation("r", "d"),
        ContentError("s", "d"),
        ReplayMismatch(0, "a", "b"),
        UnknownRuleset("f", 1, "x"),
    ],
)
def test_every_error_derives_from_rulebound_error(error: Exception) -> None:
    assert isinstance(error, RuleboundError)
    with pytest.raises(RuleboundError):
        raise error


def test_hierarchy_details() -> None:
    assert issubclass(InvalidInput, ValueError)
    assert issubclass(LimitExceeded, InvalidInput)
    assert issubclass(UnknownRuleset, InvalidInput)
    assert issubclass(UnknownRuleset, ValueError)
    assert not issubclass(RuleViolation, ValueError)
    assert not issubclass(ContentError, InvalidInput)
    assert not issubclass(ReplayMismatch, InvalidInput)
    assert issubclass(RuleboundError, Exception)


# limits ---------------------------------------------------------------------------

CHECKS = [
    ("check_dice", "max_dice_per_roll"),
    ("check_modifier", "max_modifier"),
    ("check_enumeration", "max_enumeration"),
]


@pytest.mark.parametrize(("check", "cap_name"), CHECKS)
def test_each_check_passes_at_the_cap_and_fails_past_it(check: str, cap_name: str) -> None:
    cap = getattr(DEFAULT_LIMITS, cap_name)
    getattr(DEFAULT_LIMITS, check)("field", cap)
    with pytest.raises(LimitExceeded) as info:
        getattr(DEFAULT_LIMITS, check)("field", cap + 1)
    assert info.value.limit == cap
    assert info.value.field == "field"
    assert info.value.value == cap + 1


def test_modifier_cap_applies_to_both_signs() -> None:
    DEFAULT_LIMITS.check_modifier("bonus", -20)
    with pytest.raises(LimitExceeded) as info:
        DEFAULT_LIMITS.check_modifier("bonus", -21)
    assert info.value.value == -21
    assert info.value.limit == 20


def test_default_caps() -> None:
    expected = Limits(
        max_dice_per_roll=24,
        max_sides=1000,
        max_pushes=3,
        max_modifier=20,
        max_enumeration=2_000_000,
    )
    assert expected == DEFAULT_LIMITS


def test_custom_limits_are_honoured() -> None:
    tight = Limits(max_dice_per_roll=2, max_modifier=1, max_enumeration=10)
    tight.check_dice("dice", 2)
    with pytest.raises(LimitExceeded):
        tight.check_dice("dice", 3)
    with pytest.raises(LimitExceeded):
        tight.check_modifier("mod", 2)
    with pytest.raises(LimitExceeded):
        tight.check_enumeration("outcomes", 11)
    DEFAULT_LIMITS.check_dice("dice", 3)


def test_limits_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_LIMITS.max_dice_per_roll = 100  # type: ignore[misc]
