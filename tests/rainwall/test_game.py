"""Rainwall behind the game contract: key, variants, request loading with precise errors,
typed chances."""

from collections.abc import Mapping
from fractions import Fraction

import pytest

from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.contract import Game
from rulebound.rulesets.rainwall import RainwallRequest
from rulebound.rulesets.rainwall.game import GAME
from rulebound.rulesets.rainwall.rules import MissIos, Options
from rulebound.rulesets.registry import BUILT_IN

GOOD = {"dice": 7, "skill": 5, "dr": 4, "bonus": 1}


def load(request: Mapping[str, object]) -> RainwallRequest:
    return GAME.load({"request": request})


def test_game_contract_and_registration() -> None:
    assert isinstance(GAME, Game)
    assert GAME.key == "rainwall"
    assert GAME.title == "Rainwall"
    assert {v.key for v in GAME.variants} == {"success-face", "miss-ios", "barely"}
    assert BUILT_IN["rainwall"][1] == "rulebound.rulesets.rainwall.game:GAME"


def test_load_request() -> None:
    request = load({**GOOD, "variants": {"miss-ios": "skip-zero"}})
    assert request == RainwallRequest(7, 5, 4, 1, Options(miss_ios=MissIos.SKIP_ZERO))
    assert GAME.load(GAME.dump(request)) == request


def test_bonus_defaults_to_zero() -> None:
    assert load({"dice": 1, "skill": 1, "dr": 1}).bonus == 0


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
        load({**GOOD, field: value})
    assert (caught.value.field, caught.value.value) == (field, value)
    assert expected in caught.value.expected


def test_missing_and_unknown_fields() -> None:
    with pytest.raises(InvalidInput) as caught:
        load({"dice": 3, "skill": 4})
    assert caught.value.field == "dr"
    with pytest.raises(InvalidInput) as caught:
        load({**GOOD, "trait": 3})
    assert caught.value.value == "trait"


def test_bonus_past_the_safety_cap() -> None:
    with pytest.raises(LimitExceeded) as caught:
        load({**GOOD, "bonus": 500})
    assert caught.value.field == "bonus"


def test_bad_variants() -> None:
    with pytest.raises(InvalidInput) as caught:
        load({**GOOD, "variants": ["miss-ios"]})
    assert caught.value.field == "variants"


def test_roll_through_the_contract() -> None:
    result = GAME.roll(load(GOOD), SeededSource(5))
    assert result.succeeded in (True, False)
    assert len(result.provenance.draws) == 7


def test_chances_are_the_degrees_and_sum_to_one() -> None:
    chances = GAME.chances(load(GOOD))
    keys = [o.key for o in chances.outcomes]
    assert keys == ["critical", "success", "basic", "barely", "failure", "disaster", "flubbed"]
    assert sum(o.probability for o in chances.outcomes) == 1
    assert chances.outcome("flubbed") == Fraction(0)
    assert chances.success == sum(o.probability for o in chances.outcomes[:4])
    successes = dict(next(b for b in chances.breakdowns if b.key == "successes").values)
    expected = sum(int(n) * p for n, p in successes.items())
    assert chances.extra("expected_successes") == expected
