"""The web table under load: durable rolls/s, roll latency, and live-feed latency (issue 13).

Bounded and loopback only: it starts each server itself on 127.0.0.1 (``rulebound
serve`` on a fresh SQLite file; a bare Starlette app appending one row per request to
SQLite with the same durability settings, as the baseline; and, when PostgreSQL and
Redis are given, ``rulebound serve --workers 2`` on them), drives it for a fixed time,
stops it, and prints the figures. Run it alone (``flock /tmp/bench.lock ...``): a load
generator on the same machine shares its cores with the server. The servers' roll loads
are taken in turn, in ``--rounds`` stretches (A B C, then C B A), after ``--warmup``
seconds of load on each that are not counted, each stretch on a quiet machine
(``settle``): a container's speed drifts over a minute, and servers measured one after
the other would meet different machines; and the baseline's own rate follows where the
kernel puts its thread pool's thread (about 6,300 or 9,300/s here, from one stretch to
the next), so four stretches (the default) sample it more than two. The feeds are
measured first, before the roll loads leave PostgreSQL vacuuming.

    python benchmarks/web_load.py [--seconds 20] [--clients 16] [--viewers 100,1000]
    scripts/with-postgres scripts/with-redis python benchmarks/web_load.py   # adds PG+Redis
    python benchmarks/web_load.py --in-process 3000 [--profile]   # CPU per roll, no HTTP
    (--uncached: every roll works out its request and card; PROFILE_SORT, PROFILE_LINES)

Rolls: ``--clients`` players, each with their own seat and character, post public
rolls as fast as they can (one keep-alive connection each) for ``--seconds``; every
answered roll is committed (201 after the commit). Feed: N observers hold the live
feed open while one player makes ``--feed-rolls`` rolls, ``--feed-gap`` s apart; an
event's latency is its arrival at the viewer minus the entry's ``created_at`` (set
just before the commit, same clock).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Coroutine, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar, cast

HOST = "127.0.0.1"
ROLL = {"form": {"skill": "Force"}, "privacy": "public"}
NO_LIMITS = {f"RULEBOUND_RATE_{k}": "off" for k in ("SESSION", "TABLE", "ANONYMOUS")}
START_SECONDS = 60.0
T = TypeVar("T")

BASELINE = textwrap.dedent(
    """
    import sqlite3, sys, threading, uvicorn
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    db = sqlite3.connect(sys.argv[1], check_same_thread=False, isolation_level=None)
    for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=5000",
                   "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"):
        db.execute(pragma)
    db.execute("CREATE TABLE IF NOT EXISTS rolls (id INTEGER PRIMARY KEY, body TEXT)")
    lock = threading.Lock()

    def append(body):
        with lock:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("INSERT INTO rolls (body) VALUES (?)", (body,)).lastrowid
            db.execute("COMMIT")
        return row

    async def roll(request):
        body = (await request.body()).decode()
        return JSONResponse({"id": await run_in_threadpool(append, body)}, status_code=201)

    app = Starlette(routes=[Route("/roll", roll, methods=["POST"])])
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
    """
)


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop where it is installed (as the servers run): the load
    generator's own event loop costs the cores it shares with them less."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, command: list[str], port: int, env: dict[str, str], log: Path) -> None:
        self.port = port
        self._log = log.open("ab")
        self._proc = subprocess.Popen(
            command, env=os.environ | env, stdout=self._log, stderr=subprocess.STDOUT
        )
        self.pid = self._proc.pid
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"server exited: see {log}")
            try:
                socket.create_connection((HOST, port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._log.close()


# a lean HTTP/1.1 client: one keep-alive connection, no parsing beyond what is needed


class Conn:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        self.writer.write(request_bytes(method, self.port, path, body, token))
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        raw = await self.reader.readexactly(length)
        return status, json.loads(raw) if raw else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Poster(asyncio.Protocol):
    """The hammer's client: one keep-alive connection posting the same request again and
    again, reading only each answer's status and length. The load generator shares the
    machine's cores with the servers it measures, so it spends as little as it can."""

    LENGTH = re.compile(rb"\r\ncontent-length: *([0-9]+)", re.IGNORECASE)

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.buffer = b""
        self.answer: asyncio.Future[int] | None = None
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    async def post(self) -> int:
        """Send the request; the answer's status."""
        assert self.transport is not None
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(self.request)
        return await self.answer

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        found = self.LENGTH.search(self.buffer, 0, end + 2)
        size = end + 4 + (int(found.group(1)) if found else 0)
        if len(self.buffer) < size:
            return
        status = int(self.buffer[9:12])
        self.buffer = self.buffer[size:]
        if self.answer is not None and not self.answer.done():
            self.answer.set_result(status)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc or ConnectionResetError("the server closed"))


