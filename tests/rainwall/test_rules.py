"""The rules table: success faces, costs, IoS, degrees and their precedence, variants."""

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.rules import BarelyRule, Degree, MissIos, Options, SuccessFace

DEFAULT = Options()
STRICT = Options(success_face=SuccessFace.STRICTLY_UNDER)
SKIP = Options(miss_ios=MissIos.SKIP_ZERO)
IOS_FIRST = Options(barely=BarelyRule.BELOW_CRITICAL)


@pytest.mark.parametrize(("face", "skill", "cost"), [(5, 5, 0), (1, 5, 0), (6, 5, 1), (10, 5, 5)])
def test_cost_is_value_minus_skill_at_or_under(face: int, skill: int, cost: int) -> None:
    assert rules.cost(face, skill, DEFAULT) == cost


def test_strictly_under_makes_the_skill_face_a_failure_costing_one() -> None:
    assert rules.cost(5, 5, STRICT) == 1
    assert rules.cost(4, 5, STRICT) == 0
    assert rules.highest_success_face(1, STRICT) == 0


@pytest.mark.parametrize(
    ("successes", "dr", "continuous", "skip_zero"),
    [(4, 4, 1, 1), (5, 4, 2, 2), (7, 4, 4, 4), (3, 4, 0, -1), (2, 4, -1, -2), (0, 4, -3, -4)],
)
def test_ios_both_readings(successes: int, dr: int, continuous: int, skip_zero: int) -> None:
    assert rules.ios(successes, dr, DEFAULT) == continuous
    assert rules.ios(successes, dr, SKIP) == skip_zero


@pytest.mark.parametrize(
    ("raw", "final", "dr", "expected"),
    [
        (4, 4, 4, Degree.BASIC),  # IoS 1, the text's Basic Success
        (5, 5, 4, Degree.SUCCESS),  # IoS 2
        (6, 6, 4, Degree.CRITICAL),  # IoS 3
        (3, 4, 4, Degree.BARELY),
        (3, 3, 4, Degree.FAILURE),  # IoS 0
        (1, 1, 4, Degree.FAILURE),  # IoS -2
        (0, 0, 4, Degree.DISASTER),  # IoS -3
        (0, 1, 4, Degree.FAILURE),  # bonus points lifted it out of disaster
    ],
)
def test_degrees_by_default(raw: int, final: int, dr: int, expected: Degree) -> None:
    assert rules.degree(raw, final, dr, False, DEFAULT, dice=7) is expected


def test_skip_zero_reaches_disaster_one_success_sooner() -> None:
    assert rules.degree(1, 1, 4, False, DEFAULT, dice=10) is Degree.FAILURE
    assert rules.degree(1, 1, 4, False, SKIP, dice=10) is Degree.DISASTER


def test_barely_overrides_critical_unless_the_variant_says_otherwise() -> None:
    assert rules.degree(3, 6, 4, False, DEFAULT, dice=10) is Degree.BARELY
    assert rules.degree(3, 6, 4, False, IOS_FIRST, dice=10) is Degree.CRITICAL
    assert rules.degree(3, 5, 4, False, IOS_FIRST, dice=10) is Degree.BARELY


def test_flubbed_beats_any_count() -> None:
    assert rules.degree(10, 10, 1, True, DEFAULT, dice=10) is Degree.FLUBBED
    assert not Degree.FLUBBED.succeeded


@pytest.mark.parametrize(
    ("trait", "skill", "tens", "flub"),
    [
        (10, 10, 3, True),
        (10, 10, 10, True),
        (10, 10, 2, False),
        (9, 10, 3, False),
        (10, 9, 3, False),
    ],
)
def test_flub_needs_trait_10_skill_10_and_three_tens(
    trait: int, skill: int, tens: int, flub: bool
) -> None:
    assert rules.is_flub(trait, skill, tens) is flub


def test_success_degrees() -> None:
    assert {d for d in Degree if d.succeeded} == {
        Degree.CRITICAL,
        Degree.SUCCESS,
        Degree.BASIC,
        Degree.BARELY,
    }
    assert Degree.BARELY.label == "Barely Succeeding"
    assert Degree.BASIC.label == "Basic Success"


def test_variants_match_options_defaults() -> None:
    assert {v.key: v.default for v in rules.VARIANTS} == DEFAULT.as_mapping()
    for variant in rules.VARIANTS:
        assert variant.default in variant.choices
        for choice in variant.choices:
            assert Options.from_mapping({variant.key: choice}).as_mapping()[variant.key] == choice


def test_options_reject_unknown_key_and_choice() -> None:
    with pytest.raises(InvalidInput, match="variants: got 'colour'"):
        Options.from_mapping({"colour": "red"})
    with pytest.raises(InvalidInput) as caught:
        Options.from_mapping({"miss-ios": "zero"})
    assert caught.value.field == "variants.miss-ios"
    assert "continuous" in caught.value.expected
