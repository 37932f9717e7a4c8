"""Two server processes on one PostgreSQL database with Redis as their backplane (issue 13).

Each process is uvicorn in a subprocess with feeds that poll the log only every 60 s,
so what reaches a viewer sooner came through Redis. Needs RULEBOUND_TEST_PG_URL and
RULEBOUND_TEST_REDIS_URL (``scripts/with-postgres scripts/with-redis``); outside CI the
tests skip without them, under CI=true they fail.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx2
import pytest

from rulebound.store import Scope, SqlStore

from ..trust.servers import KEEPALIVE, NO_RATE_LIMITS, ServerProcess
from .conftest import Party, free_port, seat_party
from .throwaway import OwnPostgres, OwnRedis

REDIS_ENV = "RULEBOUND_TEST_REDIS_URL"
ROLL = {"form": {"skill": "Force"}, "privacy": "public"}


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The run's Redis; under pytest-xdist a Redis of the worker's own, since pub/sub
    channels and Redis's command counts span its databases and two workers' tables would
    hear each other."""
    url = os.environ.get(REDIS_ENV, "").strip()
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{REDIS_ENV} is not set: CI must test Redis (.ci/run sets it)")
        pytest.skip(f"{REDIS_ENV} is not set (.ci/run sets it)")
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield url
        return
    server = OwnRedis().start()
    try:
        yield server.url
    finally:
        server.close()


@pytest.fixture
def backends(required_pg_url: str, redis_url: str) -> dict[str, str]:
    import redis

    redis.Redis.from_url(redis_url).flushdb()  # no rate-limit bucket left from another test
    return {"RULEBOUND_DATABASE_URL": required_pg_url, "RULEBOUND_REDIS_URL": redis_url}


class Pair:
    """What a test starts: two processes, clients and feed listeners, all closed after it."""

    def __init__(self) -> None:
        self.processes: list[ServerProcess] = []
        self.clients: list[httpx2.Client] = []
        self.listeners: list[Listener] = []

    def start(self, tmp_path: Path, backends: dict[str, str], **env: str) -> list[ServerProcess]:
        extra = backends | {"RULEBOUND_POLL_SECONDS": "60", KEEPALIVE: "0.2"} | env
        url = extra.pop("RULEBOUND_DATABASE_URL")
        for n in range(2):
            server = ServerProcess(url, tmp_path, str(n), extra)
            self.processes.append(server.start())
        return self.processes

    def party(self, process: ServerProcess) -> Party:
        client = httpx2.Client(base_url=process.url, timeout=30)
        self.clients.append(client)
        return seat_party(client)  # type: ignore[arg-type]

    def listen(self, url: str, headers: dict[str, str], after: int = 0) -> Listener:
        listener = Listener(url, headers, after)
        self.listeners.append(listener)
        listener.start()
        assert listener.open.wait(10)
        return listener

    def close(self) -> None:
        for process in self.processes:
            process.stop()  # ends every open feed
        for listener in self.listeners:
            listener.join(timeout=10)
        for client in self.clients:
            client.close()


@pytest.fixture
def pair() -> Iterator[Pair]:
    started = Pair()
    yield started
    started.close()


