"""Issue 14, item 5: ``rulebound verify`` over mutated genuine exports always ends, in
bounded time, with a verdict: OK, or FAIL naming where.

The exports are genuine: the server's own (the game master's, a player's and an
observer's, of a table with public, hidden, follow-up, server-chosen and post-reveal
plays) and ``data/format1-observer.json`` (made by the server before issue 14). Hypothesis
mutates them: the issue's crafted entries (an entry that is its own parent, ``dice: [1]``,
``record: [1]``, an odd-length salt, a bad ``record.request``, a renamed id, a parent no
entry is, a card and summary reworded) and parent cycles across entries at any entry, and
random edits anywhere in an entry (a value replaced by any JSON value, lone surrogates and
huge numbers included; a key removed; entries removed, swapped or duplicated), each either
left as is or resealed as a forger would.

Pass criteria, for every example: the command ends within ``BUDGET`` seconds with exit 0
and ``OK`` or exit 1 and at least one ``FAIL`` line (text), and the same verdict as
``--json``; never a traceback, never an exception other than the exit; a change to what an
entry's hash covers that is not resealed always fails, at that entry or before it; the
unmutated exports pass.
"""

from __future__ import annotations

import contextlib
import copy
import json
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, note, settings
from hypothesis import strategies as st

from rulebound.cli.app import app as cli_app
from rulebound.store.testing import sqlite_url
from rulebound.web.app import create_app

from ..client import AppClient
from ..hunt import examples
from .conftest import open_table, trust_settings
from .forge import Doc, old_export, reseal

BUDGET = 20
"""Seconds one verify may take (a genuine export of this size takes well under one)."""
EXAMPLES = 40
"""Examples per fuzz test. They keep no example database: a stored example is a path into
one version's exports, and replayed against another it draws differently (hypothesis calls
that a flaky strategy)."""


class Hung(BaseException):
    """Not an Exception: the CLI runner catches those, and the next run would hang unwatched."""


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def expire(_signum: int, _frame: FrameType | None) -> None:
        raise Hung(f"verify did not end within {seconds} s")

    before = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Doc]:
    """Exports made by the server: seqs 1-4 joins, 5-6 the character, then public rolls,
    a push, a gm, a self and a blind roll, a roll with no contribution, the reveal, and a
    roll under the next seed."""
    url = sqlite_url(tmp_path_factory.mktemp("fuzz"))
    with AppClient(create_app(trust_settings(url))) as client:
        table = open_table(client)
        cid = table.character("player")
        for _ in range(3):
            table.push("player", table.roll("player", cid))
        for privacy in ("gm", "self", "blind"):
            table.roll("player", cid, privacy)
        table.post("player", f"/characters/{cid}/roll", {"form": {"skill": "Force"}})
        table.reveal()
        table.roll("gm", cid)
        table.roll("player", cid, "self")
        docs = {who: table.export(who) for who in ("gm", "player", "observer")}
    return docs | {"format 1": old_export()}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each example's file is written (overwritten by the next)."""
    return tmp_path_factory.mktemp("examples")


def _run(doc: Any, folder: Path) -> tuple[int, str, dict[str, Any] | None]:
    """verify, as text and as JSON; both must give one verdict, in time, without a traceback."""
    path = folder / "log.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    runner = CliRunner()
    with deadline(BUDGET):
        text = runner.invoke(cli_app, ["verify", str(path)])
    with deadline(BUDGET):
        as_json = runner.invoke(cli_app, ["verify", str(path), "--json"])
    for done in (text, as_json):
        assert done.exception is None or isinstance(done.exception, SystemExit), done.output
        assert "Traceback" not in done.output
    assert text.exit_code == as_json.exit_code, (text.output, as_json.output)
    code = text.exit_code
    if code == 2:  # not a log export at all: a clear error, no report
        assert "Error" in text.output
        return code, text.output, None
    report = json.loads(as_json.stdout)
    fails = [line for line in text.stdout.splitlines() if line.startswith("FAIL ")]
    if code == 0:
        assert text.stdout.rstrip().endswith("OK"), text.stdout
        assert not fails
        assert report["ok"]
    else:
        assert code == 1, text.output
        assert fails, text.stdout
        assert len(fails) == len(report["problems"])
        assert not report["ok"]
    return code, text.stdout, report


