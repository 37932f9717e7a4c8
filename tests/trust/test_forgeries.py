"""Issue 14, items 1, 2, 3 and 5: exports forged from a genuine one, resealed, are refused.

Pass criteria, each with the forgery built here from a genuine export (the server's own, or
``data/format1-observer.json``, made by the server before issue 14):

1. a failed roll given an unused nonce whose faces succeed, its card rebuilt by the ruleset,
   fails at that entry; so does a nonce that goes back or skips; a per-roll contribution
   used twice fails; a contribution swapped after the reveal is caught against an earlier
   copy of the export (``--earlier``);
2. a ruleset that is not installed fails (it used to pass with cards "not replayed"), and so
   does one that is not the ruleset the chain records;
3. a public entry replaced by a withheld link fails, whether the link is bare, copied whole
   or resealed as someone's hidden roll under a revealed seed; a link's hash is recomputed;
5. crafted entries (a self parent, ``dice: [1]``, ``record: [1]``, an odd-length salt, a bad
   ``record.request``, a die of 2**300 sides) end in ``FAIL entry N``, never a traceback or
   a hang.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app as cli_app
from rulebound.core.canonical import to_jsonable
from rulebound.core.verifiable import VerifiableSource, commitment_for
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game
from rulebound.store.sql import dice as seeding
from rulebound.store.testing import sqlite_url

from ..client import AppClient
from .conftest import Table, open_table, verify
from .forge import Doc, entry, old_export, reseal

RULES = TableRules(get_game("empty-reach"))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """The exports are what is checked here: one backend makes them."""
    return sqlite_url(tmp_path)


def _roll_as(item: dict[str, Any], draws: list[list[int]]) -> None:
    """Give a roll other faces and rebuild its card and summary with the ruleset's own card()."""
    body = item["body"]
    record = dict(body["record"], draws=draws)
    card = to_jsonable(RULES.card([record]))
    body.update(record=record, card=card, summary=f"Ana: {card['outcome']}")
    item.update(record=record, card=card, summary=body["summary"])


def _faces(seed: str, client: str, nonce: int, sides: list[int]) -> list[list[int]]:
    source = VerifiableSource(seed, client, nonce)
    return [[s, source.draw(s)] for s in sides]


def _succeeds(draws: list[list[int]], item: dict[str, Any]) -> bool:
    record = dict(item["body"]["record"], draws=draws)
    return bool(to_jsonable(RULES.card([record]))["succeeded"])


def _revealed(doc: Doc) -> str:
    seed: str = next(s["server_seed"] for s in doc["seeds"] if s["server_seed"])
    return seed


# item 1: nonces and contributions


def test_an_old_export_still_verifies(tmp_path: Path) -> None:
    verdict = verify(old_export(), tmp_path)
    assert verdict.code == 0, verdict.problems


def test_a_failed_roll_given_an_unused_winning_nonce_is_caught(tmp_path: Path) -> None:
    doc = old_export()
    failed = entry(doc, 7)
    assert failed["privacy"] == "public"
    assert not failed["card"]["succeeded"]
    assert failed["dice"]["nonce"] == 1
    seed, sides = _revealed(doc), [s for s, _ in failed["body"]["record"]["draws"]]
    used = {e["dice"]["nonce"] for e in doc["entries"] if e.get("dice")}
    nonce = next(
        n for n in range(max(used) + 1, 10_000) if _succeeds(_faces(seed, "", n, sides), failed)
    )
    forged = copy.deepcopy(doc)
    item = entry(forged, 7)
    _roll_as(item, _faces(seed, "", nonce, sides))
    item["dice"]["nonce"] = nonce
    verdict = verify(reseal(forged), tmp_path)
    assert verdict.code == 1
    assert verdict.first == 7, verdict.problems
    assert f"nonce {nonce}" in verdict.problems[0]["detail"]


@pytest.mark.parametrize(
    ("seq", "nonce", "why"),
    [(9, 1, "nonce 1 was already used at entry 7"), (12, 7, "skips nonce 6")],
)
def test_nonces_must_follow_one_another_in_log_order(
    tmp_path: Path, seq: int, nonce: int, why: str
) -> None:
    doc = copy.deepcopy(old_export())
    assert [entry(doc, s)["dice"]["nonce"] for s in (7, 8, 9, 12)] == [1, 2, 3, 6]
    entry(doc, seq)["dice"]["nonce"] = nonce
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems
    assert why in verdict.problems[0]["detail"]


FIXED_SEED = "5e" * 32
"""Set before play, so that the rolls (and so the forgeries) are the same on every run."""


