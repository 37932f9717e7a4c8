"""Issue 8, test 5 (faults): SIGKILL the server in the middle of a burst of rolls and edits.

Pass criteria, on SQLite and PostgreSQL: after a restart every acknowledged
write (a roll or follow-up answered 201, a sheet edit answered 200) is in the
log at the seq it was given; the seqs run without a gap; no sheet change is
half-applied (each character's version is 1 + the entries that changed it, and
no sheet is behind an acknowledged edit); the feed, resumed with the last
``Last-Event-ID`` it got before the kill, delivers every entry after it and,
with what came before, nothing is missing; the log verifies after a reveal.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from rulebound.store import Scope, SqlStore

from .conftest import verify
from .servers import ServerProcess, new_character, open_table, seat

WRITERS = 6
ACKS_BEFORE_KILL = 40
MAX_OPS = 2_000
"""Per writer: bounds the loop if the kill never comes."""
MODES = ("public", "gm", "blind", "self")


class Acks:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: dict[int, int] = {}
        """Entry id -> seq of every acknowledged roll and follow-up."""
        self.versions: dict[int, int] = {}
        """Character id -> the highest sheet version an edit was acknowledged at."""
        self.cut = 0
        """Writers whose request was in flight when the server died."""
        self.wrong: list[str] = []

    def count(self) -> int:
        with self.lock:
            return len(self.entries) + len(self.versions)


def _write(
    url: str, table_id: int, who: dict[str, str], cid: int, acks: Acks, stop: threading.Event
) -> None:
    base = f"/api/tables/{table_id}"
    with httpx2.Client(base_url=url, timeout=30) as http:
        for i in range(MAX_OPS):
            if stop.is_set():
                return
            try:
                if i % 3 == 2:
                    edit = {"form": {"skills.Force": ("D6", "D8")[i % 2]}}
                    answer = http.patch(f"{base}/characters/{cid}", json=edit, headers=who)
                    if answer.status_code != 200:
                        acks.wrong.append(answer.text)
                        return
                    with acks.lock:
                        acks.versions[cid] = max(
                            acks.versions.get(cid, 0), answer.json()["version"]
                        )
                    continue
                body = {"form": {"skill": "Force"}, "privacy": MODES[i % 4]}
                answer = http.post(f"{base}/characters/{cid}/roll", json=body, headers=who)
            except httpx2.TransportError:
                with acks.lock:
                    acks.cut += 1
                return  # the server is gone
            if answer.status_code != 201:
                acks.wrong.append(answer.text)
                return
            with acks.lock:
                acks.entries[answer.json()["id"]] = answer.json()["seq"]


def _listen(url: str, path: str, gm: dict[str, str], seen: list[int]) -> None:
    """The GM's live feed, until the server dies under it."""
    try:
        with httpx2.stream("GET", url + path, headers=gm, timeout=30) as stream:
            for line in stream.iter_lines():
                if line.startswith("id: "):
                    seen.append(int(line[4:]))
    except httpx2.TransportError:
        return


def _feed(url: str, path: str, headers: dict[str, str]) -> list[int]:
    with httpx2.Client(base_url=url, timeout=30) as http:
        text = http.get(path, headers=headers).text
    return [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]


@pytest.fixture
def servers(db_url: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.stop()


def test_sigkill_mid_burst_loses_nothing_acknowledged(
    db_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    first = ServerProcess(db_url, tmp_path, "first").start()
    servers.append(first)
    with httpx2.Client(base_url=first.url, timeout=30) as http:
        table_id, gm, invites = open_table(http)
        players = [seat(http, invites["player"], f"P{n}") for n in range(WRITERS)]
        cids = [new_character(http, table_id, who, f"C{n}") for n, who in enumerate(players)]
    feed = f"/api/tables/{table_id}/feed"
    seen: list[int] = []
    acks, stop = Acks(), threading.Event()
    threads = [threading.Thread(target=_listen, args=(first.url, feed, gm, seen))]
    threads += [
        threading.Thread(target=_write, args=(first.url, table_id, who, cid, acks, stop))
        for who, cid in zip(players, cids, strict=True)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while acks.count() < ACKS_BEFORE_KILL and time.monotonic() < deadline:
        time.sleep(0.01)
    first.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert acks.count() >= ACKS_BEFORE_KILL
    assert not acks.wrong, acks.wrong[:3]
    assert acks.cut >= 1  # the kill came in the middle of the burst
    assert seen  # the feed was live before the kill

    second = ServerProcess(db_url, tmp_path, "second").start()
    servers.append(second)
    store = SqlStore(db_url, migrate=False)
    try:
        log = store.log(table_id)
        by_id = {entry.id: entry.seq for entry in log}
        assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
        assert all(by_id.get(entry_id) == seq for entry_id, seq in acks.entries.items())
        for cid in cids:
            row = store.character(table_id, cid)
            assert row.version == 1 + sum(cid in entry.changed for entry in log)
            assert row.version >= acks.versions.get(cid, 0)
        gm_id = next(m.id for m in store.members(table_id) if m.role == "gm")
        visible = [e.seq for e in store.entries(table_id, Scope(gm_id, True), after=0, limit=10**6)]
    finally:
        store.close()

    last = max(seen, default=0)
    assert seen == [seq for seq in visible if seq <= last]
    resumed = _feed(second.url, feed + "?follow=false", gm | {"Last-Event-ID": str(last)})
    assert resumed == [seq for seq in visible if seq > last]
    with httpx2.Client(base_url=second.url, timeout=30) as http:
        rolled = http.post(
            f"/api/tables/{table_id}/characters/{cids[0]}/roll",
            json={"form": {"skill": "Force"}},
            headers=players[0],
        )
        assert rolled.status_code == 201, rolled.text
        assert http.post(f"/api/tables/{table_id}/dice/reveal", headers=gm).status_code == 200
        doc = json.loads(http.get(f"/api/tables/{table_id}/log/export", headers=gm).text)
    after = _feed(second.url, feed + "?follow=false", gm | {"Last-Event-ID": str(visible[-1])})
    assert after == [rolled.json()["seq"], rolled.json()["seq"] + 1]
    verdict = verify(doc, tmp_path)
    assert verdict.code == 0, verdict.problems[:5]
