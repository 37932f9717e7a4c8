"""Situational modifiers: the stealth and negotiation factor lists, and specialty toggles."""

from __future__ import annotations

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.empty_reach.check import CheckRequest, PreparedCheck, prepare
from rulebound.rulesets.empty_reach.content import default_content
from rulebound.rulesets.empty_reach.rules import StepDie
from rulebound.rulesets.empty_reach.steps import Pool

CONTENT = default_content()
STEALTH = sorted(k for k, s in CONTENT.situations.items() if s.group == "stealth")
NEGOTIATION = sorted(k for k, s in CONTENT.situations.items() if s.group == "negotiation")
SITUATIONAL = sorted(s.name for s in CONTENT.specialties.values() if s.effect == "situational")


def described(check: PreparedCheck) -> list[str]:
    return [m.describe() for m in check.modifiers]


def test_factor_lists_have_the_seeds_shape() -> None:
    assert sorted(CONTENT.situations[k].value for k in STEALTH) == [-1, -1, 1, 1, 1, 1, 1]
    assert sorted(CONTENT.situations[k].value for k in NEGOTIATION) == [-1] * 4 + [1] * 5


@pytest.mark.parametrize("key", STEALTH)
def test_each_stealth_factor_applies_to_stealth_only(key: str) -> None:
    spec = CONTENT.situations[key]
    check = prepare(
        CheckRequest(attribute_die="D8", skill_die="D8", skill="Stealth", situations=(key,))
    )
    assert described(check) == [f"{spec.name}: {spec.value:+d}"]
    assert check.modifiers[0].kind == "stealth"
    with pytest.raises(InvalidInput) as error:
        prepare(CheckRequest(attribute_die="D8", skill="Persuasion", situations=(key,)))
    assert error.value.field == "situations"
    assert error.value.value == key
    assert "Stealth" in error.value.expected


@pytest.mark.parametrize("key", NEGOTIATION)
def test_each_negotiation_factor_applies_to_persuasion_only(key: str) -> None:
    spec = CONTENT.situations[key]
    check = prepare(
        CheckRequest(attribute_die="D8", skill_die="D8", skill="Persuasion", situations=(key,))
    )
    assert check.net == spec.value
    assert check.modifiers[0].source == spec.name
    with pytest.raises(InvalidInput, match="situations"):
        prepare(CheckRequest(attribute_die="D8", skill="Stealth", situations=(key,)))


def test_all_stealth_factors_together_sum() -> None:
    check = prepare(
        CheckRequest(attribute_die="D6", skill_die="D6", skill="Stealth", situations=tuple(STEALTH))
    )
    assert check.net == 5 - 2
    assert len(check.modifiers) == 7


def test_a_factor_twice_or_an_unknown_factor_is_rejected() -> None:
    with pytest.raises(InvalidInput, match="at most once"):
        prepare(
            CheckRequest(
                attribute_die="D8", skill="Stealth", situations=("stealth-dark", "stealth-dark")
            )
        )
    with pytest.raises(InvalidInput) as error:
        prepare(CheckRequest(attribute_die="D8", situations=("stealth-raining",)))
    assert error.value.field == "situations"
    assert "stealth-dark" in error.value.expected


def test_driver_gives_plus_one_on_mobility_when_the_character_has_it() -> None:
    check = prepare(
        CheckRequest(
            attribute_die="D8",
            skill_die="D6",
            skill="Mobility",
            specialties=("Driver",),
            situations=("specialty-driver",),
        )
    )
    assert check.net == 1
    assert check.modifiers[0].kind == "specialty"
    assert check.modifiers[0].source.startswith("specialty Driver")
    assert check.modifiers[0].describe().endswith(": +1")
    assert check.pool == Pool(StepDie.D8, StepDie.D8)


def test_driver_without_the_specialty_is_a_rule_violation() -> None:
    with pytest.raises(RuleViolation) as error:
        prepare(
            CheckRequest(attribute_die="D8", skill="Mobility", situations=("specialty-driver",))
        )
    assert "Driver" in str(error.value)


def test_driver_on_another_skill_is_rejected() -> None:
    with pytest.raises(InvalidInput, match="Mobility"):
        prepare(
            CheckRequest(
                attribute_die="D8",
                skill="Stealth",
                specialties=("Driver",),
                situations=("specialty-driver",),
            )
        )


@pytest.mark.parametrize("name", SITUATIONAL)
def test_every_situational_specialty_is_a_plus_one_toggle_on_its_skills(name: str) -> None:
    spec = CONTENT.specialty(name)
    for skill in spec.skills:
        check = prepare(
            CheckRequest(
                attribute_die="D8",
                skill=skill,
                specialties=(name,),
                situations=(spec.toggle_key,),
            )
        )
        assert [m.value for m in check.modifiers] == [1]
        assert check.modifiers[0].describe() == f"specialty {spec.name}: +1"
    other = next(s.name for s in CONTENT.skills.values() if s.name not in spec.skills)
    with pytest.raises(InvalidInput):
        prepare(
            CheckRequest(
                attribute_die="D8", skill=other, specialties=(name,), situations=(spec.toggle_key,)
            )
        )


def test_a_non_situational_specialty_is_no_toggle() -> None:
    with pytest.raises(InvalidInput, match="situation"):
        prepare(
            CheckRequest(
                attribute_die="D8",
                specialties=("Compassion",),
                situations=("specialty-compassion",),
            )
        )


def test_unknown_specialty_is_named() -> None:
    with pytest.raises(InvalidInput) as error:
        prepare(CheckRequest(attribute_die="D8", specialties=("Telepath",)))
    assert error.value.field == "specialty"
    assert "Second Wind" in error.value.expected
