"""Assisted checks: the helper lends advantage or proficiency, holds what it takes, never rolls."""

from collections.abc import Callable

import pytest

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.assist import assist
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, request_from_json, resolve, roll_check

Sheet = Callable[..., Character]


def d20(*faces: int) -> ReplaySource:
    return ReplaySource([Draw(20, f) for f in faces])


def test_advantage_assist_needs_the_relevant_skill_affinity(sheet: Sheet) -> None:
    actor, helper = sheet(name="Ann"), sheet(name="Bo", affinities=("medicine",))
    req = actor.check("INT", affinity="medicine")
    helped = assist(helper, req, affinity="medicine")
    assert helped.advantage
    assert not req.advantage
    assert helped.assists[0].helper == "Bo"
    with pytest.raises(RuleViolation, match=r"assisted check: Ann does not hold the Medicine"):
        assist(actor, req, affinity="medicine")


def test_the_helper_does_not_roll(sheet: Sheet) -> None:
    helper = sheet(name="Bo", affinities=("str",))
    helped = assist(helper, sheet().check("STR", scale="halved"))
    result = roll_check(helped, d20(18, 6))  # exactly the target's two advantage dice
    assert result.face == 6
    assert len(result.provenance.draws) == 2


def test_lent_proficiency_removes_the_harder_class_and_adds_the_helpers_rank(sheet: Sheet) -> None:
    actor = sheet(name="Ann")
    helper = sheet(name="Bo", affinities=("stealth",), rank=3)
    req = actor.check("DEX", affinity="stealth", difficulty="ordinary", scale="as-written")
    assert resolve(req).difficulty == "challenging"  # no affinity: one class harder
    helped = assist(helper, req, mode="proficiency", affinity="stealth")
    res = resolve(helped)
    assert res.difficulty == "ordinary"
    assert res.thresholds.target == 29 + 4 + 2  # DEX, rank 3 bonus, Ordinary
    assert "lent by Bo" in res.modifiers[0].source
    assert not helped.advantage


def test_lent_proficiency_avoids_the_untrained_penalty(sheet: Sheet) -> None:
    actor = sheet(name="Ann")
    pilot = sheet(name="Bo", proficiencies=("airship",), rank=5)
    req = actor.check("DEX", proficiency="airship", untrained_penalty=-4, scale="as-written")
    assert resolve(req).thresholds.target == 29 - 4
    helped = assist(pilot, req, mode="proficiency", proficiency="airship")
    assert resolve(helped).thresholds.target == 29 + 6
    with pytest.raises(RuleViolation, match="airship proficiency"):
        assist(actor, req, mode="proficiency", proficiency="airship")


def test_one_rank_bonus_per_check_the_higher_applies(sheet: Sheet) -> None:
    actor = sheet(affinities=("str",), rank=5)
    helper = sheet(name="Bo", affinities=("str",), rank=1)
    helped = assist(helper, actor.check("STR"), mode="proficiency")
    assert helped.rank == 5


def test_a_racial_grant_counts_and_advantage_does_not_stack(sheet: Sheet) -> None:
    drow = sheet(name="Vex", race="drow", soul="dark")  # Deceptive: as if Deception affinity
    req = sheet().check("CHA", affinity="deception")
    once = assist(drow, req, affinity="deception")
    twice = assist(drow.model_copy(update={"name": "Zil"}), once, affinity="deception")
    assert resolve(twice).edge == resolve(once).edge
    assert len(twice.assists) == 2


def test_bad_assists_are_named(sheet: Sheet) -> None:
    helper = sheet(name="Bo", affinities=("str",))
    with pytest.raises(RuleViolation, match="Bo is unconscious"):
        assist(helper.model_copy(update={"unconscious": True}), sheet().check("STR"))
    with pytest.raises(InvalidInput, match="mode"):
        assist(helper, sheet().check("STR"), mode="cheer")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="affinity: got None"):
        assist(helper, CheckRequest(target=12))
    with pytest.raises(InvalidInput, match="the skill affinity"):
        assist(helper, sheet().check("DEX", affinity="stealth"))
    with pytest.raises(InvalidInput, match="a check built from a score"):
        assist(helper, CheckRequest(target=12), mode="proficiency", affinity="str")


def test_an_assisted_request_survives_json(sheet: Sheet) -> None:
    helper = sheet(name="Bo", affinities=("str",), rank=3)
    helped = assist(helper, sheet().check("STR"), mode="proficiency")
    assert request_from_json(to_jsonable(helped)) == helped
