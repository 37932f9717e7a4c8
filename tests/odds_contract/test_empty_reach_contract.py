"""``rulebound odds empty-reach --json``: the fixed keys, checked against enumeration."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from itertools import product
from math import prod
from typing import Any

import pytest

OddsJson = Callable[..., dict[str, Any]]
ExactPairs = Callable[[Mapping[str, Any]], dict[str, Any]]


def hits(face: int) -> int:
    return 2 if face >= 10 else 1 if face >= 6 else 0


def enumerate_pool(sides: tuple[int, ...], push: bool) -> dict[tuple[int, int, bool], Fraction]:
    """(successes, banes, pushed) by listing every face, then every reroll of the default dice."""
    out: dict[tuple[int, int, bool], Fraction] = defaultdict(Fraction)
    first_weight = Fraction(1, prod(sides))
    for faces in product(*(range(1, s + 1) for s in sides)):
        chosen = [i for i, f in enumerate(faces) if push and f != 1 and not hits(f)]
        if not chosen:
            out[(sum(map(hits, faces)), faces.count(1), False)] += first_weight
            continue
        weight = first_weight / prod(sides[i] for i in chosen)
        for new in product(*(range(1, sides[i] + 1) for i in chosen)):
            final = list(faces)
            for i, face in zip(chosen, new, strict=True):
                final[i] = face
            out[(sum(map(hits, final)), final.count(1), True)] += weight
    return out


def test_d8_d10_pushed_by_hand(odds_json: OddsJson, exact_pairs: ExactPairs) -> None:
    data = odds_json("empty-reach", "--attribute", "D8", "--skill", "D10", "--push", "always")
    exact = exact_pairs(data)
    # each die fails only if it misses twice: D8 7/16, D10 3/10, so 1 - 21/160
    assert data["p_success"] == "139/160"
    table = enumerate_pool((8, 10), push=True)
    by_count: dict[str, Fraction] = defaultdict(Fraction)
    for (n, _, _), p in table.items():
        by_count[str(n)] += p
    assert exact["successes"] == by_count
    assert exact["p_bane"] == sum(p for (_, banes, pushed), p in table.items() if pushed and banes)
    assert exact["p_bane"] == Fraction(151, 800)


@pytest.mark.parametrize(
    ("attribute", "skill", "modifier", "sides"),
    [
        ("D6", None, 0, (6,)),
        ("D12", None, 0, (12,)),
        ("D8", "D8", 1, (8, 10)),  # equal dice: the skill die steps up
        ("D10", "D6", -1, (8, 6)),  # a step down lowers the higher die
        ("D6", "D6", -1, (6,)),  # past two D6s the skill die goes
    ],
)
@pytest.mark.parametrize("push", ["never", "always"])
def test_pools_equal_enumeration(
    odds_json: OddsJson,
    exact_pairs: ExactPairs,
    attribute: str,
    skill: str | None,
    modifier: int,
    sides: tuple[int, ...],
    push: str,
) -> None:
    args = ["empty-reach", "--attribute", attribute, "--modifier", str(modifier), "--push", push]
    data = odds_json(*args, *(["--skill", skill] if skill else []))
    exact = exact_pairs(data)
    table = enumerate_pool(sides, push=push == "always")
    assert exact["p_success"] == sum(p for (n, _, _), p in table.items() if n >= 1)
    assert sum(exact["successes"].values()) == 1
    assert ("p_bane" in data) == (push == "always")
    if push == "always":
        assert exact["p_bane"] == sum(p for (_, b, pushed), p in table.items() if pushed and b)


def test_lone_attribute_die_has_no_skill(odds_json: OddsJson) -> None:
    data = odds_json("empty-reach", "--attribute", "D8")
    assert data["request"]["attribute_die"] == "D8"
    assert "skill_die" not in data["request"]
    assert data["p_success"] == "3/8"
    assert data["successes"] == {"0": "5/8", "1": "3/8"}


def test_opposed_keys_equal_enumeration(odds_json: OddsJson, exact_pairs: ExactPairs) -> None:
    data = odds_json(
        "empty-reach",
        *("--attribute", "D8", "--skill", "D10"),
        *("--opposed-attribute", "D6", "--opposed-skill", "D8"),
    )
    exact = exact_pairs(data)
    active = enumerate_pool((8, 10), push=False)
    defender = enumerate_pool((6, 8), push=False)
    verdicts: dict[str, Fraction] = defaultdict(Fraction)
    for (a, _, _), pa in active.items():
        for (d, _, _), pd in defender.items():
            verdicts["win" if a > d else "tie" if a == d else "loss"] += pa * pd
    assert {v: exact[f"p_{v}"] for v in ("win", "tie", "loss")} == verdicts
    assert exact["p_win"] + exact["p_tie"] + exact["p_loss"] == 1


def test_text_view_has_a_bar_chart(odds_json: OddsJson) -> None:
    from click.testing import CliRunner

    from rulebound.cli.app import app

    out = CliRunner().invoke(app, ["odds", "empty-reach", "--attribute", "D8", "--skill", "D10"])
    assert out.exit_code == 0, out.output
    assert "█" in out.stdout
    assert "11/16" in out.stdout
