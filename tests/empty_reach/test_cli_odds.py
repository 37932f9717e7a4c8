"""``rulebound odds empty-reach`` through the real app: exact fractions in JSON and text."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.odds import p_success
from rulebound.rulesets.empty_reach.opposed import opposed_odds

runner = CliRunner()
ODDS = ["odds", "empty-reach"]


def invoke(*args: str) -> Any:
    return runner.invoke(app, [*args])


def test_odds_json_for_the_hand_checked_pool() -> None:
    out = invoke(*ODDS, "--attribute", "D8", "--skill", "D10", "--push", "always", "--json")
    assert out.exit_code == 0, out.output
    body = json.loads(out.stdout)
    assert body["p_success"] == "139/160"
    assert body["p_success_float"] == pytest.approx(139 / 160)
    assert (body["request"]["attribute_die"], body["request"]["skill_die"]) == ("D8", "D10")
    assert body["request"]["push"] == "always"
    assert body["expected_successes"] == "561/400"
    assert "expected_cost" in body
    assert sum(map(_fraction, body["successes"].values())) == 1
    assert set(body["successes"]) == {"0", "1", "2", "3"}
    assert "p_bane" in body
    assert "p_bane_float" in body
    never = json.loads(invoke(*ODDS, "--attribute", "D8", "--skill", "D10", "--json").stdout)
    assert never["p_success"] == "11/16"
    assert "p_bane" not in never
    assert "expected_cost" not in never
    assert "p_gear_loss" not in never
    geared = invoke(*ODDS, "--attribute", "D6", "--gear-bonus", "1", "--push", "always", "--json")
    assert geared.exit_code == 0, geared.output
    assert "p_gear_loss" in json.loads(geared.stdout)


def test_odds_opposed_adds_win_tie_loss() -> None:
    out = invoke(
        *ODDS, "--attribute", "D8", "--skill", "D10", "--opposed-attribute", "D6",
        "--opposed-skill", "D8", "--json",
    )  # fmt: skip
    body = json.loads(out.stdout)
    expected = opposed_odds(
        prepare(CheckRequest(attribute_die="D8", skill_die="D10")),
        prepare(CheckRequest(attribute_die="D6", skill_die="D8")),
    )
    for verdict in ("win", "tie", "loss"):
        assert _fraction(body[f"p_{verdict}"]) == expected[verdict]
    assert sum(_fraction(body[f"p_{v}"]) for v in ("win", "tie", "loss")) == 1


def test_odds_text_and_errors() -> None:
    out = invoke(*ODDS, "--attribute", "D6", "--modifier", "1", "--push", "if-failed")
    assert out.exit_code == 0
    assert "D6 + D6" in out.stdout
    assert "bane after push" in out.stdout
    p = p_success(prepare(CheckRequest(attribute_die="D6", skill_die="D6")), "if-failed")
    assert f"{p.numerator}/{p.denominator}" in out.stdout
    twice = invoke(
        *ODDS, "--attribute", "D6", "--skill", "D6", "--attribute-name", "Empathy",
        "--specialty", "Compassion", "--push", "if-failed", "--json",
    )  # fmt: skip
    assert json.loads(twice.stdout)["p_success"] == "1691/2916"
    bad = invoke(*ODDS, "--attribute", "D6", "--push", "sometimes")
    assert bad.exit_code == 2
    assert "--push" in bad.stderr


def _fraction(text: str) -> Fraction:
    return Fraction(text)
