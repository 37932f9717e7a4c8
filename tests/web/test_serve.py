"""``rulebound serve`` starts the table on the URL and database it is given."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx2
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.cli.serve import FULL_COLLECTION_EVERY

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


SETTLED = """
import gc, sys
from rulebound.cli.serve import worker_app
before, default = gc.get_freeze_count(), gc.get_threshold()
app = worker_app()
print(before, gc.get_freeze_count(), type(app).__name__, default[2], gc.get_threshold()[2])
app.state.store.close()
"""


def test_a_served_app_is_kept_out_of_the_garbage_collectors_full_walks(tmp_path: Path) -> None:
    """What a server process made before serving (modules, app, templates) is frozen
    (``gc.freeze``), so a full collection under load walks only what came after, and full
    collections come ten times less often: in a fresh process, for the workers' factory as
    for the single process."""
    env = {"RULEBOUND_DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}", "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-c", SETTLED], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr
    before, after, kind, default, full = done.stdout.split()
    assert int(before) == 0
    assert int(after) > 50_000  # the interpreter's, the libraries' and the app's objects
    assert kind == "FastAPI"
    assert (int(default), int(full)) == (10, FULL_COLLECTION_EVERY)
