"""Rolls are pure, replayable records; the game loads and dumps the record's request."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.ghostburn.content import builtin_content
from rulebound.rulesets.ghostburn.game import GAME
from rulebound.rulesets.ghostburn.request import Check, CheckRequest, raw_request
from rulebound.rulesets.ghostburn.roll import roll
from rulebound.rulesets.ghostburn.rules import classify


def load(payload: dict[str, Any]) -> CheckRequest:
    return GAME.load({"request": payload}).request


def test_game_key_and_variants() -> None:
    assert GAME.key == "ghostburn"
    assert {v.key for v in GAME.variants} == {"off-ladder-dl", "bottom-fade"}


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


def test_a_result_is_frozen_and_carries_its_draws() -> None:
    result = roll(raw_request(builtin_content(), dl=14), SeededSource(7))
    assert result.headline
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


def test_load_builds_a_character_check(sheet: dict[str, Any]) -> None:
    request = load({"character": sheet, "trick": "stare-down", "traits": {"resolve": 17}})
    assert request.difficulty.value == 17
    assert request.roller == "Vex"
    assert request.pool is not None
    assert (request.pool.points, request.pool.bonus) == (2, 3)


def test_load_builds_a_raw_check_with_a_variant() -> None:
    request = load(
        {
            "ability_score": 2,
            "gear": [{"name": "g", "bonus": 1}],
            "dl": 17,
            "dl_shift": 1,
            "variants": {"off-ladder-dl": "snap-to-ladder"},
        }
    )
    assert (request.modifier, request.difficulty.label) == (3, "Hard (20)")
    assert request.pool is None


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "dl"),
        ({"dl": 14, "bonus": 3}, "request.bonus"),
        ({"dl": 14, "trick": "aimed-shot"}, "trick"),
        ({"character": {}, "skill_bonus": 1, "skill": "drive"}, "skill_bonus"),
        ({"character": {}, "luck_bonus": 1, "skill": "drive"}, "luck_bonus"),
        ({"dl": 14, "variants": {"house": "x"}}, "variants.house"),
        ({"dl": 14, "variants": {"bottom-fade": "x"}}, "variants.bottom-fade"),
        ({"dl": 14, "luck_bonus": 0}, "luck_bonus"),
    ],
)
def test_load_errors_name_the_field(payload: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        load(payload)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "record.request"),
        ({"request": {"dl": 14}, "extra": 1}, "record.extra"),
        ({"request": {"dl": 14}, "set_aside": ["scope"]}, "record.set_aside.0"),
    ],
)
def test_a_bad_roll_record_names_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        GAME.load(data)
    assert err.value.field == field


def test_chances_cover_every_band_and_success() -> None:
    check = Check({}, raw_request(builtin_content(), dl="Hard", ability_score=6))
    chances = GAME.chances(check)
    assert [o.key for o in chances.outcomes] == ["success", "fade", "failure"]
    assert sum(o.probability for o in chances.outcomes) == 1
    assert chances.outcome("success") == chances.success