@pytest.fixture
def played(client: AppClient) -> Table:
    """Seqs 1-4 joins, 5 the character, 6 its sheet, 7-10 public rolls (9 succeeds), 11 a
    gm roll; the dice come from ``FIXED_SEED``, committed when the table opened, and
    contributions 1 to 5."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seeding, "new_server_seed", lambda: FIXED_SEED)
        table = open_table(client)
    assert table.commitment() == commitment_for(FIXED_SEED)
    cid = table.character("player")
    for n, privacy in enumerate(["public"] * 4 + ["gm"], start=1):
        table.roll("player", cid, privacy, dice=table.contribution(f"{n:032x}"))
    outcomes = [e["card"]["succeeded"] for e in table.export("gm")["entries"][6:10]]
    assert outcomes == [False, False, True, False]
    return table


def test_a_contribution_may_be_used_once(played: Table, tmp_path: Path) -> None:
    doc = played.export("gm")
    assert verify(doc, tmp_path).code == 0
    forged = copy.deepcopy(doc)
    entry(forged, 9)["dice"]["contribution"] = entry(forged, 8)["dice"]["contribution"]
    verdict = verify(reseal(forged), tmp_path)
    assert (verdict.code, verdict.first) == (1, 9), verdict.problems
    assert "already used at entry 8" in verdict.problems[0]["detail"]
    used = played.contribution(entry(doc, 8)["dice"]["contribution"])
    body = {"form": {"skill": "Force"}, "dice": used}
    again = played.client.post(
        played.url("/characters/1/roll"), json=body, headers=played.seats["player"]
    )
    assert again.status_code == 409, again.text
    assert "already used" in again.json()["detail"]


def test_per_roll_dice_carry_no_nonce_to_shift(played: Table, tmp_path: Path) -> None:
    forged = played.export("gm")
    entry(forged, 8)["dice"]["nonce"] = 3
    verdict = verify(reseal(forged), tmp_path)
    assert (verdict.code, verdict.first) == (1, 8), verdict.problems


def test_a_contribution_swapped_after_the_reveal_is_caught_against_an_earlier_copy(
    played: Table, tmp_path: Path
) -> None:
    earlier = played.export("observer")
    played.reveal()
    later = played.export("observer")
    seed = _revealed(later)
    target = next(
        e for e in later["entries"] if e.get("kind") == "roll" and not e["card"]["succeeded"]
    )
    sides = [s for s, _ in target["body"]["record"]["draws"]]
    value = next(
        f"{n:032x}" for n in range(10_000) if _succeeds(_faces(seed, f"{n:032x}", 0, sides), target)
    )
    forged = copy.deepcopy(later)
    item = entry(forged, target["seq"])
    _roll_as(item, _faces(seed, value, 0, sides))
    item["dice"]["contribution"] = value
    reseal(forged)
    alone = verify(forged, tmp_path)
    assert alone.code == 0, "verify alone cannot tell a contribution the host chose later"
    path = tmp_path / "earlier.json"
    path.write_text(json.dumps(earlier), encoding="utf-8")
    verdict = verify(forged, tmp_path, "--earlier", str(path))
    assert (verdict.code, verdict.first) == (1, target["seq"]), verdict.problems
    assert "earlier copy" in verdict.problems[0]["detail"]
    assert verify(later, tmp_path, "--earlier", str(path)).code == 0


# item 2: the ruleset


def _cheat_card(doc: Doc) -> Doc:
    """Turn the first failed public roll into a success over its genuine dice."""
    forged = copy.deepcopy(doc)
    item = next(
        e for e in forged["entries"] if e.get("kind") == "roll" and not e["card"]["succeeded"]
    )
    card = dict(item["body"]["card"], outcome="3 successes", succeeded=True)
    item["body"]["card"] = item["card"] = card
    return forged


@pytest.mark.parametrize("ruleset", ["empty-reach\u200b", "no-such-game"])
def test_a_ruleset_that_is_not_installed_fails(played: Table, tmp_path: Path, ruleset: str) -> None:
    for doc in (played.export("gm"), old_export()):
        forged = _cheat_card(doc)
        forged["ruleset"] = ruleset
        verdict = verify(reseal(forged), tmp_path)
        assert verdict.code == 1, verdict.out
        assert any("not installed" in p["detail"] for p in verdict.problems), verdict.problems


def test_the_ruleset_is_the_one_the_chain_records(played: Table, tmp_path: Path) -> None:
    doc = played.export("gm")
    assert entry(doc, 1)["record"]["ruleset"] == "empty-reach"
    for key, value in (("ruleset", "rainwall"), ("variants", {"gear_banes": "any"})):
        forged = copy.deepcopy(doc)
        forged[key] = value
        verdict = verify(forged, tmp_path)
        assert (verdict.code, verdict.first) == (1, 1), verdict.problems
        assert f"its {key}" in verdict.problems[0]["detail"]


# item 3: withheld links


def test_a_withheld_link_carries_what_recomputes_its_hash(played: Table, tmp_path: Path) -> None:
    cid = 1
    played.roll("player", cid, "self")  # 12: only a link in the GM's export
    doc = played.export("gm")
    link = entry(doc, 12)
    assert link["withheld"] is True
    assert set(link) == {"withheld", "seq", "privacy", "dice", "body_hash", "prev_hash", "hash"}
    assert link["privacy"] == "self"
    assert verify(doc, tmp_path).code == 0
    forged = copy.deepcopy(doc)
    entry(forged, 12)["body_hash"] = "ab" * 32
    verdict = verify(forged, tmp_path)
    assert (verdict.code, verdict.first) == (1, 12), verdict.problems


@pytest.mark.parametrize("case", ["shown", "shown, format 1", "withheld"])
def test_an_entry_that_does_not_say_its_dice_fails(
    played: Table, tmp_path: Path, case: str
) -> None:
    """The hash covers an entry's dice (null for a join): an entry that leaves them out
    fails, shown or withheld; it is not read as if it said null."""
    played.roll("player", 1, "self")  # 12: only a link in the GM's export
    doc = old_export() if case.endswith("format 1") else played.export("gm")
    seq = 12 if case == "withheld" else 1
    assert entry(doc, seq).get("withheld", False) is (case == "withheld")
    del entry(doc, seq)["dice"]
    verdict = verify(doc, tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems
    assert "dice" in verdict.problems[0]["detail"]


@pytest.mark.parametrize("seq", ["12", 12.0, None, {"seq": 12}], ids=repr)
@pytest.mark.parametrize("withheld", [False, True], ids=["shown", "withheld"])
def test_an_entry_whose_seq_is_not_a_whole_number_fails(
    played: Table, tmp_path: Path, seq: Any, withheld: bool
) -> None:
    """The hash covers the seq: one that is not a whole number fails at its place in the
    chain, on a withheld link as on a shown entry; it is not read as if it said its place."""
    played.roll("player", 1, "self")  # 12: only a link in the GM's export
    doc = played.export("gm" if withheld else "player")
    assert entry(doc, 12).get("withheld", False) is withheld
    entry(doc, 12)["seq"] = seq
    verdict = verify(doc, tmp_path)
    assert (verdict.code, verdict.first) == (1, 12), verdict.problems
    assert "seq" in verdict.problems[0]["detail"]


def _withhold(doc: Doc, seq: int, how: str) -> Doc:
    forged = copy.deepcopy(doc)
    item = entry(forged, seq)
    keep = {"withheld": True, "prev_hash": item["prev_hash"], "hash": item["hash"]}
    if how != "bare":
        keep |= {k: item[k] for k in ("seq", "privacy", "dice", "body_hash")}
    if how == "resealed as self":
        keep["privacy"] = "self"
    forged["entries"][seq - 1] = keep
    return reseal(forged) if how == "resealed as self" else forged


@pytest.mark.parametrize("how", ["bare", "copied", "resealed as self"])
def test_a_public_roll_cannot_be_hidden_as_a_withheld_link(
    played: Table, tmp_path: Path, how: str
) -> None:
    played.reveal()
    doc = played.export("gm")
    failed = [e["seq"] for e in doc["entries"] if e.get("card") and not e["card"]["succeeded"]]
    assert failed
    for seq in failed:
        verdict = verify(_withhold(doc, seq, how), tmp_path)
        assert (verdict.code, verdict.first) == (1, seq), (how, verdict.problems)
    every = copy.deepcopy(doc)
    for seq in failed:
        every = _withhold(every, seq, how)
    assert verify(every, tmp_path).code == 1


# item 5: crafted entries


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(item: dict[str, Any]) -> None:
        target = item
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _own_parent(item: dict[str, Any]) -> None:
    item["body"]["parent_id"] = item["parent_id"] = item["id"]


CRAFTED: dict[str, Callable[[dict[str, Any]], None]] = {
    "its own parent": _own_parent,
    "dice: [1]": _set(("dice",), [1]),
    "record: [1]": _set(("body", "record"), [1]),
    "an odd-length salt": _set(("salt",), "abc" * 21),
    "a bad record.request": _set(("body", "record", "request"), {"attribute_die": [1]}),
    "a die of 2**300 sides": _set(("body", "record", "draws"), [[2**300, 1], [6, 1]]),
    "draws that are not pairs": _set(("body", "record", "draws"), [[8], "x", None]),
    "a body that is a list": _set(("body",), [1]),
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_a_crafted_entry_fails_at_its_seq(played: Table, tmp_path: Path, name: str) -> None:
    played.reveal()
    doc = played.export("gm")
    forged = copy.deepcopy(doc)
    CRAFTED[name](entry(forged, 8))
    with contextlib.suppress(TypeError, ValueError):  # what cannot be rehashed is left as is
        reseal(forged)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    done = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert done.exit_code == 1, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert "FAIL entry 8:" in done.stdout, done.stdout
    assert "Traceback" not in done.output
