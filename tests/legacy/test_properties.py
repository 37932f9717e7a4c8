"""Hypothesis properties of the character and combat functions."""

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.random_source import SeededSource
from rulebound.rulesets.legacy.character import LOCATIONS, Armour, Character
from rulebound.rulesets.legacy.checks import CheckRequest
from rulebound.rulesets.legacy.combat import death_save, take_fatigue
from rulebound.rulesets.legacy.content import PRIMARIES, catalogue
from rulebound.rulesets.legacy.creation import create_character
from rulebound.rulesets.legacy.damage import apply_damage
from rulebound.rulesets.legacy.fate import burn
from rulebound.rulesets.legacy.odds import opposed_chances
from rulebound.rulesets.legacy.opposed import OpposedOutcome
from rulebound.rulesets.legacy.progression import advance, gain_cor, gain_san, reduce
from rulebound.rulesets.legacy.recovery import long_rest, short_rest
from rulebound.rulesets.legacy.rules import characteristic_bonus

from .conftest import make_sheet

ORIGINS = sorted(catalogue().origins)
scores = st.integers(0, 60)
characters = st.builds(
    lambda con, stm, wounds, lck, fate, origin, armour, metal: make_sheet(
        scores={**make_sheet().scores, "CON": con, "STM": stm},
        wounds=min(wounds, stm),
        lck=lck,
        fate=fate,
        origin=origin,
        armour={"torso": Armour(physical=armour, metal=metal)},
    ),
    con=scores,
    stm=scores,
    wounds=st.integers(0, 60),
    lck=st.integers(0, 60),
    fate=st.integers(0, 6),
    origin=st.sampled_from(ORIGINS),
    armour=st.integers(0, 8),
    metal=st.booleans(),
)
hits = st.fixed_dictionaries(
    {
        "damage": st.integers(0, 200),
        "location": st.sampled_from(LOCATIONS),
        "damage_type": st.sampled_from(["", "fire", "poison", "negative"]),
        "critical_hit": st.booleans(),
        "whole_body": st.booleans(),
        "ignore": st.lists(st.sampled_from(["natural", "physical", "magical", "soak"])),
    }
)


@given(characters, hits)
def test_damage_never_raises_wounds_or_goes_negative(char: Character, hit: dict[str, Any]) -> None:
    change, report = apply_damage(char, **hit)
    after = change.character
    assert 0 <= after.current_wounds <= char.current_wounds or report.healed > 0
    assert after.current_wounds <= after.max_wounds
    assert report.through >= 0
    assert report.after_resistance >= 0
    assert report.wounds_lost >= 0
    assert report.through <= hit["damage"]
    assert all(after.critical.get(k, 0) >= v for k, v in char.critical.items())


@given(characters, st.integers(0, 200))
def test_more_armour_never_lets_more_through(char: Character, damage: int) -> None:
    bare = char.model_copy(update={"armour": {}})
    assert apply_damage(char, damage)[1].through <= apply_damage(bare, damage)[1].through


@given(characters, st.integers(0, 10))
def test_rests_never_exceed_maxima(char: Character, points: int) -> None:
    spend = min(points, char.current_rest_points)
    rested = short_rest(char, spend).character
    assert rested.current_wounds <= rested.max_wounds
    assert 0 <= rested.current_rest_points <= rested.max_rest_points
    slept = long_rest(rested).character
    assert slept.current_wounds <= slept.max_wounds
    assert slept.current_rest_points == slept.max_rest_points
    assert slept.fatigue_taken == 0


@given(characters, st.sampled_from(PRIMARIES), st.integers(1, 4), st.integers(0, 2**16))
def test_advances_keep_secondaries_non_decreasing(
    char: Character, code: str, times: int, seed: int
) -> None:
    source = SeededSource(seed)
    for _ in range(times):
        before = char
        char = advance(char, code, source).character
        assert all(char.scores[k] >= before.scores[k] for k in char.scores)
        assert all(char.max_bonus[p] >= char.bonus(p) for p in char.max_bonus)
    lowered = reduce(char, code, 10).character
    assert {k: v for k, v in lowered.scores.items() if k != code} == {
        k: v for k, v in char.scores.items() if k != code
    }


