"""``rulebound odds ghostburn --json``: p_success and every band, against enumeration of 2d10."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

OddsJson = Callable[..., dict[str, Any]]
ExactPairs = Callable[[Mapping[str, Any]], dict[str, Any]]

LADDER = (8, 14, 20, 26, 32)
"""The built-in DL ladder: Easy, Moderate, Hard, Daunting, Extreme."""


def enumerate_bands(modifier: int, dl: int, graded: bool = False) -> dict[str, Fraction]:
    """Default chart: reach the DL, else reach the level below for a Fade; graded adds one above."""
    index = LADDER.index(dl)
    below = LADDER[index - 1] if index > 0 else None
    above = LADDER[index + 1] if index + 1 < len(LADDER) else None
    out: dict[str, Fraction] = defaultdict(Fraction)
    for a, b in product(range(1, 11), repeat=2):
        total = a + b + modifier
        if graded and above is not None and total >= above:
            band = "overdrive"
        elif total >= dl:
            band = "success"
        elif below is not None and total >= below:
            band = "fade"
        else:
            band = "failure"
        out[band] += Fraction(1, 100)
    return out


@pytest.mark.parametrize("dl", LADDER)
@pytest.mark.parametrize("modifier", [-3, 0, 5, 12])
def test_bands_equal_enumeration(
    odds_json: OddsJson, exact_pairs: ExactPairs, modifier: int, dl: int
) -> None:
    data = odds_json("ghostburn", "--modifier", str(modifier), "--dl", str(dl))
    exact = exact_pairs(data)
    expected = enumerate_bands(modifier, dl)
    assert {k: v for k, v in exact["bands"].items() if v} == expected
    assert exact["p_success"] == expected["success"]
    assert list(data["bands"]) == ["success", "fade", "failure"]


def test_by_hand(odds_json: OddsJson, exact_pairs: ExactPairs) -> None:
    exact = exact_pairs(odds_json("ghostburn", "--modifier", "5", "--dl", "Moderate"))
    # 2d10 + 5 >= 14 needs 9+ on 2d10: 1 - 36/100
    assert exact["p_success"] == Fraction(16, 25) + Fraction(8, 100)
    assert exact["bands"]["failure"] == Fraction(1, 100)  # only a 2 misses Easy (8)


def test_graded_chart_reaching_dl_includes_overdrive(
    odds_json: OddsJson, exact_pairs: ExactPairs
) -> None:
    exact = exact_pairs(
        odds_json("ghostburn", "--modifier", "4", "--dl", "14", "--chart", "graded")
    )
    expected = enumerate_bands(4, 14, graded=True)
    assert {k: v for k, v in exact["bands"].items() if v} == expected
    assert exact["p_success"] == expected["overdrive"] + expected["success"]


def test_luck_keys(odds_json: OddsJson, exact_pairs: ExactPairs) -> None:
    data = odds_json("ghostburn", "--modifier", "3", "--dl", "20", "--luck-bonus", "2")
    exact = exact_pairs(data)
    # one point lifts exactly the totals 18 and 19 to 20, and 12, 13 to the Fade at 14
    two_d10 = {s: Fraction(10 - abs(s - 11), 100) for s in range(2, 21)}
    assert exact["p_luck_helps"] == sum(two_d10[s - 3] for s in (18, 19, 12, 13))
    assert exact["p_success_with_luck"] == sum(p for s, p in two_d10.items() if s + 5 >= 20)


@pytest.mark.parametrize("args", [("--dl", "17", "--chart", "graded"), ("--trick", "bank-shot")])
def test_bands_are_a_partition_and_luck_bands_too(
    odds_json: OddsJson, exact_pairs: ExactPairs, args: tuple[str, ...]
) -> None:
    """Issue 11: the Ghostburn mapping summed to 1.21; now the bands sum to exactly 1."""
    exact = exact_pairs(odds_json("ghostburn", "--modifier", "5", "--luck-bonus", "4", *args))
    assert sum(exact["bands"].values()) == 1
    assert sum(exact["bands_with_luck"].values()) == 1
    reached = {"overdrive", "success"}
    assert exact["p_success"] == sum(p for k, p in exact["bands"].items() if k in reached)
    assert exact["p_success_with_luck"] >= exact["p_success"]
