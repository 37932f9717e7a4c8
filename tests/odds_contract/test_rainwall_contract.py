"""``rulebound odds rainwall --json``: p_success, ios and degrees against enumeration."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, factorial, prod
from typing import Any

import pytest

OddsJson = Callable[..., dict[str, Any]]
ExactPairs = Callable[[Mapping[str, Any]], dict[str, Any]]


def multisets(dice: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every sorted roll of ``dice`` d10 with its probability (multinomial weight)."""
    rolls = []
    for faces in combinations_with_replacement(range(1, 11), dice):
        ways = factorial(dice) // prod(factorial(n) for n in Counter(faces).values())
        rolls.append((faces, Fraction(ways, 10**dice)))
    return rolls


def judge(faces: tuple[int, ...], skill: int, dr: int, bonus: int) -> tuple[int, str]:
    """(IoS, degree) by the rules text: fix the cheapest failures, IoS = successes - DR + 1;
    IoS 1 is a Basic Success; a miss is a Disaster by three of what the dice could reach."""
    raw = sum(face <= skill for face in faces)
    after = raw
    for price in sorted(face - skill for face in faces if face > skill):
        if price > bonus:
            break
        bonus -= price
        after += 1
    ios = after - dr + 1
    if after >= dr:
        named = "critical" if ios >= 3 else "basic" if ios == 1 else "success"
        degree = "barely" if raw < dr else named
    else:
        degree = "disaster" if after - min(dr, len(faces)) + 1 <= -3 else "failure"
    return ios, degree


def test_seed_example_by_hand(odds_json: OddsJson, exact_pairs: ExactPairs) -> None:
    data = odds_json("rainwall", "--dice", "7", "--skill", "5", "--dr", "4", "--bonus", "1")
    exact = exact_pairs(data)
    # 4+ of 7 half-chance dice, or exactly 3 and a failure showing 6 for the point
    plain = Fraction(sum(comb(7, k) for k in range(4, 8)), 2**7)
    barely = Fraction(comb(7, 3), 2**7) * (1 - Fraction(4, 5) ** 4)
    assert exact["p_success"] == plain + barely == Fraction(10583, 16000)
    assert exact["degrees"]["barely"] == barely
    assert exact["degrees"]["flubbed"] == 0
    assert set(exact["degrees"]) == {
        "critical",
        "success",
        "basic",
        "barely",
        "failure",
        "disaster",
        "flubbed",
    }


@pytest.mark.parametrize(
    ("dice", "skill", "dr", "bonus"), [(7, 5, 4, 1), (5, 3, 2, 4), (6, 8, 5, 0), (3, 1, 4, 9)]
)
def test_keys_equal_enumeration(
    odds_json: OddsJson, exact_pairs: ExactPairs, dice: int, skill: int, dr: int, bonus: int
) -> None:
    args = ("--dice", str(dice), "--skill", str(skill), "--dr", str(dr), "--bonus", str(bonus))
    exact = exact_pairs(odds_json("rainwall", *args))
    ios: dict[str, Fraction] = defaultdict(Fraction)
    degrees: dict[str, Fraction] = defaultdict(Fraction)
    for faces, p in multisets(dice):
        increment, degree = judge(faces, skill, dr, bonus)
        ios[str(increment)] += p
        degrees[degree] += p
    assert exact["ios"] == ios
    assert {k: v for k, v in exact["degrees"].items() if v} == degrees
    assert exact["p_success"] == sum(degrees[d] for d in ("critical", "success", "basic", "barely"))


def test_text_view_has_bars() -> None:
    from click.testing import CliRunner

    from rulebound.cli.app import app

    args = ["odds", "rainwall", "--dice", "7", "--skill", "5", "--dr", "4", "--bonus", "1"]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    assert "66.1" in out.stdout
