"""Issue 8, test 4 (concurrency): two server processes on one SQLite file, 16 clients each.

Pass criteria, for 10 s of rolls and follow-ups from 32 client threads (httpx
against both processes, loopback only, each loop bounded): zero "database is
locked" (in answers and in either server's output), zero 5xx (every request is
answered 201), and no fork in the chain: the seqs run 1..N without a gap, every
acknowledged roll sits at the seq it was given, and ``rulebound verify`` on the
game master's export passes after the reveal (chain, nonces, every die).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest

from rulebound.store import SqlStore
from rulebound.store.testing import sqlite_url

from .conftest import verify
from .servers import ServerProcess, new_character, open_table, seat

CLIENTS = 16
"""Client threads per server process."""
SECONDS = 10.0
MAX_REQUESTS = 5_000
"""Per client: bounds the loop whatever the clock does."""
MODES = ("public", "gm", "blind", "self")


@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    locked: int = 0
    refused: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    acknowledged: dict[int, int] = field(default_factory=dict)
    """Entry id -> seq, for every roll and follow-up answered 201."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, answer: httpx2.Response, started: float) -> None:
        with self.lock:
            self.statuses[answer.status_code] += 1
            self.latencies.append(time.monotonic() - started)
            self.locked += "database is locked" in answer.text
            if answer.status_code != 201:
                self.refused.append(answer.text[:300])
            if answer.status_code == 201:
                self.acknowledged[answer.json()["id"]] = answer.json()["seq"]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    url = sqlite_url(tmp_path)
    both = (ServerProcess(url, tmp_path, "a"), ServerProcess(url, tmp_path, "b"))
    try:
        for server in both:
            server.launch()  # both start (and migrate) at once
        for server in both:
            server.wait_ready()
        yield both
    finally:
        for server in both:
            server.stop()


def _play(server: ServerProcess, table_id: int, invite: str, n: int, go: Any, tally: Tally) -> None:
    with httpx2.Client(base_url=server.url, timeout=60) as http:
        who = seat(http, invite, f"P{n}")
        cid = new_character(http, table_id, who, f"C{n}")
        base = f"/api/tables/{table_id}"
        go.wait(timeout=120)
        deadline = time.monotonic() + SECONDS
        for i in range(MAX_REQUESTS):
            if time.monotonic() >= deadline:
                break
            body = {"form": {"skill": "Force"}, "privacy": MODES[(n + i) % len(MODES)]}
            started = time.monotonic()
            answer = http.post(f"{base}/characters/{cid}/roll", json=body, headers=who)
            tally.record(answer, started)
            card = answer.json().get("card") if answer.status_code == 201 else None
            dice = [k for k, die in enumerate((card or {}).get("dice", ())) if die["selectable"]]
            if i % 4 == 0 and card and card["actions"] and dice:
                push = f"{base}/entries/{answer.json()['id']}/actions/push"
                started = time.monotonic()
                reroll = {"params": {"reroll": dice[:1]}}
                tally.record(http.post(push, json=reroll, headers=who), started)


@pytest.mark.slow
def test_two_processes_on_one_sqlite_file(
    servers: tuple[ServerProcess, ServerProcess], tmp_path: Path
) -> None:
    a, b = servers
    with httpx2.Client(base_url=a.url, timeout=60) as http:
        table_id, gm, invites = open_table(http)
    tally, go = Tally(), threading.Barrier(2 * CLIENTS + 1)
    with ThreadPoolExecutor(2 * CLIENTS) as pool:
        jobs = [
            pool.submit(_play, server, table_id, invites["player"], n, go, tally)
            for n, server in enumerate([a, b] * CLIENTS)
        ]
        go.wait(timeout=120)
        began = time.monotonic()
        for job in jobs:
            job.result(timeout=SECONDS + 120)
        took = time.monotonic() - began

    assert tally.locked == 0
    assert not [code for code in tally.statuses if code >= 500], tally.statuses
    assert set(tally.statuses) == {201}, (tally.statuses, tally.refused[:3])
    for server in servers:
        assert "database is locked" not in server.output()
        assert "Traceback" not in server.output(), server.output()[-3000:]

    store = SqlStore(a.db_url, migrate=False)
    try:
        log = store.log(table_id)
    finally:
        store.close()
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    by_id = {e.id: e.seq for e in log}
    assert all(by_id.get(entry_id) == seq for entry_id, seq in tally.acknowledged.items())
    with httpx2.Client(base_url=b.url, timeout=60) as http:
        assert http.post(f"/api/tables/{table_id}/dice/reveal", headers=gm).status_code == 200
        doc = http.get(f"/api/tables/{table_id}/log/export", headers=gm).json()
    verdict = verify(doc, tmp_path)
    assert verdict.code == 0, verdict.problems[:5]

    done = sum(tally.statuses.values())
    cuts = statistics.quantiles(tally.latencies, n=100)
    print(
        f"\nconcurrency: {2 * CLIENTS} clients on 2 processes, {took:.1f} s:"
        f" {done} writes ({done / took:.0f}/s), {len(log)} entries;"
        f" latency p50 {cuts[49] * 1000:.0f} ms, p99 {cuts[98] * 1000:.0f} ms,"
        f" max {max(tally.latencies) * 1000:.0f} ms; statuses {dict(tally.statuses)}"
    )