def test_the_genuine_exports_pass(genuine: dict[str, Doc], tmp_path: Path) -> None:
    for who, doc in genuine.items():
        code, out, _ = _run(doc, tmp_path)
        assert code == 0, (who, out)
    gm = genuine["gm"]["entries"]
    assert {e.get("kind") for e in gm} >= {"roll", "follow-up", "seed"}
    assert any(e.get("withheld") for e in genuine["observer"]["entries"])


# the crafted entries, at any entry


def _own_parent(item: dict[str, Any], _doc: Doc) -> None:
    body = item.get("body")
    if isinstance(body, dict):
        body["parent_id"] = item.get("id")
    item["parent_id"] = item.get("id")


def _follows(item: dict[str, Any], parent: dict[str, Any]) -> None:
    item["parent_id"] = parent.get("id")
    if isinstance(item.get("body"), dict):
        item["body"]["parent_id"] = parent.get("id")


def _cycle(item: dict[str, Any], doc: Doc) -> None:
    """This entry and the shown entry before it follow each other up, and the last roll
    or follow-up after them follows this one (so that replaying it walks into the cycle)."""
    entries = doc["entries"]
    n = next(i for i, e in enumerate(entries) if e is item)
    other = next((e for e in reversed(entries[:n]) if isinstance(e.get("body"), dict)), item)
    _follows(item, other)
    _follows(other, item)
    later = [e for e in entries[n + 1 :] if isinstance(e.get("body"), dict)]
    plays = [e for e in later if e["body"].get("kind") in ("roll", "follow-up")]
    if plays:
        _follows(plays[-1], item)


def _setter(*path: str, value: Any) -> Callable[[dict[str, Any], Doc], None]:
    def change(item: dict[str, Any], _doc: Doc) -> None:
        target: Any = item
        for key in path[:-1]:
            if not isinstance(target.get(key), dict):
                target[key] = {}
            target = target[key]
        target[path[-1]] = value
        if path[0] == "body" and isinstance(item["body"], dict) and "record" in item["body"]:
            item["record"] = item["body"]["record"]

    return change


def _renamed(item: dict[str, Any], _doc: Doc) -> None:
    """The entry's top-level id (not hashed) made another entry's, or none's."""
    item["id"] = 1 if item.get("id") != 1 else 999_999


def _reworded(item: dict[str, Any], _doc: Doc) -> None:
    """What a reader sees of a play: its card's words and its summary, told otherwise."""
    body = item.get("body")
    if isinstance(body, dict) and isinstance(body.get("card"), dict):
        body["card"] = dict(body["card"], title="forged", details=["forged"])
        item["card"] = body["card"]
    if isinstance(body, dict):
        body["summary"] = item["summary"] = "Ana: Success: 3 successes"


CRAFTED: dict[str, Callable[[dict[str, Any], Doc], None]] = {
    "an id renamed": _renamed,
    "a parent nobody holds": _setter("body", "parent_id", value=999_999),
    "a card and summary reworded": _reworded,
    "its own parent": _own_parent,
    "a parent cycle": _cycle,
    "dice: [1]": _setter("dice", value=[1]),
    "record: [1]": _setter("body", "record", value=[1]),
    "an odd-length salt": _setter("salt", value="abc" * 21),
    "a bad record.request": _setter("body", "record", "request", value={"attribute_die": [1]}),
    "a request that is a string": _setter("body", "record", "request", value="x"),
    "a huge die": _setter("body", "record", "draws", value=[[2**300, 1]]),
}