def request_bytes(method: str, port: int, path: str, body: Any, token: str | None) -> bytes:
    """An HTTP/1.1 request with a JSON body (none where ``body`` is None)."""
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
    head += f"Content-Length: {len(data)}\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    return head.encode() + b"\r\n" + data


async def seat_table(port: int, players: int, observers: int) -> dict[str, Any]:
    """A table with ``players`` seats (one character each) and ``observers`` seats."""
    conn = Conn(port)
    body = {"name": "Load", "ruleset": "empty-reach", "gm_name": "Gina", "observers": True}
    status, made = await conn.request("POST", "/api/tables", body)
    assert status == 201, made
    table = made["table"]
    tid = table["id"]
    invites = {k: v.rsplit("/", 1)[1] for k, v in table["invites"].items() if v}
    seats: list[tuple[str, int]] = []
    for i in range(players):
        status, joined = await conn.request(
            "POST", f"/api/join/{invites['player']}", {"name": f"P{i}"}
        )
        assert status == 201, joined
        token = joined["session_token"]
        status, char = await conn.request(
            "POST", f"/api/tables/{tid}/characters", {"name": f"C{i}"}, token
        )
        assert status == 201, char
        seats.append((token, char["id"]))
    watchers = []
    for i in range(observers):
        status, joined = await conn.request(
            "POST", f"/api/join/{invites['observer']}", {"name": f"O{i}"}
        )
        assert status == 201, joined
        watchers.append(joined["session_token"])
    status, now = await conn.request("GET", f"/api/tables/{tid}", None, made["session_token"])
    assert status == 200, now
    conn.close()
    return {"id": tid, "seats": seats, "observers": watchers, "last": now["last_seq"]}


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def hammer(
    port: int,
    paths: Sequence[tuple[str, Any, str | None]],
    seconds: float,
    pid: int,
    *,
    warming: float = 2.0,
) -> dict[str, Any]:
    """Each (path, body, token) posts as fast as it can for ``seconds``: the raw figures of
    one stretch of load (``summary`` turns one or more into the report's). Answers to
    requests sent in the first ``warming`` seconds (a fresh server filling its caches)
    are left out of ``settled``. The CPU is the server's (``pid`` and its worker
    processes), and of what shares the machine with it (``cpu_around``)."""
    latencies: list[float] = []
    settled: list[float] = []
    failures = 0
    start = time.perf_counter()
    stop = start + seconds

    async def client(path: str, body: Any, token: str | None) -> None:
        nonlocal failures
        loop = asyncio.get_running_loop()
        request = request_bytes("POST", port, path, body, token)
        transport, conn = await loop.create_connection(lambda: Poster(request), HOST, port)
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            status = await conn.post()
            if status == 201:
                latencies.append(time.perf_counter() - t0)
                if t0 - start >= warming:
                    settled.append(latencies[-1])
            else:
                failures += 1
        transport.close()

    t0 = time.perf_counter()
    cpu, around = tree_cpu_seconds(pid), cpu_around(pid)
    await asyncio.gather(*(client(*p) for p in paths))
    used, around = tree_cpu_seconds(pid) - cpu, cpu_around(pid, around)
    return {
        "latencies": latencies,
        "settled": settled,
        "failures": failures,
        "elapsed": time.perf_counter() - t0,
        "used": used,
        "around": around,
    }


