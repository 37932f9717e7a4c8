"""``rulebound odds legacy --json``: p_success, per-degree odds and death saves, by enumeration."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import pytest

OddsJson = Callable[..., dict[str, Any]]
ExactPairs = Callable[[Mapping[str, Any]], dict[str, Any]]


def judge(face: int, die: int, target: int, crit: int, partial: int) -> str:
    if face == die:
        return "critical failure"
    if face == 1 or face <= crit:
        return "critical success"
    if face <= target:
        return "success"
    return "partial success" if face - target <= partial else "failure"


def enumerate_check(
    die: int, target: int, crit: int, partial: int, edge: str = ""
) -> dict[str, Fraction]:
    rolls = 1 if not edge else 2
    keep = {"": min, "advantage": min, "disadvantage": max}[edge]
    out: dict[str, Fraction] = defaultdict(Fraction)
    for faces in product(range(1, die + 1), repeat=rolls):
        out[judge(keep(faces), die, target, crit, partial)] += Fraction(1, die**rolls)
    return out


@pytest.mark.parametrize("edge", ["", "advantage", "disadvantage"])
@pytest.mark.parametrize("target", [-3, 1, 7, 12, 19, 25])
def test_target_equals_enumeration(
    odds_json: OddsJson, exact_pairs: ExactPairs, target: int, edge: str
) -> None:
    flags = [f"--{edge}"] if edge else []
    exact = exact_pairs(odds_json("legacy", "--target", str(target), *flags))
    expected = enumerate_check(20, target, 0, 0, edge)
    assert {k: v for k, v in exact["degrees"].items() if v} == expected
    assert exact["p_success"] == expected["critical success"] + expected["success"]


def test_critical_successes_count_as_success(odds_json: OddsJson, exact_pairs: ExactPairs) -> None:
    exact = exact_pairs(odds_json("legacy", "--target", "10", "--advantage"))
    assert exact["p_success"] == Fraction(3, 4)  # 1 - (10/20)^2
    assert exact["degrees"]["critical success"] == Fraction(39, 400)  # at least one 1
    assert exact["degrees"]["critical failure"] == Fraction(1, 400)


@pytest.mark.parametrize(
    ("scale", "die", "target", "crit", "partial"),
    [
        # score 30 (bonus 3), rank 3 (+4), hard (-4): the modifiers cancel
        ("as-written", 20, 30, 3, 3),
        ("halved", 20, 15, 3, 3),
        ("d100", 100, 30, 3, 3),
    ],
)
def test_characteristic_rank_difficulty_way_in(
    odds_json: OddsJson,
    exact_pairs: ExactPairs,
    scale: str,
    die: int,
    target: int,
    crit: int,
    partial: int,
) -> None:
    args = ("--score", "30", "--rank", "3", "--difficulty", "hard", "--scale", scale)
    exact = exact_pairs(odds_json("legacy", *args))
    expected = enumerate_check(die, target, crit, partial)
    assert {k: v for k, v in exact["degrees"].items() if v} == expected


def death_saves() -> tuple[Fraction, Fraction, Fraction]:
    """Stable, dead, expected saves: each d20 adds 2 on a 1, 1 up to 10, 1 failure, 2 on a 20."""

    def points(face: int) -> tuple[int, int]:
        if face == 1:
            return (2, 0)
        if face <= 10:
            return (1, 0)
        return (0, 2) if face == 20 else (0, 1)

    @cache
    def solve(s: int, f: int) -> tuple[Fraction, Fraction, Fraction]:
        if s >= 3:
            return (Fraction(1), Fraction(0), Fraction(0))
        if f >= 3:
            return (Fraction(0), Fraction(1), Fraction(0))
        stable = dead = rolls = Fraction(0)
        for face in range(1, 21):
            ds, df = points(face)
            a, b, c = solve(s + ds, f + df)
            stable, dead, rolls = stable + a / 20, dead + b / 20, rolls + c / 20
        return (stable, dead, rolls + 1)

    return solve(0, 0)


def test_death_saves(odds_json: OddsJson, exact_pairs: ExactPairs) -> None:
    exact = exact_pairs(odds_json("legacy", "--death-saves"))
    stable, dead, rolls = death_saves()
    assert (exact["p_stable"], exact["p_dead"], exact["expected_rolls"]) == (stable, dead, rolls)
    assert exact["expected_rolls"] == Fraction(300683, 80000)
    assert exact["p_stable"] + exact["p_dead"] == 1


@pytest.mark.parametrize(
    "args",
    [
        ("--target", "12", "--bonus", "3"),
        ("--score", "34", "--rank", "2", "--difficulty", "hard", "--scale", "halved"),
        ("--score", "28", "--disadvantage", "--scale", "d100", "--affinity-bonus", "five-per-rank"),
    ],
)
def test_degrees_are_a_partition_and_p_success_their_passes(
    odds_json: OddsJson, exact_pairs: ExactPairs, args: tuple[str, ...]
) -> None:
    """Issue 11: the outcomes sum to exactly 1; P(success) is a critical or plain success."""
    exact = exact_pairs(odds_json("legacy", *args))
    assert sum(exact["degrees"].values()) == 1
    assert exact["p_success"] == exact["degrees"]["critical success"] + exact["degrees"]["success"]


def test_opposed_and_extended_odds_are_partitions(
    odds_json: OddsJson, exact_pairs: ExactPairs
) -> None:
    opposed = exact_pairs(odds_json("legacy", "--target", "10", "--opposed-score", "30"))
    assert sum(opposed["opposed"].values()) == 1
    assert (opposed["p_success"], opposed["p_win"]) == (opposed["opposed"]["win"],) * 2
    flags = ("--success-threshold", "6", "--failure-threshold", "5", "--max-rolls", "3")
    ends = exact_pairs(odds_json("legacy", "--target", "10", *flags))
    assert sum(ends["ends"].values()) == 1
    assert ends["p_success"] == ends["ends"]["succeeded"]
