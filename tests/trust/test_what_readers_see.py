"""``rulebound verify`` checks what a reader sees, not only the dice: a forged export that
keeps every die genuine and every hash recomputed still fails where it tells another story.

Each forgery starts from a genuine export made in the test, edits what a reader would see,
and reseals the chain as a forger with the database would (``forge.reseal``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game
from rulebound.store.testing import sqlite_url

from .conftest import Table, open_table, verify
from .forge import Doc, reseal

RULES = TableRules(get_game("empty-reach"))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return sqlite_url(tmp_path)


@pytest.fixture
def pushed(client: Any) -> tuple[Table, int, int]:
    """A table whose player rolled until a roll offered a push, pushed it, and the GM
    revealed the seed: (table, the roll's seq, the push's seq)."""
    table = open_table(client)
    cid = table.character("player")
    for _ in range(40):
        rolled = table.roll("player", cid)
        push = table.push("player", rolled)
        if push is not None:
            table.reveal()
            return table, int(rolled["seq"]), int(push["seq"])
    pytest.fail("no roll offered a push in 40 tries")


def _at(doc: Doc, seq: int) -> dict[str, Any]:
    found: dict[str, Any] = doc["entries"][seq - 1]
    return found


def _show(item: dict[str, Any], **changes: Any) -> None:
    """What the entry shows and what it hashed, changed alike (a forger edits both)."""
    item["body"].update(changes)
    item.update(changes)


def _fails_at(doc: Doc, seq: int, tmp_path: Path, words: str) -> None:
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 1, verdict.problems
    assert any(p["seq"] == seq and words in p["detail"] for p in verdict.problems), verdict.problems


def test_the_genuine_export_verifies(pushed: tuple[Table, int, int], tmp_path: Path) -> None:
    table, _, _ = pushed
    assert verify(table.export("gm"), tmp_path).code == 0


def test_a_follow_up_of_an_entry_the_export_lacks_fails(
    pushed: tuple[Table, int, int], tmp_path: Path
) -> None:
    """A failed roll made to look like a push of a roll nobody can see, with a good outcome."""
    table, roll_seq, _ = pushed
    doc = table.export("gm")
    forged = copy.deepcopy(doc)
    item = _at(forged, roll_seq)
    card = dict(item["card"], outcome="3 successes", succeeded=True)
    _show(item, parent_id=999_999, card=card)
    _fails_at(forged, roll_seq, tmp_path, "follow")
    # the same, as a follow-up: it names an entry the export does not hold
    again = copy.deepcopy(doc)
    item = _at(again, roll_seq)
    _show(item, kind="follow-up", parent_id=999_999, card=card)
    _fails_at(again, roll_seq, tmp_path, "follows up entry 999999, which this export")


def test_a_push_whose_parent_is_renamed_is_still_replayed_on_its_parent(
    pushed: tuple[Table, int, int], tmp_path: Path
) -> None:
    """The parent's top-level id is not hashed: renamed, the push names an entry the export
    lacks; the push's outcome forged either way."""
    table, roll_seq, push_seq = pushed
    doc = table.export("gm")
    forged = copy.deepcopy(doc)
    _at(forged, roll_seq)["id"] = 888_888
    push = _at(forged, push_seq)
    _show(push, card=dict(push["card"], outcome="3 successes", succeeded=True))
    verdict = verify(reseal(forged), tmp_path)
    assert verdict.code == 1
    assert {p["seq"] for p in verdict.problems} & {roll_seq, push_seq}, verdict.problems


def test_ids_out_of_step_with_the_log_fail(pushed: tuple[Table, int, int], tmp_path: Path) -> None:
    table, roll_seq, _ = pushed
    forged = copy.deepcopy(table.export("gm"))
    _at(forged, roll_seq)["id"] = 1  # an id that an earlier entry has
    _fails_at(forged, roll_seq, tmp_path, "id")


@pytest.mark.parametrize("field", ["title", "details", "modifiers", "steps"])
def test_a_cards_words_are_replayed_too(
    pushed: tuple[Table, int, int], tmp_path: Path, field: str
) -> None:
    table, roll_seq, push_seq = pushed
    forged = copy.deepcopy(table.export("gm"))
    for seq in (roll_seq, push_seq):
        item = _at(forged, seq)
        shown = item["card"][field]
        _show(
            item,
            card=dict(
                item["card"], **{field: [*shown, "forged"] if isinstance(shown, list) else "forged"}
            ),
        )
        _fails_at(copy.deepcopy(forged), seq, tmp_path, field)
        forged = copy.deepcopy(table.export("gm"))


def test_a_summary_that_tells_another_outcome_fails(
    pushed: tuple[Table, int, int], tmp_path: Path
) -> None:
    """What the log and the CSV show is the summary: it must end with the replayed outcome."""
    table, roll_seq, _ = pushed
    forged = copy.deepcopy(table.export("gm"))
    item = _at(forged, roll_seq)
    _show(item, summary="Ana: Success: 3 successes")
    _fails_at(forged, roll_seq, tmp_path, "summary")


def test_a_re_commit_right_before_another_members_roll_is_reported(
    client: Any, tmp_path: Path
) -> None:
    """The host re-commits the dice right before a player's roll (the attack that lets it
    pick dice it has seen): the log verifies, and the report says so."""
    table = open_table(client)
    cid = table.character("player")
    table.roll("player", cid)
    table.reveal()  # the GM's re-commit
    table.roll("player", cid)
    verdict = verify(table.export("gm"), tmp_path)
    assert verdict.code == 0, verdict.problems
    summary = "\n".join(json.loads(verdict.out)["summary"])
    assert "re-committed right before" in summary, summary
