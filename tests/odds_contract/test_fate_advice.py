"""Legacy fate advice equals brute force: every face the reroll can show, through the roller."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from rulebound.rulesets.legacy.advice import fate_reroll_advice, luck_swap_advice
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    LegacyResult,
    luck_request,
    request_from_json,
    roll_check,
)
from rulebound.rulesets.legacy.rules import OUTCOMES, Outcome


class Faces:
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def draw(self, sides: int) -> int:
        return self.faces.pop(0)

    def describe(self) -> dict[str, object]:
        return {"kind": "fixed"}


def every_roll(req: CheckRequest) -> list[tuple[Fraction, LegacyResult]]:
    """Each equally likely face sequence (one die, or two with an edge) rolled for real."""
    die = 100 if req.scale == "d100" else 20
    count = len(roll_check(req, Faces([1, 1])).dice)
    p = Fraction(1, die**count)
    return [(p, roll_check(req, Faces(f))) for f in product(range(1, die + 1), repeat=count)]


def better(a: Outcome, b: Outcome) -> bool:
    return OUTCOMES.index(a) < OUTCOMES.index(b)


REQUESTS = [
    CheckRequest(target=9),
    CheckRequest(target=14, bonus=3, advantage=True),
    CheckRequest(score=34, rank=1, difficulty="hard", scale="halved"),
    CheckRequest(score=28, difficulty="impossible", scale="as-written"),
    CheckRequest(score=31, rank=5, difficulty="difficult", scale="d100"),
]


@pytest.mark.parametrize("req", REQUESTS)
def test_reroll_advice_equals_brute_force(req: CheckRequest) -> None:
    rolls = every_roll(req)
    seen: dict[tuple[Outcome, int], LegacyResult] = {}
    for _, result in rolls:  # one showing result per (outcome, margin)
        seen.setdefault((result.outcome, result.margin), result)
    for showing in seen.values():
        advice = fate_reroll_advice(showing)
        up = sum(p for p, r in rolls if better(r.outcome, showing.outcome))
        down = sum(p for p, r in rolls if better(showing.outcome, r.outcome))
        assert advice.p_better == up
        assert advice.p_worse == down
        assert advice.p_same == 1 - up - down
        assert advice.p_better_margin == sum(
            p
            for p, r in rolls
            if better(r.outcome, showing.outcome)
            or (r.outcome == showing.outcome and r.margin > showing.margin)
        )
        assert advice.p_success == sum(p for p, r in rolls if r.succeeded)
        assert advice.worth_it == (up > down)


def test_failure_on_target_9_by_hand() -> None:
    showing = roll_check(CheckRequest(target=9), Faces([15]))
    assert showing.outcome is Outcome.FAILURE
    advice = fate_reroll_advice(showing)
    assert advice.p_better == Fraction(9, 20)  # faces 1 to 9
    assert advice.p_worse == Fraction(1, 20)  # a 20
    assert advice.p_better_margin == Fraction(14, 20)  # 1 to 14 beat missing by 6
    assert advice.outcomes[Outcome.CRITICAL_SUCCESS] == Fraction(1, 20)


def test_luck_swap_reads_an_unmodified_lck_test() -> None:
    showing = roll_check(
        CheckRequest(score=30, difficulty="very-hard", scale="halved"), Faces([12])
    )
    advice = luck_swap_advice(showing, lck=40)
    rolls = every_roll(luck_request(40, "halved"))
    assert advice.p_success == sum(p for p, r in rolls if r.succeeded)
    assert advice.p_better == sum(p for p, r in rolls if better(r.outcome, showing.outcome))


def test_roll_cli_offers_the_fate_advice(tmp_path: Path) -> None:
    """A roll from a character file shows each fate spend with its exact odds."""
    import json

    from click.testing import CliRunner

    from rulebound.cli.app import app
    from rulebound.rulesets.legacy.game import GAME

    path = tmp_path / "kara.json"
    assert GAME.sheets is not None  # Legacy keeps character sheets
    path.write_text(json.dumps(GAME.sheets.new("Kara")), "utf-8")
    args = ["roll", "legacy", "--character", str(path), "--characteristic", "PER", "--seed", "3"]
    args += ["--scale", "halved", "--difficulty", "hard"]
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    request = request_from_json(data["result"]["roll"]["request"])
    showing = roll_check(request, Faces([data["result"]["result"]["face"]]))
    p = fate_reroll_advice(showing).p_better
    (reroll,) = [a for a in data["card"]["actions"] if a["key"] == "fate-reroll"]
    exact = f"{p.numerator}/{p.denominator} ({float(p):.1%})"
    assert reroll["advice"][0] == f"A reroll improves the outcome: {exact}"
    text = CliRunner().invoke(app, args).stdout
    assert "A reroll improves the outcome" in text
