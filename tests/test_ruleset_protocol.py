"""Every registered ruleset honours the common protocol the CLI and the table rely on."""

from fractions import Fraction

import pytest

from rulebound.core import (
    InvalidInput,
    ReplaySource,
    SeededSource,
    UnknownRuleset,
    canonical_json,
    to_jsonable,
)
from rulebound.rulesets import CheckResult, Ruleset, all_rulesets, get_ruleset

SAMPLE_REQUESTS: dict[str, dict[str, object]] = {
    "empty-reach": {"attribute_die": "D8", "skill_die": "D10", "skill": "Force", "helpers": 1},
    "rainwall": {"dice": 7, "skill": 5, "dr": 4, "bonus": 3},
    "ghostburn": {
        "dl": "Hard",
        "ability_score": 3,
        "skill_bonus": 1,
        "gear": [{"name": "laser sight", "bonus": 1}],
    },
    "legacy": {"score": 35, "difficulty": "challenging"},
}

RULESETS = sorted(all_rulesets())


def test_the_four_games_are_registered() -> None:
    assert RULESETS == ["empty-reach", "ghostburn", "legacy", "rainwall"]


def test_unknown_key_names_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset) as error:
        get_ruleset("not-a-game")
    assert "empty-reach" in str(error.value)


@pytest.mark.parametrize("key", RULESETS)
def test_ruleset_implements_protocol(key: str) -> None:
    ruleset = get_ruleset(key)
    assert isinstance(ruleset, Ruleset)
    assert ruleset.key == key
    assert ruleset.title
    for variant in ruleset.variants:
        assert variant.default in variant.choices


@pytest.mark.parametrize("key", RULESETS)
def test_every_ruleset_has_a_sample(key: str) -> None:
    assert key in SAMPLE_REQUESTS, f"add a sample request for {key} to this test"


@pytest.mark.parametrize("key", RULESETS)
def test_bad_payload_is_invalid_input(key: str) -> None:
    with pytest.raises(InvalidInput) as error:
        get_ruleset(key).parse_request({"no_such_field": 1})
    assert error.value.field


@pytest.mark.parametrize("key", sorted(SAMPLE_REQUESTS))
def test_roll_replays_exactly_from_its_draws(key: str) -> None:
    ruleset = get_ruleset(key)
    request = ruleset.parse_request(SAMPLE_REQUESTS[key])
    for seed in range(20):
        result = ruleset.roll(request, SeededSource(seed))
        assert isinstance(result, CheckResult)
        assert result.headline
        replay_source = ReplaySource(result.provenance.draws)
        replayed = ruleset.roll(request, replay_source)
        assert replay_source.exhausted
        assert replayed.provenance.draws == result.provenance.draws
        assert _without_source(replayed) == _without_source(result)


def _without_source(result: object) -> str:
    """The result's canonical form, less the description of where faces came from."""
    body = to_jsonable(result)
    assert isinstance(body, dict)
    body.pop("provenance", None)
    return canonical_json(body)


@pytest.mark.parametrize("key", sorted(SAMPLE_REQUESTS))
def test_chances_are_probabilities(key: str) -> None:
    ruleset = get_ruleset(key)
    chances = ruleset.chances(ruleset.parse_request(SAMPLE_REQUESTS[key]))
    assert chances
    for probability in chances.values():
        assert isinstance(probability, Fraction)
        assert 0 <= probability <= 1