@given(characters)
def test_a_burn_never_leaves_fate_above_the_new_bonus(char: Character) -> None:
    if char.lck < 10 or char.fate < 1:
        return
    after = burn(char, SeededSource(0)).character
    extra = catalogue().origin(char.origin).bonus_fate
    assert after.lck == char.lck - 10
    assert after.fate <= characteristic_bonus(after.lck) + extra
    assert after.fate < char.fate


@given(characters, st.integers(0, 150), st.sampled_from(["san", "cor"]))
def test_threshold_events_match_the_thresholds_crossed(
    char: Character, amount: int, kind: str
) -> None:
    gain = gain_san if kind == "san" else gain_cor
    change = gain(char, amount, SeededSource(amount))
    new = getattr(change.character, kind)
    table = catalogue().tables.thresholds
    crossed = [t for t in (table.san if kind == "san" else table.cor) if 0 < t <= new]
    label = "disorder" if kind == "san" else "mutation"
    assert len([e for e in change.events if e.kind == label]) == len(crossed)
    assert change.character.unplayable == (new >= table.unplayable)


@given(st.integers(0, 2**32), st.sampled_from(sorted(catalogue().races)))
def test_creation_stays_inside_the_dice(seed: int, race_key: str) -> None:
    soul = next(
        s.key
        for s in catalogue().souls.values()
        if (not s.races or race_key in s.races)
        and race_key not in s.forbidden_races
        and not s.extra_affinities
    )
    change, _ = create_character(
        SeededSource(seed), name="P", race=race_key, origin="air", soul=soul
    )
    char, race = change.character, catalogue().race(race_key)
    shifts = {str(code): n for code, n in catalogue().origin("air").modifiers.items()}
    for code in PRIMARIES:
        shift = shifts.get(code, 0)
        assert 2 + race.base(code) + shift <= char.scores[code] <= 20 + race.base(code) + shift
    assert 2 + race.base_lck <= char.lck <= 20 + race.base_lck
    assert char.fate == characteristic_bonus(char.lck)


@given(characters, st.lists(st.integers(0, 6), max_size=5), st.integers(0, 2**16))
def test_fatigue_never_passes_its_capacity(char: Character, hits: list[int], seed: int) -> None:
    source = SeededSource(seed)
    for amount in hits:
        before = char
        char = take_fatigue(char, amount, source).character
        assert before.fatigue_taken <= char.fatigue_taken <= char.fatigue_capacity
        assert char.unconscious or not before.unconscious


@given(characters, st.integers(0, 2**16))
def test_death_saves_only_add_and_always_end(char: Character, seed: int) -> None:
    char = char.model_copy(update={"bleeding": True, "unconscious": True, "wounds": 0})
    source = SeededSource(seed)
    for _ in range(6):
        if not char.bleeding:
            break
        before = char
        char = death_save(char, source)[0].character
        assert char.death_successes >= before.death_successes
        assert char.death_failures >= before.death_failures
    assert not char.bleeding
    assert char.dead == (char.death_failures >= 3)


@given(st.integers(-5, 30), st.integers(-5, 30), st.integers(0, 4), st.integers(0, 4))
def test_opposed_odds_are_symmetric(ta: int, tb: int, ba: int, bb: int) -> None:
    a, b = CheckRequest(target=ta, bonus=ba), CheckRequest(target=tb, bonus=bb)
    forward, backward = opposed_chances(a, b), opposed_chances(b, a)
    assert forward[OpposedOutcome.WIN] == backward[OpposedOutcome.LOSS]
    assert forward[OpposedOutcome.TIE] == backward[OpposedOutcome.TIE]
