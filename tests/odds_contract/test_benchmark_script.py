"""The peer benchmark runs and its answers agree; it is never timed here (no timed asserts)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("icepool")
pytest.importorskip("dyce")
pytest.importorskip("d20")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "odds_vs_peers.py"


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert not done.stderr
    return done.stdout


def test_quick_run_agrees_and_reports_ratios() -> None:
    out = run("--questions", "1,2,3", "--markdown")
    assert "Questions 1,2,3: rulebound, icepool and dyce agree exactly." in out
    assert "Q1 Empty Reach pushed" in out
    assert "| Q2 Rainwall P(success) 7 dice, skill 5, DR 1-7, bonus 3 | rulebound |" in out
    assert "Q3 Rainwall DR-3 table" in out
    assert "cold speed-up" in out
    assert "d20.roll('7d10')" in out
    # the issue-16 rows, each answer checked against icepool before it is printed
    assert "Whole calls (issue 16): every answer equal to icepool's as exact fractions." in out
    for row in (
        "| `import rulebound.cli.app` vs `import typer, pydantic` |",
        "whole process vs icepool's whole process",
        "bytecode compiled at install vs none",
        "| Rainwall pool of 24 dice (skill 5, bonus 3), successes after the spend |",
        "| Legacy extended check, thresholds 10,000/10,000, 50 rolls (target 10, bonus 1) |",
        "21 refused: `request.gear: got '21 items'; expected at most 20 items`",
        "| The Empty Reach + push: form parsed, rolled, full trace, per second vs",
    ):
        assert row in out


@pytest.mark.slow
def test_quick_run_of_the_last_question() -> None:
    """Question 4 alone (the test above runs the others and the whole-call rows)."""
    out = run("--questions", "4", "--no-whole")
    assert "Questions 4: rulebound, icepool and dyce agree exactly." in out
    assert "Q4 Legacy death saves" in out
    assert "10x cold goal" in out
    assert "Whole calls" not in out