def _events(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    event: dict[str, str] = {}
    for line in lines:
        if not line:
            if "data" in event:
                yield event.get("event", "message"), json.loads(event["data"])
            event = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(":")
            event[key] = value.removeprefix(" ")


class Listener(threading.Thread):
    """Holds a feed open on one process and records what arrives, until ``until`` is met."""

    def __init__(self, url: str, headers: dict[str, str], after: int = 0) -> None:
        super().__init__(daemon=True)
        self.url, self.headers, self.after = url, headers, after
        self.got: list[tuple[str, dict[str, Any]]] = []
        self.open = threading.Event()
        self.live = threading.Event()
        """Set at the first keep-alive: the feed has read its backlog and is subscribed."""
        self.done = threading.Event()

    def run(self) -> None:
        path = f"{self.url}?after={self.after}"
        try:
            with httpx2.stream("GET", path, headers=self.headers, timeout=30) as stream:
                lines = stream.iter_lines()
                assert next(lines).startswith("retry:")
                self.open.set()
                for kind, data in _events(self._marked(lines)):
                    self.got.append((kind, data))
                    if self.done.is_set() or kind == "revoked":
                        return
        except httpx2.HTTPError:
            return

    def _marked(self, lines: Iterator[str]) -> Iterator[str]:
        for line in lines:
            if line.startswith(": keepalive"):
                self.live.set()
            yield line

    def summaries(self) -> list[str]:
        return [d.get("summary", "") for kind, d in self.got if kind == "entry"]

    def wait_for(self, test: Any, seconds: float = 10.0) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if test(self):
                return True
            time.sleep(0.02)
        return False


def _feed(process: ServerProcess, party: Party) -> str:
    return f"{process.url}/api/tables/{party.table_id}/feed"


def _character(party: Party, who: dict[str, str], name: str) -> int:
    made = party.client.post(party.url("/characters"), json={"name": name}, headers=who)
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


def test_a_roll_through_one_process_reaches_a_viewer_on_the_other(
    pair: Pair, tmp_path: Path, backends: dict[str, str]
) -> None:
    one, other = pair.start(tmp_path, backends)
    party = pair.party(one)
    cid = _character(party, party.player, "Ana")
    last = party.client.get(party.url(), headers=party.gm).json()["last_seq"]
    watchers = {
        who: pair.listen(_feed(other, party), getattr(party, who), last)
        for who in ("observer", "other", "gm", "player")
    }
    for watcher in watchers.values():  # subscribed once their backlog (empty) is read
        assert watcher.live.wait(10)
    roll = party.url(f"/characters/{cid}/roll")
    public = party.client.post(roll, json=ROLL, headers=party.player)
    assert public.status_code == 201, public.text
    hidden = ROLL | {"privacy": "self"}
    own = party.client.post(roll, json=hidden, headers=party.player)
    assert own.status_code == 201, own.text
    note = party.client.post(party.url("/characters"), json={"name": "Cy"}, headers=party.gm)
    assert note.status_code == 201
    for watcher in watchers.values():
        assert watcher.wait_for(lambda w: any("created Cy" in s for s in w.summaries()), 5)
        watcher.done.set()
    seqs = {who: [d["seq"] for _, d in w.got] for who, w in watchers.items()}
    both = sorted([public.json()["seq"], own.json()["seq"]])
    assert public.json()["seq"] in seqs["observer"]
    assert own.json()["seq"] not in seqs["observer"]  # "self": the roller's alone
    assert own.json()["seq"] not in seqs["other"]
    assert own.json()["seq"] not in seqs["gm"]
    assert [s for s in seqs["player"] if s in both] == both
    shown = {d["seq"]: d for _, d in watchers["player"].got}
    assert shown[own.json()["seq"]]["card"] == own.json()["card"]


def test_a_revoke_through_one_process_ends_the_feed_on_the_other(
    pair: Pair, tmp_path: Path, backends: dict[str, str]
) -> None:
    one, other = pair.start(tmp_path, backends)
    party = pair.party(one)
    watcher = pair.listen(_feed(other, party), party.other)
    assert watcher.live.wait(10)  # subscribed once its backlog is read
    revoked = party.client.patch(
        party.url(f"/members/{party.ids['other']}"), json={"revoked": True}, headers=party.gm
    )
    assert revoked.status_code == 200, revoked.text
    assert watcher.wait_for(lambda w: any(kind == "revoked" for kind, _ in w.got), 5)
    on_other = httpx2.get(f"{other.url}/api/tables/{party.table_id}", headers=party.other)
    assert on_other.status_code == 403


def test_a_rate_limit_is_shared_by_the_processes(
    pair: Pair, tmp_path: Path, backends: dict[str, str]
) -> None:
    one, other = pair.start(tmp_path, backends, RULEBOUND_RATE_SESSION="4/0.01")
    party = pair.party(one)
    cid = _character(party, party.player, "Ana")  # one of the seat's 4
    path = f"/api/tables/{party.table_id}/characters/{cid}/chances"
    answers = [
        httpx2.post(process.url + path, json={"form": {"skill": "Force"}}, headers=party.player)
        for process in (other, one, other, one, other)
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert int(answers[-1].headers["Retry-After"]) >= 1
    # another seat has its own budget, on either process
    fresh = httpx2.post(other.url + path, json={"form": {"skill": "Force"}}, headers=party.gm)
    assert fresh.status_code == 200


def test_a_killed_process_loses_nothing_acknowledged(
    pair: Pair, tmp_path: Path, backends: dict[str, str], pg_url: str
) -> None:
    doomed, survivor = pair.start(tmp_path, backends)
    party = pair.party(survivor)
    players = [party.player, party.other]
    cids = [_character(party, who, f"C{n}") for n, who in enumerate(players)]
    last = party.client.get(party.url(), headers=party.gm).json()["last_seq"]
    watcher = pair.listen(_feed(survivor, party), party.gm, last)
    assert watcher.live.wait(10)  # subscribed once its backlog (empty) is read
    acked: dict[int, int] = {}
    lock, stop = threading.Lock(), threading.Event()

    def write(process: ServerProcess, who: dict[str, str], cid: int) -> None:
        path = f"{process.url}/api/tables/{party.table_id}/characters/{cid}/roll"
        with httpx2.Client(timeout=30) as http:
            for _ in range(500):
                if stop.is_set():
                    return
                try:
                    answer = http.post(path, json=ROLL, headers=who)
                except httpx2.TransportError:
                    continue  # the process died with this request in flight
                if answer.status_code == 201:
                    with lock:
                        acked[answer.json()["id"]] = answer.json()["seq"]

    threads = [
        threading.Thread(target=write, args=(process, who, cid))
        for process in (doomed, survivor)
        for who, cid in zip(players, cids, strict=True)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while len(acked) < 30 and time.monotonic() < deadline:
        time.sleep(0.01)
    doomed.kill()
    time.sleep(0.5)  # the survivor goes on writing alone
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert len(acked) >= 30
    store = SqlStore(pg_url, migrate=False)
    try:
        log = store.log(party.table_id)
        gm = party.ids["gm"]
        scope = Scope(gm, True)
        visible = [e.seq for e in store.entries(party.table_id, scope, after=last, limit=10**6)]
    finally:
        store.close()
    assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
    by_id = {entry.id: entry.seq for entry in log}
    assert all(by_id.get(entry_id) == seq for entry_id, seq in acked.items())
    # the viewer on the surviving process saw every entry, from both processes, in order
    assert watcher.wait_for(lambda w: len(w.got) >= len(log) - last, 10)
    watcher.done.set()
    assert [d["seq"] for _, d in watcher.got] == visible


@contextmanager
def _served(
    backends: dict[str, str], tmp_path: Path
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``rulebound serve --workers 2 --redis URL`` on PostgreSQL, answering: its URL and process."""
    port = free_port()
    main = "from rulebound.cli.app import main; main()"
    command = [sys.executable, "-c", main, "serve", "--port", str(port), "--workers", "2"]
    command += ["--database", backends["RULEBOUND_DATABASE_URL"]]
    command += ["--redis", backends["RULEBOUND_REDIS_URL"]]
    env = os.environ | {"RULEBOUND_POLL_SECONDS": "60"} | NO_RATE_LIMITS
    log = (tmp_path / "serve.log").open("ab")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx2.get(url + "/api/rulesets", timeout=2).status_code == 200:
                    break
            except httpx2.TransportError:
                time.sleep(0.1)
        yield url, server
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_serve_with_workers_runs_them_on_one_port(backends: dict[str, str], tmp_path: Path) -> None:
    """``rulebound serve --workers 2 --redis URL`` on PostgreSQL: every roll answered, on
    whichever worker a connection lands, reaches a feed held open on one of them."""
    watcher: Listener | None = None
    try:
        with (
            _served(backends, tmp_path) as (url, _),
            httpx2.Client(base_url=url, timeout=30) as client,
        ):
            party = seat_party(client)  # type: ignore[arg-type]
            cid = _character(party, party.player, "Ana")
            last = client.get(party.url(), headers=party.gm).json()["last_seq"]
            watcher = Listener(f"{url}/api/tables/{party.table_id}/feed", party.observer, last)
            watcher.start()
            assert watcher.open.wait(10)
            time.sleep(0.3)
            seqs = []
            for _ in range(6):  # a fresh connection each: the workers share them out
                path = f"{url}/api/tables/{party.table_id}/characters/{cid}/roll"
                rolled = httpx2.post(path, json=ROLL, headers=party.player)
                assert rolled.status_code == 201, rolled.text
                seqs.append(rolled.json()["seq"])
            assert watcher.wait_for(lambda w: len(w.got) >= len(seqs), 10)
            watcher.done.set()
            assert [d["seq"] for _, d in watcher.got] == seqs
    finally:
        if watcher is not None:
            watcher.join(timeout=10)


def _connections_held(pid: int, port: int) -> int:
    """How many established TCP connections on local ``port`` process ``pid`` holds."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    held = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01" and fields[9] in inodes:
                held += 1
    return held


def test_serve_with_workers_shares_a_burst_of_connections_out(
    backends: dict[str, str], tmp_path: Path
) -> None:
    """Sixteen keep-alive connections opened at once land on both workers, not all on the
    first one woken (uvicorn's shared socket did that: ``cli/workers``). The kernel spreads
    them by their addresses: all sixteen on one of two sockets has odds of 1 in 32,768."""
    with _served(backends, tmp_path) as (url, server):
        port = int(url.rsplit(":", 1)[1])
        burst = [socket.create_connection(("127.0.0.1", port)) for _ in range(16)]
        try:
            for sock in burst:  # every one answered: accepted, and kept open
                sock.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            for sock in burst:
                assert sock.recv(12).startswith(b"HTTP/1.1 200")
            children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text()
            held = sorted((_connections_held(int(c), port) for c in children.split()), reverse=True)
        finally:
            for sock in burst:
                sock.close()
    assert sum(held) == 16  # the workers (and multiprocessing's resource tracker, none)
    assert held[1] > 0, held


# Faults: a Redis or a PostgreSQL of the test's own, killed or stopped under two processes.


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis().start()
    yield server
    server.close()


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    server = OwnPostgres().start().create_database()
    yield server
    server.close()


class Rolling:
    """Rolls through both processes, from two seats each, until stopped: what was
    acknowledged (entry id: seq) and every answer that was not a 201."""

    def __init__(self, party: Party, processes: list[ServerProcess], cids: list[int]) -> None:
        self.acked: dict[int, int] = {}
        self.refused: list[tuple[int, str]] = []
        self.lock, self.stopping = threading.Lock(), threading.Event()
        players = [party.player, party.other]
        self.threads = [
            threading.Thread(target=self._roll, args=(process, party, who, cid))
            for process in processes
            for who, cid in zip(players, cids, strict=True)
        ]
        for thread in self.threads:
            thread.start()

    def _roll(self, process: ServerProcess, party: Party, who: dict[str, str], cid: int) -> None:
        path = f"{process.url}/api/tables/{party.table_id}/characters/{cid}/roll"
        with httpx2.Client(timeout=30) as http:
            while not self.stopping.is_set():
                answer = http.post(path, json=ROLL, headers=who)
                with self.lock:
                    if answer.status_code == 201:
                        self.acked[answer.json()["id"]] = answer.json()["seq"]
                    else:
                        self.refused.append((answer.status_code, answer.text[:200]))
                time.sleep(0.005)

    def count(self) -> int:
        with self.lock:
            return len(self.acked)

    def wait_for(self, count: int, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while self.count() < count and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.count() >= count

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=60)


def _logged(pg_url: str, table_id: int, gm: int, after: int) -> tuple[list[Any], list[int]]:
    """The table's log, and the seqs after ``after`` its game master may see."""
    store = SqlStore(pg_url, migrate=False)
    try:
        log = store.log(table_id)
        visible = store.entries(table_id, Scope(gm, True), after=after, limit=10**6)
        return log, [e.seq for e in visible]
    finally:
        store.close()


def test_redis_restarted_while_two_processes_roll_loses_nothing_and_pushes_again(
    pair: Pair, tmp_path: Path, backends: dict[str, str], pg_url: str, own_redis: OwnRedis
) -> None:
    """Redis killed mid-burst and started again on its port: every roll is still answered
    201, none acknowledged is lost, and within seconds of Redis's return a roll through one
    process reaches a viewer on the other by push again (the feeds poll only every 60 s)."""
    one, other = pair.start(tmp_path, backends | {"RULEBOUND_REDIS_URL": own_redis.url})
    party = pair.party(one)
    cids = [_character(party, who, f"C{n}") for n, who in enumerate([party.player, party.other])]
    last = party.client.get(party.url(), headers=party.gm).json()["last_seq"]
    watcher = pair.listen(_feed(other, party), party.gm, last)
    assert watcher.live.wait(10)  # subscribed once its backlog (empty) is read
    rolling = Rolling(party, [one, other], cids)
    try:
        rolling.wait_for(20)
        own_redis.kill()
        killed = rolling.count()
        time.sleep(2)
        rolling.wait_for(killed + 20)  # rolls go on being accepted without Redis
        own_redis.start()
        restarted = time.monotonic()
        time.sleep(0.5)
    finally:
        rolling.stop()
    assert not rolling.refused, rolling.refused[:5]
    pushed = False
    roll = party.url(f"/characters/{cids[0]}/roll")
    while not pushed and time.monotonic() < restarted + 10:
        seq = party.client.post(roll, json=ROLL, headers=party.player).json()["seq"]
        pushed = watcher.wait_for(lambda w, seq=seq: seq in [d["seq"] for _, d in w.got], 1.0)
    assert pushed, "no roll reached the other process's viewer by push after Redis's return"
    assert time.monotonic() - restarted < 10
    log, visible = _logged(pg_url, party.table_id, party.ids["gm"], last)
    assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
    by_id = {entry.id: entry.seq for entry in log}
    assert all(by_id.get(entry_id) == seq for entry_id, seq in rolling.acked.items())
    assert watcher.wait_for(lambda w: len(w.got) >= len(visible), 10)
    watcher.done.set()
    assert [d["seq"] for _, d in watcher.got] == visible  # every entry, in order
    for process in (one, other):
        said = process.output()
        assert said.count("Redis unreachable") == 1, said[-3000:]
        assert said.count("Redis back") == 1, said[-3000:]


DEFAULT_RATES = {
    "RULEBOUND_RATE_SESSION": "30/5",
    "RULEBOUND_RATE_TABLE": "120/20",
    "RULEBOUND_RATE_ANONYMOUS": "30/0.5",
}


def test_a_rate_limited_write_during_a_redis_outage_answers_201(
    pair: Pair, tmp_path: Path, backends: dict[str, str], own_redis: OwnRedis
) -> None:
    """With the default rate limits, Redis away: each process limits with its own buckets
    (and says so once), so a write is answered 201, never 500; once Redis is back the
    buckets are Redis's again (said once too)."""
    env = backends | {"RULEBOUND_REDIS_URL": own_redis.url} | DEFAULT_RATES
    one, other = pair.start(tmp_path, env)
    party = pair.party(one)
    cid = _character(party, party.player, "Ana")
    path = f"/api/tables/{party.table_id}/characters/{cid}/roll"
    own_redis.kill()
    for process in (one, other, one, other):
        started = time.monotonic()
        answer = httpx2.post(process.url + path, json=ROLL, headers=party.player, timeout=30)
        assert answer.status_code == 201, answer.text
        assert time.monotonic() - started < 3
    own_redis.start()
    import redis

    client = redis.Redis.from_url(own_redis.url)
    try:
        deadline = time.monotonic() + 15
        shared = False
        while not shared and time.monotonic() < deadline:
            for process in (one, other):
                answer = httpx2.post(process.url + path, json=ROLL, headers=party.player)
                assert answer.status_code == 201, answer.text
            shared = len(client.keys("rulebound:rate:*")) > 0
            time.sleep(0.3)
        assert shared, "the rate limits did not go back to Redis"
    finally:
        client.close()
    deadline = time.monotonic() + 15
    for process in (one, other):  # each goes back to Redis's buckets once its back-off has run
        while "rate limits shared" not in process.output():
            assert time.monotonic() < deadline, "a process's rate limits stayed its own"
            time.sleep(0.3)
            answer = httpx2.post(process.url + path, json=ROLL, headers=party.player)
            assert answer.status_code == 201, answer.text
    for process in (one, other):
        answer = httpx2.post(process.url + path, json=ROLL, headers=party.player)
        assert answer.status_code == 201, answer.text
        said = process.output()
        assert said.count("own buckets") == 1, said[-3000:]
        assert said.count("rate limits shared") == 1, said[-3000:]


def test_a_database_outage_answers_503_naming_the_database_and_both_processes_recover(
    pair: Pair, tmp_path: Path, backends: dict[str, str], own_postgres: OwnPostgres
) -> None:
    """PostgreSQL stopped with ``-m immediate`` under two processes: a write through either
    answers a JSON 503 at once that names the database, and succeeds again once PostgreSQL
    is back, with no restart."""
    one, other = pair.start(tmp_path, backends | {"RULEBOUND_DATABASE_URL": own_postgres.url})
    party = pair.party(one)
    cid = _character(party, party.player, "Ana")
    path = f"/api/tables/{party.table_id}/characters/{cid}/roll"
    own_postgres.stop("immediate")
    for process in (one, other, one, other):
        started = time.monotonic()
        answer = httpx2.post(process.url + path, json=ROLL, headers=party.player, timeout=30)
        assert time.monotonic() - started < 2
        assert answer.status_code == 503, answer.text
        assert answer.headers["content-type"] == "application/json"
        assert "database cannot be reached" in answer.json()["detail"], answer.text
        assert answer.headers["Retry-After"] == "5"
    own_postgres.start()
    for process in (one, other):
        deadline, status = time.monotonic() + 10, 0
        while status != 201 and time.monotonic() < deadline:
            status = httpx2.post(process.url + path, json=ROLL, headers=party.player).status_code
            time.sleep(0.05)
        assert status == 201, f"{process.url} did not write again once PostgreSQL was back"


def test_a_sheet_changed_on_one_process_is_never_rolled_stale_on_the_other(
    pair: Pair, tmp_path: Path, backends: dict[str, str], own_redis: OwnRedis
) -> None:
    """Redis away, so the notice of a sheet's change reaches no other process: a roll through
    the other process must still be made from the sheet as it now is, not from its cache."""
    one, other = pair.start(tmp_path, backends | {"RULEBOUND_REDIS_URL": own_redis.url})
    party = pair.party(one)
    cid = _character(party, party.player, "Ana")
    character = party.url(f"/characters/{cid}")
    edit = {"form": {"skills.Force": "D6"}}
    assert party.client.patch(character, json=edit, headers=party.player).status_code == 200
    path = f"/api/tables/{party.table_id}/characters/{cid}/roll"
    before = httpx2.post(other.url + path, json=ROLL, headers=party.player)  # cached there now
    assert before.status_code == 201, before.text
    assert before.json()["record"]["request"]["skill_die"] == "D6"
    own_redis.kill()
    raised = {"form": {"skills.Force": "D12"}}
    changed = party.client.patch(character, json=raised, headers=party.player)
    assert changed.status_code == 200, changed.text
    after = httpx2.post(other.url + path, json=ROLL, headers=party.player)
    assert after.status_code == 201, after.text
    assert after.json()["record"]["request"]["skill_die"] == "D12", after.json()["card"]
    assert "D12" in after.json()["card"]["title"]
