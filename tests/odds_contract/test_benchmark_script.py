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


@pytest.mark.slow
def test_quick_run_of_every_question() -> None:
    out = run()
    assert "Questions 1,2,3,4: rulebound, icepool and dyce agree exactly." in out
    assert "Q4 Legacy death saves" in out
    assert "10x cold goal" in out
