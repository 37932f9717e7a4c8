"""Opposed and extended checks, and death saves: rolls and exact odds against brute force."""

from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.extended import (
    ExtendedCheck,
    ExtendedSpec,
    ExtendedStatus,
    status_of,
)
from rulebound.rulesets.legacy.odds import death_save_odds, extended_chances, opposed_chances
from rulebound.rulesets.legacy.opposed import OpposedOutcome, compare, roll_opposed, standing
from rulebound.rulesets.legacy.rules import classify, death_save_points, weighted_margin

from ..hunt import examples


def faces(*values: int) -> ReplaySource:
    return ReplaySource([Draw(20, v) for v in values])


def test_opposed_larger_margin_wins_and_criticals_double() -> None:
    a, b = CheckRequest(target=12, bonus=3), CheckRequest(target=15, bonus=2)
    assert roll_opposed(a, b, faces(6, 8)).outcome is OpposedOutcome.LOSS  # 6 vs 7
    # a critical success (face 2, margin 10) counts 20
    assert roll_opposed(a, b, faces(2, 1)).outcome is OpposedOutcome.LOSS  # 20 vs 28
    assert roll_opposed(a, b, faces(2, 4)).outcome is OpposedOutcome.WIN  # 20 vs 11


def test_opposed_tie_goes_to_bonus_then_nothing_changes() -> None:
    a, b = CheckRequest(target=12, bonus=3), CheckRequest(target=12, bonus=2)
    assert roll_opposed(a, b, faces(8, 8)).outcome is OpposedOutcome.WIN
    same = CheckRequest(target=12, bonus=2)
    assert roll_opposed(same, same, faces(8, 8)).outcome is OpposedOutcome.TIE


def test_opposed_has_no_partial() -> None:
    a = CheckRequest(target=12, bonus=3)
    result = roll_opposed(a, a, faces(13, 16))
    assert result.outcome is OpposedOutcome.WIN
    assert not result.actor.succeeded


@pytest.mark.parametrize(("ta", "tb", "adv"), [(10, 12, False), (15, 15, True), (25, 5, False)])
def test_opposed_odds_match_brute_force(ta: int, tb: int, adv: bool) -> None:
    a = CheckRequest(target=ta, bonus=2, advantage=adv)
    b = CheckRequest(target=tb, bonus=2)
    ra, rb = resolve(a).thresholds, resolve(b).thresholds
    counts = dict.fromkeys(OpposedOutcome, 0)
    rolls = list(product(range(1, 21), repeat=3))
    for x1, x2, y in rolls:
        x = min(x1, x2) if adv else x1
        counts[compare(standing(x, ra), standing(y, rb), 2, 2)] += 1
    assert opposed_chances(a, b) == {o: Fraction(n, len(rolls)) for o, n in counts.items()}


_GROUPS = Counter(death_save_points(face) for face in range(1, 21))


def _brute_force(
    start: tuple[int, int] = (0, 0), cancel: Fraction = Fraction(0)
) -> tuple[Fraction, Fraction, Fraction]:
    """(stable, dead, expected saves) over every path of saves from ``start`` (faces grouped
    by the points they give), a critical failure cancelled to one failure with ``cancel``."""
    groups = {move: Fraction(n, 20) for move, n in _GROUPS.items()}
    groups[(0, 1)] += groups[(0, 2)] * cancel
    groups[(0, 2)] *= 1 - cancel
    acc = [Fraction(0)] * 3

    def walk(s: int, f: int, n: int, weight: Fraction) -> None:
        if s >= 3 or f >= 3:
            acc[0 if s >= 3 else 1] += weight
            acc[2] += weight * n
            return
        for (ds, df), p in groups.items():
            walk(s + ds, f + df, n + 1, weight * p)

    walk(*start, 0, Fraction(1))
    return acc[0], acc[1], acc[2]


def test_death_saves_match_brute_force_and_icepool() -> None:
    odds = death_save_odds()
    assert (odds.p_stable, odds.p_dead, odds.expected_rolls) == _brute_force()
    one_save = icepool.d20.map(death_save_points)
    assert one_save.probability((2, 0)) == Fraction(1, 20)
    assert one_save.probability((0, 1)) == Fraction(9, 20)


@settings(max_examples=examples(60), deadline=None)
@given(
    start=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    cancel=st.fractions(0, 1, max_denominator=40),
)
def test_death_saves_from_any_tally_with_any_cancel_chance_match_brute_force(
    start: tuple[int, int], cancel: Fraction
) -> None:
    """Every path walked, a critical failure cancelled to one failure with ``cancel``."""
    odds = death_save_odds(*start, cancel_chance=cancel)
    assert (odds.p_stable, odds.p_dead, odds.expected_rolls) == _brute_force(start, cancel)


def test_death_saves_are_symmetric_and_start_midway() -> None:
    odds = death_save_odds()
    assert odds.p_stable == odds.p_dead == Fraction(1, 2)
    expected = (
        Fraction(10, 20)
        + Fraction(9, 20) * death_save_odds(2, 1).p_stable
        + Fraction(1, 20) * death_save_odds(2, 2).p_stable
    )
    assert death_save_odds(2, 0).p_stable == expected


SPEC = ExtendedSpec(success_threshold=8, failure_threshold=6, max_rolls=3)


def test_extended_check_accumulates_and_finishes() -> None:
    ext = ExtendedCheck(SPEC, CheckRequest(target=10, bonus=0))
    ext, _ = ext.roll(faces(7))  # +3
    ext, _ = ext.roll(faces(1))  # critical: +9 x2
    assert (ext.success, ext.failure, ext.status) == (21, 0, ExtendedStatus.SUCCEEDED)
    with pytest.raises(RuleViolation, match="already finished"):
        ext.roll(faces(5))


def test_extended_partial_after_the_last_roll() -> None:
    ext = ExtendedCheck(SPEC, CheckRequest(target=10, bonus=0))
    for face in (7, 13, 8):  # +3, fail 3, +2
        ext, _ = ext.roll(faces(face))
    assert (ext.success, ext.failure, ext.status) == (5, 3, ExtendedStatus.PARTIAL)


def test_extended_saves_and_resumes() -> None:
    ext, _ = ExtendedCheck(SPEC, CheckRequest(target=10, bonus=0)).roll(SeededSource(1))
    resumed = ExtendedCheck.resume(ext.to_save())
    assert (resumed.success, resumed.failure, resumed.rolls_made) == (ext.success, ext.failure, 1)
    assert resumed.request == ext.request


@pytest.mark.parametrize("target", [4, 10, 16])
def test_extended_odds_match_brute_force(target: int) -> None:
    req = CheckRequest(target=target, bonus=1)
    t = resolve(req).thresholds
    counts = dict.fromkeys(ExtendedStatus, Fraction(0))
    for seq in product(range(1, 21), repeat=SPEC.max_rolls):
        s = f = 0
        for n, face in enumerate(seq, 1):
            o = classify(face, t)
            m = weighted_margin(face, t, o)
            s, f = (s + m, f) if o.passed else (s, f - m)
            status = status_of(s, f, n, SPEC)
            if status is not ExtendedStatus.IN_PROGRESS:
                counts[status] += Fraction(1, 20**SPEC.max_rolls)
                break
    ours = extended_chances(req, SPEC)
    assert ours == {k: v for k, v in counts.items() if k is not ExtendedStatus.IN_PROGRESS}
    assert sum(ours.values()) == 1
