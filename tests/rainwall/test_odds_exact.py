"""Exact odds equal brute-force enumeration of every roll, scored by the roller itself."""

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import TypeVar

import pytest

from rulebound.core.trace import Provenance
from rulebound.rulesets.rainwall.bonus import optimal_allocation, successes
from rulebound.rulesets.rainwall.odds import Outcome, RainwallOdds, check_odds, outcome_distribution
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import evaluate
from rulebound.rulesets.rainwall.rules import (
    BarelyRule,
    Degree,
    MissIos,
    Options,
    SuccessFace,
    succeeds,
)

K = TypeVar("K")


def brute_outcomes(dice: int, skill: int, bonus: int, options: Options) -> Counter[Outcome]:
    counts: Counter[Outcome] = Counter()
    for faces in product(range(1, 11), repeat=dice):
        spend = optimal_allocation(faces, skill, bonus, options)
        raw = sum(succeeds(face, skill, options) for face in faces)
        counts[(raw, successes(faces, spend, skill, options), faces.count(10))] += 1
    return counts


def brute_odds(request: RainwallRequest) -> tuple[Counter[int], Counter[int], Counter[Degree]]:
    """Roll every face tuple through the roller's own scoring."""
    counts: Counter[int] = Counter()
    ios: Counter[int] = Counter()
    degrees: Counter[Degree] = Counter()
    for faces in product(range(1, 11), repeat=request.dice):
        spend = optimal_allocation(faces, request.skill, request.bonus, request.options)
        result = evaluate(request, faces, spend, Provenance(()))
        counts[result.successes] += 1
        ios[result.ios] += 1
        degrees[result.degree] += 1
    return counts, ios, degrees


def as_probabilities(counts: Counter[K]) -> dict[K, Fraction]:
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("face", list(SuccessFace))
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_outcomes_equal_brute_force_for_every_skill_and_bonus(dice: int, face: SuccessFace) -> None:
    options = Options(success_face=face)  # the other options only judge outcomes
    for skill in range(1, 11):
        for bonus in (0, 1, 2, 4, 7):
            exact = outcome_distribution(dice, skill, bonus, options).probabilities()
            assert exact == as_probabilities(brute_outcomes(dice, skill, bonus, options))


@pytest.mark.parametrize(
    ("skill", "dr", "bonus", "options"),
    [
        (5, 2, 3, Options()),
        (3, 1, 2, Options(miss_ios=MissIos.SKIP_ZERO)),
        (7, 4, 5, Options(barely=BarelyRule.BELOW_CRITICAL)),
        (1, 2, 6, Options(success_face=SuccessFace.STRICTLY_UNDER)),
    ],
)
def test_four_dice_odds_equal_the_roller_on_all_10_000_rolls(
    skill: int, dr: int, bonus: int, options: Options
) -> None:
    request = RainwallRequest(dice=4, skill=skill, dr=dr, bonus=bonus, options=options)
    exact = check_odds(request)
    counts, ios, degrees = brute_odds(request)
    assert exact.successes == as_probabilities(counts)
    assert exact.ios == as_probabilities(ios)
    brute_degrees = as_probabilities(degrees)
    assert exact.degrees == {d: brute_degrees.get(d, Fraction(0)) for d in Degree}
    assert exact.p_success == sum(p for d, p in brute_degrees.items() if d.succeeded)


def test_every_distribution_sums_to_one_for_ten_dice() -> None:
    result: RainwallOdds = check_odds(RainwallRequest(dice=10, skill=6, dr=5, bonus=9))
    for table in (result.raw_successes, result.successes, result.ios, result.degrees):
        assert sum(table.values()) == 1
