"""Affinity tiers and XP, proficiency checks and penalties, and the affinity-bonus variant."""

from collections.abc import Callable
from fractions import Fraction

import pytest
from pydantic import ValidationError

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.advancement import (
    Tier,
    XpCosts,
    affinity_tier,
    gain_xp,
    partner,
    purchase_advance,
)
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, request_from_json, resolve
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.odds import p_success

Sheet = Callable[..., Character]
COSTS = XpCosts(unfamiliar=300, familiar=200, innate=100)


def test_tiers_follow_the_characteristic_and_its_pair(sheet: Sheet) -> None:
    assert partner("DEX") == "BLS"
    assert partner("BLS") == "DEX"
    char = sheet(affinities=("dex", "bls", "str"))
    assert affinity_tier(char, "DEX") is Tier.INNATE
    assert affinity_tier(char, "BLS") is Tier.INNATE
    assert affinity_tier(char, "STR") is Tier.FAMILIAR
    assert affinity_tier(char, "WPN") is Tier.UNFAMILIAR  # the pair alone is not enough
    assert affinity_tier(char, "CON") is Tier.UNFAMILIAR
    with pytest.raises(InvalidInput, match="characteristic: got 'LCK'"):
        partner("LCK")


def test_an_advance_costs_the_tier_price_in_xp(sheet: Sheet) -> None:
    char = gain_xp(sheet(affinities=("str",), max_bonus={"STR": 3}), 250).character
    bought = purchase_advance(char, "STR", COSTS, ReplaySource([Draw(10, 6)]))
    assert (bought.character.xp, bought.character.scores["STR"]) == (50, 39)
    assert bought.events[0].kind == "xp spent"
    with pytest.raises(RuleViolation, match="CON is unfamiliar: costs 300 XP, 250 held"):
        purchase_advance(char, "CON", COSTS, ReplaySource([]))
    with pytest.raises(ValidationError, match="unfamiliar >= familiar >= innate"):
        XpCosts(unfamiliar=100, familiar=200, innate=50)


def test_a_proficiency_check_adds_the_rank_or_takes_the_items_penalty(sheet: Sheet) -> None:
    trained = sheet(proficiencies=("crossbow",), rank=3)
    req = trained.check("BLS", proficiency="crossbow", untrained_penalty=-4, scale="as-written")
    assert resolve(req).thresholds.target == 22 + 4
    assert req.label == "crossbow proficiency (BLS)"
    untrained = sheet().check(
        "BLS", proficiency="crossbow", untrained_penalty=-4, scale="as-written"
    )
    res = resolve(untrained)
    assert res.thresholds.target == 22 - 4
    assert [m.kind for m in res.modifiers] == ["untrained", "difficulty"]
    assert res.difficulty == "challenging"  # not a skill check: no harder class
    d100 = resolve(sheet().check("BLS", proficiency="crossbow", untrained_penalty=-4, scale="d100"))
    assert d100.thresholds.target == 22 - 20


def test_penalties_are_checked(sheet: Sheet) -> None:
    with pytest.raises(InvalidInput, match="untrained_penalty: got 3"):
        CheckRequest(score=30, untrained_penalty=3)
    with pytest.raises(InvalidInput, match="unless a proficiency is named"):
        sheet().check("BLS", untrained_penalty=-2)


def test_a_characteristic_affinity_is_tested_against_its_own_characteristic(sheet: Sheet) -> None:
    char = sheet(affinities=("str",))
    assert char.check("STR", affinity="str").rank == 1
    with pytest.raises(InvalidInput, match="always tested against its own characteristic"):
        char.check("DEX", affinity="str")


def test_the_affinity_bonus_variant_reads_five_per_rank(sheet: Sheet) -> None:
    assert "affinity_bonus" in [v.key for v in GAME.variants]
    table = resolve(CheckRequest(score=30, rank=3, scale="as-written"))
    five = resolve(
        CheckRequest(score=30, rank=3, scale="as-written", affinity_bonus="five-per-rank")
    )
    assert (table.thresholds.target, five.thresholds.target) == (34, 45)
    halved = resolve(CheckRequest(score=30, rank=3, scale="halved", affinity_bonus="five-per-rank"))
    assert halved.thresholds.target == 15 + 7
    d100 = resolve(CheckRequest(score=30, rank=3, scale="d100", affinity_bonus="five-per-rank"))
    assert d100.thresholds.target == 45
    assert p_success(
        CheckRequest(score=30, rank=3, scale="d100", affinity_bonus="five-per-rank")
    ) == (Fraction(45, 100))
    with pytest.raises(InvalidInput, match="affinity_bonus: got 'double'"):
        CheckRequest(score=30, affinity_bonus="double")
    assert sheet(affinities=("str",)).check(
        "STR", affinity_bonus="five-per-rank"
    ).affinity_bonus == ("five-per-rank")


def test_the_request_json_takes_the_new_fields() -> None:
    req = request_from_json(
        {
            "score": 30,
            "untrained_penalty": -2,
            "assists": [{"helper": "Bo", "mode": "advantage", "relevant": "STR affinity"}],
        }
    )
    assert req.untrained_penalty == -2
    assert req.assists[0].helper == "Bo"
    with pytest.raises(InvalidInput, match="untrained_penalty"):
        request_from_json({"score": 30, "untrained_penalty": 5})
