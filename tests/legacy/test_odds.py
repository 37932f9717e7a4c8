"""Exact odds equal brute-force enumeration and icepool."""

from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.odds import check_chances, p_reroll_improves, p_success
from rulebound.rulesets.legacy.rules import OUTCOMES, SCALES, Outcome, classify

EDGES = [(False, False), (True, False), (False, True)]


def brute(req: CheckRequest) -> dict[Outcome, Fraction]:
    res = resolve(req)
    die = res.thresholds.die
    counts = dict.fromkeys(OUTCOMES, 0)
    rolls = list(product(range(1, die + 1), repeat=1 if res.edge.value == "none" else 2))
    for roll in rolls:
        face = min(roll) if res.edge.value == "advantage" else max(roll)
        counts[classify(face, res.thresholds)] += 1
    return {o: Fraction(n, len(rolls)) for o, n in counts.items()}


@pytest.mark.parametrize("scale", sorted(SCALES))
@pytest.mark.parametrize(("adv", "dis"), EDGES)
@pytest.mark.parametrize("score", [12, 25, 38])
def test_every_outcome_matches_brute_force(scale: str, adv: bool, dis: bool, score: int) -> None:
    req = CheckRequest(
        score=score, rank=3, difficulty="difficult", advantage=adv, disadvantage=dis, scale=scale
    )
    assert check_chances(req) == brute(req)


@pytest.mark.parametrize("target", [-2, 1, 7, 13, 19, 25])
def test_matches_icepool(target: int) -> None:
    req = CheckRequest(target=target, bonus=2, advantage=True)
    t = resolve(req).thresholds
    outcome_of = icepool.lowest(icepool.d20, icepool.d20).map(
        lambda f: OUTCOMES.index(classify(f, t))
    )
    expected = {
        OUTCOMES[k]: Fraction(outcome_of.quantity(k), outcome_of.denominator())
        for k in outcome_of.outcomes()
    }
    ours = {o: p for o, p in check_chances(req).items() if p}
    assert ours == expected


def test_as_written_against_playable_variant() -> None:
    plain = CheckRequest(score=30, scale="as-written")
    assert p_success(plain) == Fraction(19, 20)
    assert p_success(CheckRequest(score=30, scale="halved")) == Fraction(15, 20)
    assert p_success(CheckRequest(score=30, scale="d100")) == Fraction(30, 100)


requests = st.builds(
    CheckRequest,
    score=st.integers(0, 60),
    rank=st.one_of(st.none(), st.integers(1, 6)),
    difficulty=st.sampled_from(["very-easy", "easy", "challenging", "hard", "impossible"]),
    fatigued=st.booleans(),
    scale=st.sampled_from(sorted(SCALES)),
)


@given(requests)
def test_outcome_probabilities_sum_to_one(req: CheckRequest) -> None:
    assert sum(check_chances(req).values()) == 1


@given(requests)
def test_advantage_never_lowers_success(req: CheckRequest) -> None:
    from dataclasses import replace

    assert p_success(replace(req, advantage=True)) >= p_success(req)
    assert p_success(replace(req, disadvantage=True)) <= p_success(req)


@given(requests)
def test_one_advantage_and_one_disadvantage_is_plain(req: CheckRequest) -> None:
    from dataclasses import replace

    if req.difficulty in ("very-easy", "impossible"):
        return
    assert check_chances(replace(req, advantage=True, disadvantage=True)) == check_chances(req)


def test_reroll_improvement_chance() -> None:
    req = CheckRequest(target=10, bonus=0)
    assert p_reroll_improves(req, Outcome.FAILURE) == Fraction(10, 20)
    assert p_reroll_improves(req, Outcome.CRITICAL_SUCCESS) == 0