@settings(max_examples=examples(EXAMPLES), database=None)
@given(data=st.data())
def test_crafted_entries_end_in_a_verdict(
    genuine: dict[str, Doc], folder: Path, data: st.DataObject
) -> None:
    who = data.draw(st.sampled_from(sorted(genuine)), label="export")
    doc = copy.deepcopy(genuine[who])
    shown = [n for n, e in enumerate(doc["entries"]) if "body" in e]
    index = data.draw(st.sampled_from(shown), label="entry")
    name = data.draw(st.sampled_from(sorted(CRAFTED)), label="crafted")
    CRAFTED[name](doc["entries"][index], doc)
    if data.draw(st.booleans(), label="resealed"):
        with contextlib.suppress(Exception):  # what cannot be rehashed stays as it is
            reseal(doc)
    _run(doc, folder)


# random edits anywhere in an entry

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**64, -(2**63), 10**400, 0, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["\ud800", "\u202e", "ab" * 32, "0" * 64, "", "public", "roll"]),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
HASHED = frozenset({"seq", "privacy", "dice", "body_hash", "prev_hash", "hash"})
"""What an entry's hash covers (with the table id), whoever looks at it."""


def _paths(value: Any, prefix: tuple[Any, ...] = (), depth: int = 4) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if depth == 0:
        return found
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key), depth - 1)
    elif isinstance(value, list):
        for n, inner in enumerate(value[:4]):
            found += _paths(inner, (*prefix, n), depth - 1)
    return found


def _edit(doc: Doc, index: int, path: tuple[Any, ...], how: str, value: Any) -> bool:
    """Change one value; True when what the entry's hash covers did change."""
    parent: Any = doc["entries"][index]
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    before = copy.deepcopy(parent[last])
    if how == "remove" and isinstance(parent, dict):
        del parent[last]
    else:
        parent[last] = value
    changed = how == "remove" or json.dumps(before) != json.dumps(value)
    return changed and path[0] in HASHED


@settings(max_examples=examples(EXAMPLES), database=None)
@given(data=st.data())
def test_random_edits_end_in_a_verdict(
    genuine: dict[str, Doc], folder: Path, data: st.DataObject
) -> None:
    who = data.draw(st.sampled_from(sorted(genuine)), label="export")
    doc = copy.deepcopy(genuine[who])
    entries = doc["entries"]
    edits = data.draw(st.integers(1, 3), label="edits")
    first_hashed: int | None = None
    for _ in range(edits):
        kind = data.draw(st.sampled_from(["value", "value", "value", "entries"]), label="kind")
        if kind == "entries":
            a = data.draw(st.integers(0, len(entries) - 1))
            b = data.draw(st.integers(0, len(entries) - 1))
            how = data.draw(st.sampled_from(["remove", "swap", "duplicate"]))
            if how == "remove":
                del entries[a]
            elif how == "swap":
                entries[a], entries[b] = entries[b], entries[a]
            else:
                entries.insert(b, copy.deepcopy(entries[a]))
            first_hashed = -1  # seqs move: a verdict is all that is asked for
            continue
        index = data.draw(st.integers(0, len(entries) - 1), label="entry")
        path = data.draw(st.sampled_from(_paths(entries[index])), label="path")
        how = data.draw(st.sampled_from(["replace", "remove"]), label="how")
        value = data.draw(JSON_VALUES, label="value")
        old_link = entries[index].get("withheld") and "privacy" not in entries[index]
        note(f"{how} {path} of entry {index + 1} with {value!r}")
        if _edit(doc, index, path, how, value) and not old_link and first_hashed is None:
            first_hashed = index + 1  # (a format-1 link's hash is not recomputed)
    resealed = data.draw(st.booleans(), label="resealed")
    if resealed:
        with contextlib.suppress(Exception):
            reseal(doc)
    code, out, report = _run(doc, folder)
    if not resealed and first_hashed is not None and first_hashed > 0:
        assert code == 1, out
        assert report is not None
        seqs = [p["seq"] for p in report["problems"] if p["seq"] is not None]
        assert seqs, report["problems"]
        assert min(seqs) <= first_hashed, (first_hashed, report["problems"])
