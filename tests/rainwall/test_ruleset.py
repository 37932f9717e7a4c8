"""The Ruleset protocol: key, variants, request parsing with precise errors, chances."""

from fractions import Fraction

import pytest

from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.base import CheckResult, Ruleset
from rulebound.rulesets.rainwall import RULESET, RainwallRequest
from rulebound.rulesets.rainwall.rules import MissIos, Options
from rulebound.rulesets.registry import BUILT_IN

GOOD = {"dice": 7, "skill": 5, "dr": 4, "bonus": 1}


def test_ruleset_protocol_and_registration() -> None:
    assert isinstance(RULESET, Ruleset)
    assert RULESET.key == "rainwall"
    assert RULESET.title == "Rainwall"
    assert {v.key for v in RULESET.variants} == {"success-face", "miss-ios", "barely"}
    assert "rulebound.rulesets.rainwall:RULESET" in BUILT_IN


def test_parse_request() -> None:
    request = RULESET.parse_request({**GOOD, "variants": {"miss-ios": "skip-zero"}})
    assert request == RainwallRequest(7, 5, 4, 1, Options(miss_ios=MissIos.SKIP_ZERO))


def test_bonus_defaults_to_zero() -> None:
    assert RULESET.parse_request({"dice": 1, "skill": 1, "dr": 1}).bonus == 0


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("dice", 0, "from 1 to 10"),
        ("dice", 11, "from 1 to 10"),
        ("skill", "5", "an integer"),
        ("skill", True, "an integer"),
        ("dr", 0, "from 1 to 99"),
        ("bonus", -1, "0 or more"),
    ],
)
def test_bad_values_name_field_value_and_expectation(
    field: str, value: object, expected: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        RULESET.parse_request({**GOOD, field: value})
    assert (caught.value.field, caught.value.value) == (field, value)
    assert expected in caught.value.expected


def test_missing_and_unknown_fields() -> None:
    with pytest.raises(InvalidInput) as caught:
        RULESET.parse_request({"dice": 3, "skill": 4})
    assert caught.value.field == "dr"
    with pytest.raises(InvalidInput) as caught:
        RULESET.parse_request({**GOOD, "trait": 3})
    assert caught.value.value == "trait"


def test_bonus_past_the_safety_cap() -> None:
    with pytest.raises(LimitExceeded) as caught:
        RULESET.parse_request({**GOOD, "bonus": 500})
    assert caught.value.field == "bonus"


def test_bad_variants() -> None:
    with pytest.raises(InvalidInput) as caught:
        RULESET.parse_request({**GOOD, "variants": ["miss-ios"]})
    assert caught.value.field == "variants"


def test_roll_through_the_protocol() -> None:
    result = RULESET.roll(RULESET.parse_request(GOOD), SeededSource(5))
    assert isinstance(result, CheckResult)
    assert len(result.provenance.draws) == 7


def test_chances_are_the_degrees_and_sum_to_one() -> None:
    chances = RULESET.chances(RULESET.parse_request(GOOD))
    assert set(chances) == {"critical", "success", "barely", "failure", "disaster", "flubbed"}
    assert sum(chances.values()) == 1
    assert chances["flubbed"] == Fraction(0)
