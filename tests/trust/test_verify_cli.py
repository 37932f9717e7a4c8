"""``rulebound verify``: a forged export is caught at the forged entry, even with the chain redone.

Pass criteria: a clean export exits 0 with its summary; a file that is not an
export exits 2; a forger who edits an exported entry and recomputes every hash
after it is still caught at that entry (a die the revealed seed does not give, a
contribution used twice, the wrong commitment, dice from no committed seed, a
short salt), exit 1; a revealed seed that does not match its commitment is caught;
the shown card must be the hashed one; a play whose contribution the server chose is
counted as such. (Exports older than issue 14 and the forgeries of issue 14:
``test_forgeries.py``.)
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app as cli_app
from rulebound.store.testing import sqlite_url

from .conftest import Table, verify
from .forge import reseal

Doc = dict[str, Any]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """The export is what is checked here: one backend makes it (test_integrity covers both)."""
    return sqlite_url(tmp_path)


@pytest.fixture
def doc(table: Table) -> Doc:
    """The GM's export: seqs 7 and 8 rolls, 9 a roll that sent no contribution, 10 a blind
    roll, 11 the reveal."""
    cid = table.character("player")
    table.roll("player", cid)  # 7
    table.roll("player", cid)  # 8
    body = {"form": {"skill": "Force"}, "privacy": "public"}
    table.post("player", f"/characters/{cid}/roll", body)  # 9: the server chooses
    table.roll("player", cid, "blind")  # 10
    table.reveal()  # 11
    return table.export("gm")


def _reseal(doc: Doc) -> Doc:
    return reseal(doc)


def _forge(doc: Doc, seq: int, change: Callable[[dict[str, Any]], None]) -> Doc:
    forged = copy.deepcopy(doc)
    change(forged["entries"][seq - 1])
    return _reseal(forged)


def _face(entry: dict[str, Any]) -> None:
    sides, face = entry["body"]["record"]["draws"][0]
    entry["body"]["record"]["draws"][0] = [sides, face % sides + 1]
    entry["record"] = entry["body"]["record"]


def _dice(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(entry: dict[str, Any]) -> None:
        entry["dice"] = None if key == "*" else dict(entry["dice"], **{key: value})

    return change


def test_a_clean_export_passes_with_a_summary(doc: Doc, tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    done = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert done.exit_code == 0, done.output
    assert "4 committed plays" in done.stdout
    assert "server-chosen: 1 plays" in done.stdout
    assert done.stdout.rstrip().endswith("OK")


@pytest.mark.parametrize("content", ["not json", '{"format": "other"}', "[]"])
def test_a_file_that_is_no_export_exits_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "log.json"
    path.write_text(content, encoding="utf-8")
    done = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert done.exit_code == 2
    assert "error:" in done.stderr
    assert CliRunner().invoke(cli_app, ["verify", str(tmp_path / "none.json")]).exit_code == 2


FORGERIES: dict[str, tuple[int, Callable[[dict[str, Any]], None], str]] = {
    "another face": (8, _face, "the revealed seed gives"),
    "a reused contribution": (8, _dice("contribution", "(entry 7's)"), "already used at entry 7"),
    "another commitment": (8, _dice("commitment", "ab" * 32), "not the one in force"),
    "no commitment": (7, _dice("*", None), "not drawn from a committed seed"),
    "a short salt": (8, lambda e: e.update(salt="ab" * 8), "at least 128 random bits"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_resealed_forgery_is_caught_at_its_entry(doc: Doc, tmp_path: Path, name: str) -> None:
    seq, change, why = FORGERIES[name]
    assert verify(_reseal(copy.deepcopy(doc)), tmp_path).code == 0
    if name == "a reused contribution":
        change = _dice("contribution", doc["entries"][6]["dice"]["contribution"])
    verdict = verify(_forge(doc, seq, change), tmp_path)
    assert verdict.code == 1
    assert verdict.first == seq, verdict.problems
    assert why in verdict.problems[0]["detail"]


def test_uncommitted_dice_may_be_allowed_but_are_counted(doc: Doc, tmp_path: Path) -> None:
    forged = _forge(doc, 7, _dice("*", None))
    verdict = verify(forged, tmp_path, "--allow-uncommitted")
    assert verdict.code == 0
    assert "uncommitted: 1 plays" in verdict.out


def test_a_seed_that_does_not_match_its_commitment_is_caught(doc: Doc, tmp_path: Path) -> None:
    forged = copy.deepcopy(doc)
    forged["seeds"][0]["server_seed"] = "00" * 32
    verdict = verify(forged, tmp_path)
    assert verdict.code == 1
    assert verdict.first is None
    assert "does not hash to it" in verdict.problems[0]["detail"]
    reveal = _forge(doc, 11, lambda e: e["body"]["record"]["revealed"].update(server_seed="1" * 64))
    assert verify(reveal, tmp_path).first == 11


def test_the_card_shown_must_be_the_card_hashed(doc: Doc, tmp_path: Path) -> None:
    forged = copy.deepcopy(doc)
    forged["entries"][7]["card"] = dict(forged["entries"][7]["card"], outcome="3 successes")
    verdict = verify(forged, tmp_path)
    assert (verdict.code, verdict.first) == (1, 8)
    assert "the card it shows" in verdict.problems[0]["detail"]


def test_a_dropped_link_is_a_missing_entry(table: Table, tmp_path: Path) -> None:
    cid = table.character("player")
    table.roll("player", cid, "self")  # 7: only a link in the GM's export
    table.roll("player", cid)  # 8
    doc = table.export("gm")
    assert doc["entries"][6].get("withheld")
    del doc["entries"][6]
    verdict = verify(doc, tmp_path)
    assert (verdict.code, verdict.first) == (1, 7)
