"""Real server processes for the concurrency and fault tests: uvicorn in a subprocess, on
loopback, with the server's own defaults (committed dice) and no rate limits unless asked."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import httpx2

LAUNCH = textwrap.dedent(
    """
    import os
    import sys
    from dataclasses import replace
    import uvicorn
    from rulebound.web.app import create_app
    from rulebound.web.settings import Settings
    settings = Settings.from_env()
    keepalive = os.environ.get("RULEBOUND_TEST_KEEPALIVE_SECONDS")
    if keepalive:
        settings = replace(settings, keepalive_seconds=float(keepalive))
    app = create_app(settings)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                timeout_graceful_shutdown=1)
    """
)
START_SECONDS = 60
KEEPALIVE = "RULEBOUND_TEST_KEEPALIVE_SECONDS"
"""The feeds' keep-alive period, in seconds (the server's default: 15). A feed's first
keep-alive comes once it has read its backlog and is subscribed: a test may wait for it."""
NO_RATE_LIMITS = {f"RULEBOUND_RATE_{k}": "off" for k in ("SESSION", "TABLE", "ANONYMOUS")}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """``rulebound``'s app under uvicorn in its own process; its output goes to a file."""

    def __init__(
        self, db_url: str, folder: Path, name: str, env: Mapping[str, str] | None = None
    ) -> None:
        """``env``: settings beyond the database (``RULEBOUND_...``), over no rate limits."""
        self.db_url = db_url
        self.env = (
            os.environ | {"RULEBOUND_DATABASE_URL": db_url} | NO_RATE_LIMITS | dict(env or {})
        )
        self.log_path = folder / f"server-{name}.log"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def launch(self) -> ServerProcess:
        self._log = self.log_path.open("ab")
        command = [sys.executable, "-c", LAUNCH, str(self.port)]
        self._proc = subprocess.Popen(
            command, env=self.env, stdout=self._log, stderr=subprocess.STDOUT
        )
        return self

    def wait_ready(self) -> ServerProcess:
        assert self._proc is not None
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self._proc.poll() is None, f"the server exited:\n{self.output()}"
            try:
                if httpx2.get(self.url + "/api/rulesets", timeout=2).status_code == 200:
                    return self
            except httpx2.TransportError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not start:\n{self.output()}")

    def start(self) -> ServerProcess:
        return self.launch().wait_ready()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no cleanup."""
        assert self._proc is not None
        os.kill(self._proc.pid, signal.SIGKILL)
        self._proc.wait(timeout=30)
        self._close_log()

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=15)
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def output(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def seat(client: httpx2.Client, invite: str, name: str) -> dict[str, str]:
    """Join through an invite link; the bearer headers of the new seat."""
    token = invite.rsplit("/", 1)[1]
    joined = client.post(f"/api/join/{token}", json={"name": name})
    assert joined.status_code == 201, joined.text
    return {"Authorization": f"Bearer {joined.json()['session_token']}"}


def open_table(client: httpx2.Client) -> tuple[int, dict[str, str], dict[str, Any]]:
    body = {"name": "Busy", "ruleset": "empty-reach", "gm_name": "Gina", "observers": True}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    gm = {"Authorization": f"Bearer {made.json()['session_token']}"}
    return int(table["id"]), gm, table["invites"]


def new_character(client: httpx2.Client, table_id: int, who: dict[str, str], name: str) -> int:
    made = client.post(f"/api/tables/{table_id}/characters", json={"name": name}, headers=who)
    assert made.status_code == 201, made.text
    cid = int(made.json()["id"])
    edit = {"form": {"skills.Force": "D6"}}
    patched = client.patch(f"/api/tables/{table_id}/characters/{cid}", json=edit, headers=who)
    assert patched.status_code == 200, patched.text
    return cid
