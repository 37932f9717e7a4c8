"""``rulebound serve`` starts the table on the URL and database it is given."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx2
from click.testing import CliRunner

from rulebound.cli.app import app

from .conftest import free_port


def test_serve_is_a_top_level_command_with_its_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--database", "--host", "--port"):
        assert option in result.output


def test_several_workers_need_redis() -> None:
    result = CliRunner().invoke(app, ["serve", "--workers", "2"], env={"RULEBOUND_REDIS_URL": ""})
    assert result.exit_code == 2
    assert "--workers" in result.output
    assert "--redis" in result.output


def test_serve_runs_the_table_and_creates_the_database(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "table.sqlite3"
    main = "from rulebound.cli.app import main; main()"
    command = [sys.executable, "-c", main, "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--database", f"sqlite:///{database}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                home = httpx2.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx2.TransportError:
                assert server.poll() is None, "rulebound serve exited"
                assert time.monotonic() < deadline, "rulebound serve did not answer"
                time.sleep(0.1)
        assert home.status_code == 200
        assert "Open a table" in home.text
        assert database.exists()
    finally:
        server.terminate()
        server.communicate(timeout=20)
