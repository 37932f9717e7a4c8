"""Rolls are pure, replayable records that satisfy the common protocols."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.base import CheckResult, Ruleset
from rulebound.rulesets.ghostburn import RULESET
from rulebound.rulesets.ghostburn.content import builtin_content
from rulebound.rulesets.ghostburn.request import raw_request
from rulebound.rulesets.ghostburn.roll import roll
from rulebound.rulesets.ghostburn.rules import classify


def test_ruleset_satisfies_the_protocol() -> None:
    assert isinstance(RULESET, Ruleset)
    assert RULESET.key == "ghostburn"
    assert {v.key for v in RULESET.variants} == {"off-ladder-dl", "bottom-fade"}


@given(seed=st.integers(min_value=0, max_value=2**64), modifier=st.integers(0, 12))
def test_replaying_the_provenance_reproduces_the_result(seed: int, modifier: int) -> None:
    request = raw_request(builtin_content(), dl="Hard", ability_score=modifier)
    result = roll(request, SeededSource(seed))
    replay = ReplaySource(result.provenance.draws)
    replayed = roll(request, replay)
    assert replay.exhausted
    assert replayed.provenance.draws == result.provenance.draws
    # Only the source's description differs ("replay" rather than "seeded").
    assert dataclasses.replace(replayed, provenance=result.provenance) == result


def test_a_result_is_a_frozen_check_result() -> None:
    result = roll(raw_request(builtin_content(), dl=14), SeededSource(7))
    assert isinstance(result, CheckResult)
    assert result.provenance.draws == tuple(Draw(10, die.face) for die in result.dice)
    assert dict(result.provenance.source) == {"kind": "seeded", "seed": "7"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.total = 99  # type: ignore[misc]


@pytest.mark.parametrize(
    ("faces", "succeeded", "headline"),
    [((10, 4), True, "Success: 20 vs Hard (20)"), ((10, 3), False, "Fade: 19 vs Hard (20)")],
)
def test_total_band_and_headline(faces: tuple[int, int], succeeded: bool, headline: str) -> None:
    request = raw_request(
        builtin_content(), dl="Hard", ability_score=3, skill_bonus=1, gear=[("g", 2)]
    )
    result = roll(request, ReplaySource(Draw(10, f) for f in faces))
    assert result.total == sum(faces) + 6
    assert (result.succeeded, result.headline) == (succeeded, headline)
    assert result.band == classify(result.total, request.difficulty, request.chart)


def test_parse_request_builds_a_character_check(sheet: dict[str, Any]) -> None:
    request = RULESET.parse_request(
        {"character": sheet, "trick": "stare-down", "traits": {"resolve": 17}}
    )
    assert request.difficulty.value == 17
    assert request.roller == "Vex"


def test_parse_request_builds_a_raw_check_with_a_variant() -> None:
    request = RULESET.parse_request(
        {
            "ability_score": 2,
            "gear": [{"name": "g", "bonus": 1}],
            "dl": 17,
            "dl_shift": 1,
            "variants": {"off-ladder-dl": "snap-to-ladder"},
        }
    )
    assert (request.modifier, request.difficulty.label) == (3, "Hard (20)")


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "dl"),
        ({"dl": 14, "bonus": 3}, "request.bonus"),
        ({"dl": 14, "trick": "aimed-shot"}, "trick"),
        ({"character": {}, "skill_bonus": 1, "skill": "drive"}, "skill_bonus"),
        ({"dl": 14, "variants": {"house": "x"}}, "variant"),
        ({"dl": 14, "variants": {"bottom-fade": "x"}}, "variant bottom-fade"),
    ],
)
def test_parse_request_errors_name_the_field(payload: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        RULESET.parse_request(payload)
    assert err.value.field == field


def test_chances_cover_every_band_and_success() -> None:
    chances = RULESET.chances(raw_request(builtin_content(), dl="Hard", ability_score=6))
    assert set(chances) == {"p_success", "success", "fade", "failure"}
    assert chances["success"] + chances["fade"] + chances["failure"] == 1
