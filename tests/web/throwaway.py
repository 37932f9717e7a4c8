"""Servers a fault test may kill and start again: a Redis and a PostgreSQL of the test's own,
on free loopback ports, so stopping them disturbs no other test. Each is ended by the
process id it was started with (its pid file), never by name."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from .conftest import free_port

PGBIN = Path(os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin"))


def _closed(port: int, seconds: float = 10) -> None:
    """Until nothing accepts connections on ``port`` (a killed process's sockets close as it
    exits, before its parent reaps it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return
        time.sleep(0.01)
    raise AssertionError(f"port {port} still accepts connections")


class OwnRedis:
    """``redis-server`` on a port of its own, nothing saved; ``kill`` is SIGKILL, ``start``
    brings it back on the same port, empty."""

    def __init__(self) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("no redis-server")
        self.folder = Path(tempfile.mkdtemp(prefix="rulebound-own-redis."))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.pid: int | None = None

    def start(self) -> OwnRedis:
        pidfile = self.folder / "redis.pid"
        pidfile.unlink(missing_ok=True)
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no", "--daemonize", "yes"]
        command += ["--dir", str(self.folder), "--pidfile", str(pidfile)]
        command += ["--logfile", str(self.folder / "redis.log")]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            ping = ["redis-cli", "-p", str(self.port), "ping"]
            answered = subprocess.run(ping, capture_output=True, text=True, check=False)
            if answered.stdout.strip() == "PONG" and pidfile.exists():
                self.pid = int(pidfile.read_text())
                return self
            time.sleep(0.05)
        raise AssertionError(f"redis-server did not start on {self.port}")

    def kill(self) -> None:
        """SIGKILL: Redis gone at once, its connections reset."""
        if self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)
            self.pid = None
            _closed(self.port)

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


class OwnPostgres:
    """A PostgreSQL 15 cluster of its own (run as the ``postgres`` user, so the test runs as
    root, as ``scripts/with-postgres`` does); ``stop`` takes a ``pg_ctl`` mode."""

    def __init__(self) -> None:
        if os.geteuid() != 0 or not (PGBIN / "initdb").exists():
            pytest.skip("needs root and PostgreSQL 15's binaries (as scripts/with-postgres)")
        self.folder = Path(tempfile.mkdtemp(prefix="rulebound-own-pg."))
        shutil.chown(self.folder, "postgres")
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/rulebound_test"
        self._as_postgres(
            str(PGBIN / "initdb"),
            "-D",
            str(self.folder / "data"),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
        )

    def _as_postgres(self, *command: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *command], check=True, capture_output=True
        )

    def start(self) -> OwnPostgres:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
        self._as_postgres(
            str(PGBIN / "pg_ctl"),
            "-D",
            str(self.folder / "data"),
            "-w",
            "-l",
            str(self.folder / "server.log"),
            "start",
            "-o",
            options,
        )
        return self

    def create_database(self) -> OwnPostgres:
        self._as_postgres(
            str(PGBIN / "psql"),
            "-q",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-c",
            "CREATE DATABASE rulebound_test",
        )
        return self

    def stop(self, mode: str = "immediate") -> None:
        self._as_postgres(
            str(PGBIN / "pg_ctl"), "-D", str(self.folder / "data"), "-m", mode, "stop"
        )

    def close(self) -> None:
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(PGBIN / "pg_ctl"),
                "-D",
                str(self.folder / "data"),
                "-m",
                "immediate",
                "stop",
            ],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(self.folder, ignore_errors=True)