def summary(loads: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one server's stretches of load together: rolls/s over their time,
    p50 and p99 over all their answers, CPU per answered request (what load on the
    machine skews least)."""
    latencies = [x for load in loads for x in load["latencies"]]
    settled = [x for load in loads for x in load["settled"]]
    failures = sum(load["failures"] for load in loads)
    answered = max(1, len(latencies) + failures)
    around: dict[str, float] = {}
    for load in loads:
        for name, spent in load["around"].items():
            around[name] = around.get(name, 0.0) + spent
    return {
        "cpu_ms": {name: spent / answered * 1000 for name, spent in around.items()},
        "rolls": len(latencies),
        "failures": failures,
        "per_second": len(latencies) / sum(load["elapsed"] for load in loads),
        "p50_ms": pct(latencies, 0.50) * 1000,
        "p99_ms": pct(latencies, 0.99) * 1000,
        "p99_after_2s_ms": pct(settled, 0.99) * 1000,
        "server_cpu_ms": sum(load["used"] for load in loads) / answered * 1000,
        "stretches": [len(load["latencies"]) / load["elapsed"] for load in loads],
    }


async def roll_paths(port: int, clients: int) -> list[tuple[str, Any, str | None]]:
    """A table with ``clients`` seated players, each with a character: their roll requests."""
    table = await seat_table(port, clients, 0)
    return [
        (f"/api/tables/{table['id']}/characters/{cid}/roll", ROLL, token)
        for token, cid in table["seats"]
    ]


def busy_cores(window: float = 0.25) -> float:
    """How many cores' worth of CPU the whole machine used over ``window`` seconds."""

    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + fields[4]  # idle and iowait
        return sum(fields) - idle, sum(fields)

    busy0, all0 = sample()
    time.sleep(window)
    busy1, all1 = sample()
    cores = os.cpu_count() or 1
    return (busy1 - busy0) / max(1, all1 - all0) * cores


def settle(limit: float = 10.0, quiet: float = 0.1) -> None:
    """Wait (at most ``limit`` seconds) until the machine is quiet: what one server's load
    left running (PostgreSQL's autovacuum after tens of thousands of inserts, a
    checkpoint) would otherwise slow the next server's."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and busy_cores() > quiet:
        pass


def interleaved(
    servers: dict[str, tuple[Server, list[tuple[str, Any, str | None]]]],
    seconds: float,
    rounds: int,
    warmup: float = 0.0,
) -> dict[str, dict[str, Any]]:
    """Each server's roll load, ``seconds`` in all, in ``rounds`` stretches taken in turn
    (the order reversed every other round: A B C, C B A): the machine's speed drifts (a
    container's cores slow down after an idle spell ends), and servers measured one
    after the other would each meet another machine. First, ``warmup`` seconds of load on
    each, not counted (a fresh server fills its caches)."""
    loads: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
    names = list(servers)
    for server, paths in servers.values():
        if warmup > 0:
            run(hammer(server.port, paths, warmup, server.pid))
    for turn in range(rounds):
        for name in names if turn % 2 == 0 else names[::-1]:
            server, paths = servers[name]
            settle()
            warming = 2.0 if turn == 0 else 0.0
            load = hammer(server.port, paths, seconds / rounds, server.pid, warming=warming)
            loads[name].append(run(load))
    return {name: summary(found) for name, found in loads.items()}


class Watcher(asyncio.Protocol):
    """One viewer's feed: every chunk is timestamped on arrival and parsed afterwards."""

    def __init__(self) -> None:
        self.chunks: list[tuple[float, bytes]] = []
        self.opened = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.chunks.append((time.time(), data))
        if not self.opened.done() and b"retry:" in data:
            self.opened.set_result(None)

    def latencies(self) -> list[float]:
        found = []
        buffer = b""
        for at, data in self.chunks:
            buffer += data
            for match in CREATED.finditer(buffer):
                created = datetime.fromisoformat(match.group(1).decode()).timestamp()
                found.append(at - created)
            cut = buffer.rfind(b"\n\n")
            if cut >= 0:
                buffer = buffer[cut + 2 :]
        return found


CREATED = re.compile(rb'"kind":"roll".*?"created_at":"([^"]+)"')


async def feed_load(port: int, viewers: int, rolls: int, gap: float) -> dict[str, float]:
    table = await seat_table(port, 1, viewers)
    tid = table["id"]
    loop = asyncio.get_running_loop()
    watchers: list[Watcher] = []
    for token in table["observers"]:
        transport, watcher = await loop.create_connection(Watcher, HOST, port)
        request = (
            f"GET /api/tables/{tid}/feed?after={table['last']} HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
        )
        transport.write(request.encode())
        watchers.append(watcher)
    await asyncio.wait_for(asyncio.gather(*(w.opened for w in watchers)), 120)
    await asyncio.sleep(1.0)
    token, cid = table["seats"][0]
    conn = Conn(port)
    status, _ = await conn.request("POST", f"/api/tables/{tid}/characters/{cid}/roll", ROLL, token)
    assert status == 201  # a first roll to warm up, not counted
    await asyncio.sleep(1.0)
    for watcher in watchers:
        watcher.chunks.clear()
    for _ in range(rolls):
        status, _ = await conn.request(
            "POST", f"/api/tables/{tid}/characters/{cid}/roll", ROLL, token
        )
        assert status == 201
        await asyncio.sleep(gap)
    await asyncio.sleep(2.0)
    conn.close()
    latencies: list[float] = []
    for watcher in watchers:
        latencies += watcher.latencies()
        if watcher.transport is not None:
            watcher.transport.close()
    return {
        "viewers": viewers,
        "events": len(latencies),
        "expected": viewers * rolls,
        "p50_ms": pct(latencies, 0.50) * 1000,
        "p99_ms": pct(latencies, 0.99) * 1000,
    }


def idle_cpu(port: int, pid: int, viewers: int, seconds: float) -> float:
    """The server's CPU use (% of one core) while ``viewers`` feeds sit idle."""

    async def run() -> float:
        table = await seat_table(port, 0, viewers)
        loop = asyncio.get_running_loop()
        held = []
        for token in table["observers"]:
            transport, watcher = await loop.create_connection(Watcher, HOST, port)
            transport.write(
                (
                    f"GET /api/tables/{table['id']}/feed?after={table['last']} HTTP/1.1\r\n"
                    f"Host: {HOST}\r\nAuthorization: Bearer {token}\r\n\r\n"
                ).encode()
            )
            held.append((transport, watcher))
        await asyncio.wait_for(asyncio.gather(*(w.opened for _, w in held)), 120)
        await asyncio.sleep(1.0)
        before = cpu_seconds(pid)
        await asyncio.sleep(seconds)
        used = cpu_seconds(pid) - before
        for transport, _ in held:
            transport.close()
        return 100 * used / seconds

    return asyncio.run(run())


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """The CPU of ``pid`` and of every process below it (``--workers``' processes)."""
    try:
        total = cpu_seconds(pid)
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    return total + sum(tree_cpu_seconds(int(child)) for child in children)


def cpu_around(pid: int, before: dict[str, float] | None = None) -> dict[str, float]:
    """CPU seconds of what shares the machine with a server under load: each of its worker
    processes (``worker PID``), PostgreSQL's and Redis's processes, and this load generator;
    given ``before``, what each spent since."""
    now: dict[str, float] = {"load generator": time.process_time()}
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            now[f"worker {child}"] = tree_cpu_seconds(int(child))
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError, ValueError):
                name = (proc / "comm").read_text().strip()
                if name in ("postgres", "redis-server"):
                    now[name] = now.get(name, 0.0) + cpu_seconds(int(proc.name))
    if before is None:
        return now
    return {name: now[name] - before.get(name, 0.0) for name in now if name in before}


