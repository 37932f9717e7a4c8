"""Every list and worked statement in the seed text, as data and as behaviour."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.content import default_content
from rulebound.rulesets.empty_reach.odds import gear_loss_distribution
from rulebound.rulesets.empty_reach.opposed import roll_opposed
from rulebound.rulesets.empty_reach.roll import push, roll_check
from rulebound.rulesets.empty_reach.rules import (
    GEAR_CHECK_SIDES,
    GEAR_LOSS_FACES,
    MAX_HELPERS,
    StepDie,
)
from rulebound.rulesets.empty_reach.steps import Pool, apply_steps

from .conftest import Scripted

CONTENT = default_content()

SKILLS = {
    "Force": "Strength",
    "Melee": "Strength",
    "Stamina": "Strength",
    "Marksmanship": "Agility",
    "Mobility": "Agility",
    "Stealth": "Agility",
    "Crafting": "Wits",
    "Observation": "Wits",
    "Survival": "Wits",
    "Healing": "Empathy",
    "Insight": "Empathy",
    "Persuasion": "Empathy",
}

SPECIALTIES = {
    "Biogineer": ("situational", ("Crafting",)),
    "Bodyguard": ("narrative", ()),
    "Compassion": ("extra-push", "Empathy"),
    "Crystineer": ("situational", ("Crafting",)),
    "Driver": ("situational", ("Mobility",)),
    "Engineer": ("situational", ("Crafting",)),
    "Fast Reflexes": ("narrative", ()),
    "Field Surgeon": ("situational", ("Healing",)),
    "Flyweight": ("swap", ("Melee", "Agility")),
    "Gut Feeling": ("swap", ("Observation", "Empathy")),
    "Hardened": ("max-resolve", 3),
    "Hard Hitter": ("situational", ("Melee",)),
    "Healer": ("narrative", ()),
    "Inquisitive": ("extra-push", "Wits"),
    "Killer": ("roll-twice", ()),
    "Lucky": ("roll-twice", ()),
    "Menacing": ("swap", ("Persuasion", "Strength")),
    "Merciless": ("narrative", ()),
    "Musician": ("situational", ("Persuasion",)),
    "Pack Mule": ("narrative", ()),
    "Pilot": ("situational", ("Mobility",)),
    "Psychic": ("narrative", ()),
    "Quick Draw": ("narrative", ()),
    "Rider": ("situational", ("Mobility",)),
    "Reckless": ("extra-push", "Agility"),
    "Second Wind": ("second-wind", ()),
    "Sniper": ("situational", ("Marksmanship",)),
    "Tough": ("max-health", 3),
    "True Grit": ("extra-push", "Strength"),
    "Weapon Specialist": ("situational", ("Melee", "Marksmanship")),
}


def test_the_four_attributes_and_what_a_bane_costs() -> None:
    assert [a.name for a in CONTENT.attributes.values()] == [
        "Strength",
        "Agility",
        "Wits",
        "Empathy",
    ]
    assert {a.name: a.cost for a in CONTENT.attributes.values()} == {
        "Strength": "damage",
        "Agility": "damage",
        "Wits": "stress",
        "Empathy": "stress",
    }


def test_the_twelve_core_skills_with_their_attributes() -> None:
    assert {s.name: s.attribute for s in CONTENT.skills.values()} == SKILLS
    assert [s.name for s in CONTENT.skills.values()] == list(SKILLS)


def test_every_specialty_in_the_seed_is_data_with_its_mechanic() -> None:
    assert sorted(s.name for s in CONTENT.specialties.values()) == sorted(SPECIALTIES)
    for name, (effect, detail) in SPECIALTIES.items():
        spec = CONTENT.specialty(name)
        assert spec.effect == effect, name
        assert spec.summary, name
        if effect == "situational":
            assert spec.skills == detail, name
        elif effect == "extra-push":
            assert spec.attribute == detail, name
        elif effect == "swap":
            assert (spec.skill, spec.attribute) == detail, name
        elif effect in ("max-health", "max-resolve"):
            assert spec.repeatable == detail, name
    assert CONTENT.specialty("Weapon Specialist").repeatable > 1


def test_stealth_factors() -> None:
    stealth = [s for s in CONTENT.situations.values() if s.group == "stealth"]
    plus = sorted(s.name for s in stealth if s.value == 1)
    minus = sorted(s.name for s in stealth if s.value == -1)
    assert len(plus) == 5
    assert len(minus) == 2
    for words in ("blend", "dark", "fog", "crowd", "distracted"):
        assert any(words in name.lower() for name in plus), words
    for words in ("stand out", "nothing to hide"):
        assert any(words in name.lower() for name in minus), words
    assert all(s.skills == ("Stealth",) for s in stealth)


def test_negotiating_position_factors() -> None:
    factors = [s for s in CONTENT.situations.values() if s.group == "negotiation"]
    plus = [s.name.lower() for s in factors if s.value == 1]
    minus = [s.name.lower() for s in factors if s.value == -1]
    assert len(plus) == 5
    assert len(minus) == 4
    for words in ("costs", "damage or stress", "custody", "helped", "present"):
        assert any(words in name for name in plus), words
    for words in ("serious risk", "nothing to gain", "held captive", "understanding"):
        assert any(words in name for name in minus), words
    assert all(s.skills == ("Persuasion",) for s in factors)


def test_success_thresholds(scripted: type[Scripted]) -> None:
    # "6 or higher on at least one base die"; "10 or higher ... counts as two successes"
    check = prepare(CheckRequest(attribute_die="D12", skill_die="D10"))
    assert roll_check(check, scripted(5, 6)).successes == 1
    assert roll_check(check, scripted(10, 2)).successes == 2
    assert roll_check(check, scripted(12, 10)).successes == 4
    assert roll_check(check, scripted(5, 5)).successes == 0


def test_help_from_at_most_three() -> None:
    assert MAX_HELPERS == 3
    assert prepare(CheckRequest(attribute_die="D6", helpers=3)).net == 3
    with pytest.raises(InvalidInput, match="helpers"):
        prepare(CheckRequest(attribute_die="D6", helpers=4))


def test_step_statements() -> None:
    d6, d8, _d10, d12 = StepDie.D6, StepDie.D8, StepDie.D10, StepDie.D12
    # "You can never go above two D12s, no matter what modifiers you have."
    assert apply_steps(Pool(d12, d8), 10)[0] == Pool(d12, d12)
    # "To downstep past two D6s, remove one die. You can never go below one D6."
    assert apply_steps(Pool(d6, d6), -1)[0] == Pool(d6)
    assert apply_steps(Pool(d6, d6), -10)[0] == Pool(d6)
    # "If you lack a skill level ... step up by adding a D6 ... and step it up further"
    assert apply_steps(Pool(d8), 1)[0] == Pool(d8, d6)
    assert apply_steps(Pool(d8), 3)[0] == Pool(d8, StepDie.D10)
    # "step up a lower base die first, and downstep a higher base die"
    assert apply_steps(Pool(d6, d12), 1)[0] == Pool(d8, d12)
    assert apply_steps(Pool(d6, d12), -1)[0] == Pool(d6, StepDie.D10)


def test_push_statements(scripted: type[Scripted]) -> None:
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D8", skill="Force"))
    result = roll_check(check, scripted(1, 4))
    # "re-roll any dice that don't show the result of 1"; a bane "can never be re-rolled"
    assert result.rerollable() == (1,)
    pushed = push(result, scripted(6))
    # "All dice count after the push"
    assert (pushed.successes, pushed.banes) == (1, 1)
    # "You can only push a skill roll once."
    with pytest.raises(RuleViolation):
        push(pushed, scripted(6))


def test_passive_observation_cannot_be_pushed(scripted: type[Scripted]) -> None:
    check = prepare(CheckRequest(attribute_die="D8", skill="Observation", unpushable="passive"))
    with pytest.raises(RuleViolation):
        push(roll_check(check, scripted(3)), scripted(4))


def test_two_in_six_gear_chance() -> None:
    assert GEAR_CHECK_SIDES == 6
    assert frozenset({1, 2}) == GEAR_LOSS_FACES
    assert gear_loss_distribution(1, 3).probability(1) == Fraction(1, 3)
    assert gear_loss_distribution(2, 1).probabilities() == {0: Fraction(4, 9), 1: Fraction(5, 9)}
    assert gear_loss_distribution(3, 0).probabilities() == {0: Fraction(1)}


@pytest.mark.parametrize(
    ("active", "defender"), [("Persuasion", "Insight"), ("Stealth", "Observation")]
)
def test_the_seeds_opposed_pairs(scripted: type[Scripted], active: str, defender: str) -> None:
    a = prepare(CheckRequest(attribute_die="D8", skill_die="D8", skill=active))
    d = prepare(CheckRequest(attribute_die="D8", skill_die="D8", skill=defender))
    contest = roll_opposed(a, d, scripted(6, 7, 8, 2))
    # "Every success rolled by your adversary eliminates one of your successes."
    assert contest.net == 1
    assert contest.verdict == "win"
