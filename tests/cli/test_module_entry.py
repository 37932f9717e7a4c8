"""``python -m rulebound`` is the command line, as the installed script is."""

from __future__ import annotations

import subprocess
import sys


def test_python_dash_m_runs_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rulebound", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Usage: python -m rulebound" in done.stdout
    assert "roll" in done.stdout