def rulebound_server(folder: Path, database: str, extra: list[str], env: dict[str, str]) -> Server:
    port = free_port()
    command = [sys.executable, "-c", "from rulebound.cli.app import main; main()", "serve"]
    command += ["--database", database, "--port", str(port), *extra]
    return Server(command, port, NO_LIMITS | env, folder / f"server-{port}.log")


def measure_feeds(server: Server, args: argparse.Namespace) -> list[dict[str, float]]:
    found = []
    for viewers in args.viewers:
        settle()
        found.append(run(feed_load(server.port, viewers, args.feed_rolls, args.feed_gap)))
    return found


def in_process(
    rolls: int, profile: bool, uncached: bool = False, pg: tuple[str, str] | None = None
) -> dict[str, Any]:
    """CPU per roll through the real ASGI app in this process, without HTTP, sockets or the
    thread pool (its hops run inline, so one profile sees all): what a roll costs the
    server itself. ``profile``: the top functions by cumulative time, printed. ``uncached``:
    the roll cache keeps nothing (``web/rollcache``), as for a roll of a new shape. ``pg``
    (``--pg-url`` and ``--redis-url`` with ``--pg-in-process``): on PostgreSQL and Redis."""
    import cProfile
    import pstats

    import anyio.to_thread

    async def inline(func: Any, *args: Any, **_: Any) -> Any:
        return func(*args)

    anyio.to_thread.run_sync = inline  # type: ignore[assignment]
    from rulebound.web.app import create_app
    from rulebound.web.settings import Settings

    with tempfile.TemporaryDirectory(prefix="rulebound-profile-") as tmp:
        url, redis = f"sqlite:///{tmp}/rb.sqlite3", None
        if pg is not None:
            subprocess.run([sys.executable, "-c", RESET, pg[0]], check=True)
            url, redis = pg
        limits = {"session_rate": None, "table_rate": None, "anonymous_rate": None}
        app = create_app(Settings(database_url=url, redis_url=redis, **limits))
        if uncached:
            from rulebound.web.rollcache import RollCache

            app.state.service.rolls = RollCache(requests=0, cards=0)

        async def call(path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
            data = json.dumps(body).encode()
            headers = [(b"host", HOST.encode()), (b"content-type", b"application/json")]
            headers.append((b"content-length", str(len(data)).encode()))
            if token:
                headers.append((b"authorization", f"Bearer {token}".encode()))
            scope: dict[str, Any] = {"type": "http", "asgi": {"version": "3.0"}}
            scope |= {"http_version": "1.1"}
            scope |= {"method": "POST", "scheme": "http", "path": path, "query_string": b""}
            scope |= {"raw_path": path.encode(), "headers": headers, "root_path": ""}
            scope |= {"client": (HOST, 1), "server": (HOST, 80), "state": {}}
            messages = [{"type": "http.request", "body": data, "more_body": False}]
            answer: dict[str, Any] = {"body": b""}

            async def receive() -> Any:
                if messages:
                    return messages.pop()
                await asyncio.sleep(3600)
                return {"type": "http.disconnect"}

            async def send(message: Any) -> None:
                answer["status"] = message.get("status", answer.get("status"))
                answer["body"] += message.get("body", b"")

            await app(scope, receive, send)
            return answer["status"], json.loads(answer["body"])

        async def run() -> dict[str, Any]:
            async with app.router.lifespan_context(app):
                body = {"name": "Load", "ruleset": "empty-reach", "gm_name": "Gina"}
                status, made = await call("/api/tables", body)
                tid, token = made["table"]["id"], made["session_token"]
                status, char = await call(f"/api/tables/{tid}/characters", {"name": "C"}, token)
                path = f"/api/tables/{tid}/characters/{char['id']}/roll"
                for _ in range(200):  # warm up: caches, compiled statements
                    await call(path, ROLL, token)
                profiler = cProfile.Profile(time.process_time) if profile else None
                cpu, wall = time.process_time(), time.perf_counter()
                if profiler:
                    profiler.enable()
                for _ in range(rolls):
                    status, _entry = await call(path, ROLL, token)
                    assert status == 201, _entry
                if profiler:
                    profiler.disable()
                    stats = pstats.Stats(profiler)
                    stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative"))
                    stats.print_stats(int(os.environ.get("PROFILE_LINES", "25")))
                    if os.environ.get("PROFILE_CALLERS"):
                        stats.print_callers(os.environ["PROFILE_CALLERS"])
                    if os.environ.get("PROFILE_CALLEES"):
                        stats.print_callees(os.environ["PROFILE_CALLEES"])
                return {
                    "rolls": rolls,
                    "cpu_ms_per_roll": (time.process_time() - cpu) / rolls * 1000,
                    "wall_ms_per_roll": (time.perf_counter() - wall) / rolls * 1000,
                }

        return asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="roll load per server")
    parser.add_argument(
        "--rounds", type=int, default=4, help="the roll loads in this many stretches, in turn"
    )
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="seconds of roll load first, not counted"
    )
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--viewers", default="100,1000", help="feed sizes, comma-separated")
    parser.add_argument("--feed-rolls", type=int, default=30)
    parser.add_argument("--feed-gap", type=float, default=0.1)
    parser.add_argument("--idle-viewers", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--pg-url", default=os.environ.get("RULEBOUND_TEST_PG_URL"))
    parser.add_argument("--redis-url", default=os.environ.get("RULEBOUND_TEST_REDIS_URL"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--in-process",
        type=int,
        default=0,
        metavar="ROLLS",
        help="only measure CPU per roll through the ASGI app in this process (no servers)",
    )
    parser.add_argument("--profile", action="store_true", help="with --in-process: cProfile")
    parser.add_argument(
        "--pg-in-process",
        action="store_true",
        help="with --in-process: on --pg-url and --redis-url (scripts/with-postgres, with-redis)",
    )
    parser.add_argument(
        "--uncached", action="store_true", help="with --in-process: no roll cache (each roll new)"
    )
    args = parser.parse_args(argv)
    if args.in_process:
        pg = (args.pg_url, args.redis_url) if args.pg_in_process else None
        found = in_process(args.in_process, args.profile, args.uncached, pg)
        print(
            f"{found['rolls']} rolls in process: {found['cpu_ms_per_roll']:.3f} ms CPU"
            f" ({found['wall_ms_per_roll']:.3f} ms of time) per roll"
        )
        return 0
    args.viewers = [int(v) for v in args.viewers.split(",") if v]
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket per viewer, both ends
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results: dict[str, Any] = {"load": os.getloadavg(), "cpus": os.cpu_count()}
    results["rounds"] = args.rounds
    with contextlib.ExitStack() as up:
        folder = Path(up.enter_context(tempfile.TemporaryDirectory(prefix="rulebound-bench-")))
        port = free_port()
        baseline = Server(
            [sys.executable, "-c", BASELINE, str(folder / "baseline.sqlite3"), str(port)],
            port,
            {},
            folder / "baseline.log",
        )
        up.callback(baseline.stop)
        loaded: dict[str, tuple[Server, list[tuple[str, Any, str | None]]]] = {
            "baseline": (baseline, [("/roll", ROLL, None)] * args.clients)
        }
        sqlite = rulebound_server(folder, f"sqlite:///{folder / 'rb.sqlite3'}", [], {})
        up.callback(sqlite.stop)
        loaded["sqlite"] = (sqlite, run(roll_paths(sqlite.port, args.clients)))
        pg_server = None
        if args.pg_url and args.redis_url:
            subprocess.run([sys.executable, "-c", RESET, args.pg_url], check=True)
            extra = ["--workers", str(args.workers), "--redis", args.redis_url]
            pg_server = rulebound_server(folder, args.pg_url, extra, {})
            up.callback(pg_server.stop)
            loaded["postgresql_redis"] = (pg_server, run(roll_paths(pg_server.port, args.clients)))
        # the feeds first: what tens of thousands of rolls leave PostgreSQL doing
        # (autovacuum, a checkpoint) comes later than a pause can wait for
        feeds = {"sqlite": measure_feeds(sqlite, args)}
        if args.idle_viewers:
            settle()
            results["idle_cpu_percent"] = idle_cpu(
                sqlite.port, sqlite.pid, args.idle_viewers, args.idle_seconds
            )
        if pg_server is not None:
            feeds["postgresql_redis"] = measure_feeds(pg_server, args)
        rolls = interleaved(loaded, args.seconds, args.rounds, args.warmup)
        results["baseline"] = rolls["baseline"]
        results["sqlite"] = {"rolls": rolls["sqlite"], "feeds": feeds["sqlite"]}
        if pg_server is not None:
            results["postgresql_redis"] = {
                "rolls": rolls["postgresql_redis"],
                "feeds": feeds["postgresql_redis"],
                "workers": args.workers,
            }
    base = results["baseline"]["per_second"]
    results["ratio"] = results["sqlite"]["rolls"]["per_second"] / base if base else 0.0
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(report(results))
    return 0


RESET = (
    "import sys; from rulebound.store.testing import reset_postgres; reset_postgres(sys.argv[1])"
)


def report(results: dict[str, Any]) -> str:
    lines = [
        f"load average before: {results['load'][0]:.2f} ({results['cpus']} cores)",
        "| server | rolls/s | p50 ms | p99 ms | p99 after 2 s | rolls | failures"
        " | server CPU ms/roll |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def row(name: str, r: dict[str, float]) -> str:
        return (
            f"| {name} | {r['per_second']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f}"
            f" | {r['p99_after_2s_ms']:.1f} | {r['rolls']:.0f} | {r['failures']:.0f}"
            f" | {r['server_cpu_ms']:.2f} |"
        )

    lines.append(row("bare Starlette + SQLite (baseline)", results["baseline"]))
    lines.append(row("rulebound, 1 process, SQLite", results["sqlite"]["rolls"]))
    pg = results.get("postgresql_redis")
    if pg:
        lines.append(row(f"rulebound, {pg['workers']} processes, PostgreSQL + Redis", pg["rolls"]))
    lines.append(f"rulebound/baseline (SQLite): {results['ratio']:.2f}")
    each = results["baseline"]["stretches"]
    if each:
        ours = results["sqlite"]["rolls"]["per_second"]
        lines.append(
            f"rulebound/baseline against the baseline's fastest and slowest stretch:"
            f" {ours / max(each):.2f} and {ours / min(each):.2f} (its rate follows where the"
            " kernel puts its thread pool's thread)"
        )
    stretches = "; ".join(
        f"{name} " + ", ".join(f"{rate:.0f}" for rate in r["stretches"])
        for name, r in (
            ("baseline", results["baseline"]),
            ("SQLite", results["sqlite"]["rolls"]),
            *([("PostgreSQL", pg["rolls"])] if pg else []),
        )
    )
    lines.append(f"rolls/s in each of {results['rounds']} stretches, taken in turn: {stretches}")
    if pg:
        spent = ", ".join(
            f"{name} {ms:.2f}" for name, ms in sorted(pg["rolls"]["cpu_ms"].items()) if ms >= 0.005
        )
        lines.append(f"PostgreSQL + Redis rolls, CPU ms per roll: {spent}")
    lines += ["", "| server | viewers | events | p50 ms | p99 ms |", "|---|---|---|---|---|"]
    for name, key in (("SQLite", "sqlite"), ("PostgreSQL + Redis", "postgresql_redis")):
        for f in results.get(key, {}).get("feeds", []):
            lines.append(
                f"| {name} | {f['viewers']} | {f['events']:.0f}/{f['expected']:.0f}"
                f" | {f['p50_ms']:.1f} | {f['p99_ms']:.1f} |"
            )
    if "idle_cpu_percent" in results:
        lines.append(f"\nidle viewers: {results['idle_cpu_percent']:.2f}% of a core (SQLite)")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
