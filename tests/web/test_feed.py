"""The feed reads the log by seq: resumable with Last-Event-ID, woken early by the backplane."""

from __future__ import annotations

import dataclasses
import json
import re
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest

from rulebound.store import NewEntry, SqlStore
from rulebound.web.settings import Settings

from .conftest import LiveServer, Party, seat_party


def _events(text_or_lines: str | Iterator[str]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    lines = text_or_lines.splitlines() if isinstance(text_or_lines, str) else text_or_lines
    event: dict[str, str] = {}
    for line in lines:
        if not line:
            if "data" in event:
                yield event.get("id", ""), event.get("event", "message"), json.loads(event["data"])
            event = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(":")
            event[key] = value.removeprefix(" ")


def _note(party: Party, text: str) -> int:
    store: SqlStore = party.client.app.state.store
    return store.append(NewEntry(party.table_id, "note", "public", party.ids["gm"], text)).seq


def test_last_event_id_resumes_after_that_entry(party: Party) -> None:
    seqs = [_note(party, f"note {i}") for i in range(4)]
    headers = party.observer | {"Last-Event-ID": str(seqs[1])}
    answer = party.client.get(party.url("/feed?follow=false"), headers=headers)
    assert answer.headers["content-type"].startswith("text/event-stream")
    got = list(_events(answer.text))
    assert [int(i) for i, _, _ in got] == seqs[2:]
    assert [d["summary"] for _, _, d in got] == ["note 2", "note 3"]
    assert all(kind == "entry" and "<li" in d["html"] for _, kind, d in got)
    by_query = party.client.get(
        party.url(f"/feed?follow=false&after={seqs[2]}"), headers=party.observer
    )
    assert [int(i) for i, _, _ in _events(by_query.text)] == seqs[3:]


def test_the_log_pages_back_from_the_newest(party: Party) -> None:
    for i in range(7):
        _note(party, f"n{i}")
    first = party.client.get(party.url("/log?limit=3"), headers=party.player).json()
    assert [e["summary"] for e in first["entries"]] == ["n6", "n5", "n4"]
    second = party.client.get(
        party.url(f"/log?limit=3&before={first['next_before']}"), headers=party.player
    ).json()
    assert [e["summary"] for e in second["entries"]] == ["n3", "n2", "n1"]
    everything = party.client.get(party.url("/log?limit=200"), headers=party.player).json()
    assert everything["next_before"] is None
    assert party.client.get(party.url("/log?limit=0"), headers=party.player).status_code == 422


def _read_until(
    server: LiveServer, path: str, headers: dict[str, str], want: str, act: Callable[[], None]
) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    with httpx2.stream("GET", server.url + path, headers=headers, timeout=15) as stream:
        lines = stream.iter_lines()
        assert next(lines).startswith("retry:")
        act()
        for _, kind, data in _events(lines):
            seen.append(data | {"event": kind})
            if data.get("summary") == want or kind == "revoked":
                return seen
    return seen


@pytest.fixture
def slow_poll(live_settings: Settings) -> Settings:
    """Feeds that would poll only every 60 s: what arrives sooner was woken by the backplane."""
    return dataclasses.replace(live_settings, poll_seconds=60.0)


def test_a_commit_wakes_the_open_feeds(slow_poll: Settings, db_url: str) -> None:
    from rulebound.web.app import create_app

    server = LiveServer(lambda: create_app(slow_poll)).start()
    try:
        with httpx2.Client(base_url=server.url) as client:
            party = seat_party(client)  # type: ignore[arg-type]
            path = f"/api/tables/{party.table_id}/feed?after=999999"
            other = SqlStore(db_url)  # another process's store: no in-process hub to wake us

            def write_elsewhere() -> None:
                other.append(NewEntry(party.table_id, "note", "public", None, "from afar"))

            def write_here() -> None:
                client.post(
                    f"/api/tables/{party.table_id}/characters",
                    json={"name": "Near"},
                    headers=party.player,
                )

            near = _read_until(
                server,
                f"/api/tables/{party.table_id}/feed?after=0",
                party.observer,
                "Pia created Near",
                write_here,
            )
            assert near[-1]["summary"] == "Pia created Near"
            if other.sqlite:
                pytest.skip("SQLite has no cross-process wake-up; its feeds poll (tested above)")
            far = _read_until(
                server,
                path.replace("999999", str(near[-1]["seq"])),
                party.observer,
                "from afar",
                write_elsewhere,
            )
            assert far[-1]["summary"] == "from afar"
            other.close()
    finally:
        server.stop()


def test_a_revoked_member_feed_ends(live: LiveServer) -> None:
    with httpx2.Client(base_url=live.url) as client:
        party = seat_party(client)  # type: ignore[arg-type]

        def revoke() -> None:
            client.patch(
                f"/api/tables/{party.table_id}/members/{party.ids['other']}",
                json={"revoked": True},
                headers=party.gm,
            )

        got = _read_until(
            live, f"/api/tables/{party.table_id}/feed?after=0", party.other, "-", revoke
        )
        assert got[-1]["event"] == "revoked"


def test_the_feed_answers_a_stream_with_the_security_headers_and_refuses_bad_requests(
    party: Party,
) -> None:
    seq = _note(party, "hello")
    answer = party.client.get(party.url(f"/feed?follow=false&after={seq - 1}"), headers=party.gm)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert answer.headers["cache-control"] == "no-store"
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"
    assert [int(i) for i, _, _ in _events(answer.text)] == [seq]
    assert party.client.get(party.url("/feed?after=-1"), headers=party.gm).status_code == 422
    assert party.client.get(party.url("/feed?follow=maybe"), headers=party.gm).status_code == 422
    bad = party.gm | {"Last-Event-ID": "x1"}
    assert party.client.get(party.url("/feed"), headers=bad).status_code == 400
    stranger = {"Authorization": "Bearer not-a-seat"}
    assert party.client.get(party.url("/feed"), headers=stranger).status_code == 403


@pytest.mark.parametrize(
    ("path", "name", "values"),
    [
        ("/feed?follow=false&after=5&after=0", "after", ["5", "0"]),
        ("/feed?follow=false&follow=true", "follow", ["false", "true"]),
        ("/log?limit=3&limit=200", "limit", ["3", "200"]),
        ("/members?after=0&after=1", "after", ["0", "1"]),
    ],
)
def test_a_query_param_given_twice_is_refused_naming_both_values(
    party: Party, path: str, name: str, values: list[str]
) -> None:
    """Each of these params takes one value: a second is an error, not a silent choice."""
    answer = party.client.get(party.url(path), headers=party.gm)
    assert answer.status_code == 422, answer.text
    [error] = answer.json()["detail"]
    assert error["loc"] == ["query", name]
    assert error["input"] == values
    assert error["msg"] == f"{name} takes one value; it was given {len(values)}"


def test_a_repeated_param_no_route_reads_is_left_alone(party: Party) -> None:
    page = party.client.get(f"/t/{party.table_id}?utm=a&utm=b", headers=party.gm)
    assert page.status_code == 200


def test_a_feed_read_slowly_misses_nothing_and_keeps_its_order(live_settings: Settings) -> None:
    """A viewer that stops reading fills its socket (3 MB of entries against a 4 KiB receive
    buffer): the stream's sends wait and what comes meanwhile queues; once the viewer reads
    again it gets every entry, once, in order."""
    from rulebound.web.app import create_app

    app = create_app(live_settings)
    server = LiveServer(lambda: app).start()
    try:
        with httpx2.Client(base_url=server.url) as client:
            party = seat_party(client)  # type: ignore[arg-type]
        store: SqlStore = app.state.store
        last = store.last_seq(party.table_id)
        backlogs: list[int] = []  # the stream's reads of the log (its backlog) that returned
        entries = store.entries

        def read(*args: Any, **kwargs: Any) -> Any:
            try:
                return entries(*args, **kwargs)
            finally:
                backlogs.append(1)

        store.entries = read  # type: ignore[method-assign]
        viewer = socket.socket()
        viewer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        viewer.settimeout(20)
        viewer.connect(("127.0.0.1", server.port))
        token = party.observer["Authorization"]
        viewer.sendall(
            f"GET /api/tables/{party.table_id}/feed?after={last} HTTP/1.1\r\n"
            f"Host: 127.0.0.1\r\nAuthorization: {token}\r\n\r\n".encode()
        )
        got = viewer.recv(65536)
        while b"retry: 1000" not in got:
            got += viewer.recv(65536)
        deadline = time.monotonic() + 20
        while not backlogs:  # the stream has read its backlog and waits: live from here
            assert time.monotonic() < deadline, "the stream did not read its backlog"
            time.sleep(0.005)
        count = 200
        for n in range(count):
            store.append(
                NewEntry(
                    party.table_id, "note", "public", party.ids["gm"], f"slow {n} " + "x" * 16_000
                )
            )
        want = f"slow {count - 1} ".encode()
        while want not in got:
            got += viewer.recv(65536)
        viewer.close()
    finally:
        server.stop()
    seqs = [int(s) for s in re.findall(rb"\nid: ([0-9]+)\n", b"\n" + got.replace(b"\r\n", b"\n"))]
    assert seqs == list(range(last + 1, last + count + 1))


def test_a_last_event_id_that_is_not_ascii_is_a_400_not_a_server_error(party: Party) -> None:
    """The raw byte 0xb2 reads as "²", which ``str.isdigit`` takes for a digit."""
    headers = party.gm | {"Last-Event-ID": b"\xb2"}  # a bytes value, on purpose
    answer = party.client.get(party.url("/feed?follow=false"), headers=headers)  # type: ignore[arg-type]
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == "Last-Event-ID"
