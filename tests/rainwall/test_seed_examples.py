"""Every example in the rule text, as our rulings read it (docs/rulings/rainwall.md)."""

import pytest

from rulebound.core.errors import RuleViolation
from rulebound.core.trace import Provenance
from rulebound.rulesets.rainwall.bonus import checked_allocation, optimal_allocation
from rulebound.rulesets.rainwall.character import load_character, request_for
from rulebound.rulesets.rainwall.content import builtin_catalogue
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import RainwallResult, evaluate, reallocate
from rulebound.rulesets.rainwall.rules import Degree

NO_DRAWS = Provenance(())
PICKER = {
    "name": "Picker",
    "traits": {"Dexterity": 7},
    "skills": {"Lockpicking": {"score": 5}},
}


def check(faces: tuple[int, ...], bonus: int = 0, dr: int = 4, skill: int = 5) -> RainwallResult:
    request = RainwallRequest(dice=len(faces), skill=skill, dr=dr, bonus=bonus)
    allocation = optimal_allocation(faces, skill, bonus, request.options)
    return evaluate(request, faces, allocation, NO_DRAWS)


def test_lockpicking_rolls_dexterity_dice_against_the_skill() -> None:
    request = request_for(load_character(PICKER, builtin_catalogue()), "Lockpicking", dr=4)
    assert (request.dice, request.skill, request.dr) == (7, 5, 4)
    assert request.trait_name == "Dexterity"


def test_five_or_lower_succeeds_for_skill_five() -> None:
    assert check((5, 6, 6, 6, 6, 6, 6), dr=1).raw_successes == 1


def test_five_successes_against_dr_4_is_a_success() -> None:
    result = check((1, 2, 3, 4, 5, 8, 9))
    assert result.successes == 5
    assert result.degree is Degree.SUCCESS  # IoS 2 has no name in the text (the rulings)
    assert result.ios == 2  # "5 successes for a DR of 4 gives you an IoS of 2"


def test_three_successes_against_dr_4_fails() -> None:
    result = check((1, 3, 5, 7, 8, 9, 10))
    assert result.successes == 3
    assert not result.succeeded


def test_plus_one_turns_a_six_into_a_five_and_barely_succeeds() -> None:
    result = check((2, 3, 5, 6, 8, 9, 10), bonus=1)
    assert (result.raw_successes, result.successes) == (3, 4)
    assert result.degree is Degree.BARELY
    assert [s.description for s in result.steps] == ["d4: 6 -> 5 (bonus 1)"]
    assert result.ios == 1  # "Meeting the DR exact is an IoS of 1"


EIGHT_LISTED = (9, 9, 8, 7, 6, 6, 5, 1)


@pytest.mark.parametrize("stray", [0, 1, 2, 3])
def test_eight_dice_example_read_as_seven_dice_with_one_stray_high_die(stray: int) -> None:
    # Ruling: the roll has 7 dice; any of 9, 9, 8, 7 may be the extra one, and
    # the verdict does not depend on which.
    faces = EIGHT_LISTED[:stray] + EIGHT_LISTED[stray + 1 :]
    result = check(faces, bonus=3)
    assert result.raw_successes == 2  # "only two dice succeeded"
    assert result.successes == 4
    assert result.degree is Degree.BARELY
    # the cheapest spend moves each 6 to a 5 and keeps one point back
    assert result.final_faces[-4:] == (5, 5, 5, 1)
    assert result.unspent == 1


def test_eight_dice_example_as_written_by_the_seed_is_a_legal_override() -> None:
    faces = (9, 8, 7, 6, 6, 5, 1)
    optimal = check(faces, bonus=3)
    seed_spend = reallocate(optimal, (0, 0, 0, 2, 1, 0, 0))  # 6 -> 4 and 6 -> 5
    assert seed_spend.final_faces == (9, 8, 7, 4, 5, 5, 1)
    assert seed_spend.degree is Degree.BARELY
    assert seed_spend.successes == optimal.successes
    assert seed_spend.parent is optimal
    assert seed_spend.unspent == 0


def test_reading_all_eight_listed_dice_gives_the_same_verdict() -> None:
    assert check(EIGHT_LISTED, bonus=3).degree is Degree.BARELY


@pytest.mark.parametrize("split", [(3, 0, 0), (1, 2, 0), (1, 1, 1)])
def test_a_plus_three_bonus_moves_one_die_three_steps_or_splits(split: tuple[int, ...]) -> None:
    assert checked_allocation((7, 8, 9), 3, split) == split


def test_a_plus_three_bonus_cannot_buy_four_steps() -> None:
    with pytest.raises(RuleViolation, match="spent 4 but the bonus is \\+3"):
        checked_allocation((7, 8, 9), 3, (2, 2, 0))


def test_three_steps_on_one_die_turn_a_seven_into_a_four() -> None:
    result = check((7,), bonus=3, dr=1, skill=4)
    assert result.final_faces == (4,)
    assert result.degree is Degree.BARELY


def test_critical_at_ios_3() -> None:
    assert check((1, 1, 1, 1, 1, 1, 9)).degree is Degree.CRITICAL


def test_disaster_at_ios_minus_3() -> None:
    assert check((6, 7, 8, 9, 10, 10, 10)).ios == -3
    assert check((6, 7, 8, 9, 10, 10, 10)).degree is Degree.DISASTER


TEN_DICE = (1, 2, 3, 4, 5, 6, 7, 8)


def test_trait_10_skill_10_succeeds_on_every_die() -> None:
    result = check((*TEN_DICE, 10, 10), dr=10, skill=10)
    assert result.successes == 10
    assert result.degree is Degree.BASIC  # IoS 1


def test_three_tens_at_trait_10_skill_10_flub_whatever_the_count() -> None:
    result = check((*TEN_DICE[:7], 10, 10, 10), dr=1, skill=10)
    assert result.successes == 10
    assert result.degree is Degree.FLUBBED
    assert not result.succeeded


def test_three_tens_do_not_flub_with_skill_9() -> None:
    result = check((*TEN_DICE[:7], 10, 10, 10), dr=1, skill=9)
    assert result.degree is not Degree.FLUBBED


def test_flub_is_judged_on_rolled_faces_so_points_cannot_undo_it() -> None:
    optimal = check((*TEN_DICE[:7], 10, 10, 10), bonus=3, dr=1, skill=10)
    moved = reallocate(optimal, (0,) * 7 + (1, 1, 1))
    assert moved.final_faces[-3:] == (9, 9, 9)
    assert moved.degree is Degree.FLUBBED
