"""Whispers and the turn tracker under the table's committed dice, as ``rulebound verify``
sees them.

Pass criteria: every member's export of a table with whispers (plain, with inline rolls,
an emote, a word to the game master) and a rolled turn order verifies, before and after
the seed is revealed; a whisper stays a withheld link for everyone but its sender, its
addressee and the game master even after the reveal, while their exports show it whole,
its dice recomputed; an export edited so that a whisper names no addressee, or so that the
order does not follow from the initiative rolled, fails at that entry even with every hash
recomputed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .conftest import Table, open_table, verify
from .forge import entry, reseal

SECRET = "the duke keeps the key in his boot"


def _member(table: Table, name: str) -> int:
    members = table.client.get(table.url(), headers=table.seats["gm"]).json()["members"]
    return int(next(m["id"] for m in members if m["name"] == name))


def _whispers(table: Table) -> list[int]:
    oz = _member(table, "Oz")
    said = [
        table.post("player", "/talk", {"text": SECRET, "to": oz}),
        table.post(
            "player",
            "/talk",
            {"text": f"{SECRET} [[2d6+1]]", "to": oz, "dice": table.contribution()},
        ),
        table.post("player", "/talk", {"text": "/me hides [[1d20]]", "dice": table.contribution()}),
        table.post("player", "/talk", {"text": "a word for the game master", "privacy": "gm"}),
    ]
    return [int(s["seq"]) for s in said[:3]]


def test_every_export_verifies_and_a_whisper_stays_withheld_past_a_reveal(
    table: Table, tmp_path: Path
) -> None:
    plain, rolled, emote = _whispers(table)
    for revealed in (False, True):
        if revealed:
            table.reveal()
        for who in ("gm", "player", "other", "observer"):
            doc = table.export(who)
            verdict = verify(doc, tmp_path)
            assert verdict.problems == [], (who, revealed)
            shown = who != "observer"
            for seq in (plain, rolled):
                assert bool(entry(doc, seq).get("withheld")) is not shown, (who, seq)
            assert (SECRET in str(doc)) is shown
            assert entry(doc, emote)["summary"].startswith("Pia hides [1d20 = ")
        if revealed:
            assert "free rolls: 2 rebuilt" in verify(table.export("other"), tmp_path).out
            assert "free rolls: 1 rebuilt" in verify(table.export("observer"), tmp_path).out


def _revealed_whisper(table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    """An export of its addressee's with a whisper of inline rolls, once the seed is out."""
    body = {"text": "[[3d6]]", "to": _member(table, "Oz"), "dice": table.contribution()}
    said = table.post("player", "/talk", body)
    table.reveal()
    doc = table.export("other")
    return doc, entry(doc, said["seq"])


def test_a_whispers_dice_cannot_be_worked_out_by_others_after_the_reveal(
    table: Table, tmp_path: Path
) -> None:
    """A whisper stays withheld from others past the reveal, and so do its faces: its link
    names its contribution only by the contribution's hash (with the revealed seed, the
    contribution itself would give the faces), while its parties' exports show the
    contribution in its record and `verify` recomputes the faces from it."""
    sent = table.contribution()
    said = table.post(
        "player", "/talk", {"text": f"{SECRET} [[1d20]]", "to": _member(table, "Oz"), "dice": sent}
    )
    table.reveal()
    digest = hashlib.sha256(sent["contribution"].encode()).hexdigest()
    outsider = table.export("observer")
    link = entry(outsider, said["seq"])
    assert link["withheld"] is True
    assert link["dice"] == {
        "commitment": sent["commitment"],
        "contribution_sha256": digest,
        "server_chosen": False,
    }
    assert sent["contribution"] not in json.dumps(outsider)
    assert verify(outsider, tmp_path).problems == []
    for party in ("player", "other", "gm"):
        whole = entry(table.export(party), said["seq"])
        assert whole["dice"] == link["dice"], party
        assert whole["body"]["record"]["contribution"] == sent["contribution"], party
    verdict = verify(table.export("other"), tmp_path)
    assert verdict.problems == []
    assert "free rolls: 1 rebuilt" in verdict.out


def test_a_roll_that_uses_a_whispers_contribution_again_is_caught(
    table: Table, tmp_path: Path
) -> None:
    """Contributions are compared by their hashes: a roll forged onto a whisper's
    contribution is caught even in an export that shows the whisper only as a link."""
    sent = table.contribution()
    said = table.post(
        "player", "/talk", {"text": "[[1d6]]", "to": _member(table, "Oz"), "dice": sent}
    )
    rolled = table.roll("player", table.character("player"))
    doc = table.export("observer")
    roll = entry(doc, rolled["seq"])
    roll["dice"] = roll["dice"] | {"contribution": sent["contribution"]}
    verdict = verify(reseal(doc), tmp_path)
    reused = f"its contribution was already used at entry {said['seq']}"
    assert [p["seq"] for p in verdict.problems if reused in p["detail"]] == [rolled["seq"]]


def test_a_whisper_logged_before_its_dice_were_blinded_still_verifies(
    table: Table, tmp_path: Path
) -> None:
    """Whispers logged earlier named their contribution in their dice and not in their
    record: such an export (here rebuilt so, every hash recomputed) verifies as before."""
    doc, whisper = _revealed_whisper(table)
    contribution = whisper["body"]["record"].pop("contribution")
    whisper["record"] = whisper["body"]["record"]
    whisper["dice"] = {
        "commitment": whisper["dice"]["commitment"],
        "contribution": contribution,
        "server_chosen": False,
    }
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.problems == []
    assert "free rolls: 1 rebuilt" in verdict.out


def test_a_whisper_whose_record_names_another_contribution_is_caught(
    table: Table, tmp_path: Path
) -> None:
    doc, whisper = _revealed_whisper(table)
    whisper["body"]["record"]["contribution"] = "0" * 32
    whisper["record"] = whisper["body"]["record"]
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.first == whisper["seq"]
    assert "its record's contribution does not hash to its dice" in verdict.problems[0]["detail"]


def test_a_whisper_that_names_no_addressee_is_caught(table: Table, tmp_path: Path) -> None:
    plain, _, _ = _whispers(table)
    doc = table.export("gm")
    whisper = entry(doc, plain)
    del whisper["body"]["record"]["to"]
    whisper["record"] = whisper["body"]["record"]
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.first == plain
    assert "a whisper must name its addressee" in verdict.problems[0]["detail"]


def _start(table: Table) -> dict[str, Any]:
    ana = table.post("player", "/characters", {"name": "Ana"})["id"]
    bo = table.post("other", "/characters", {"name": "Bo"})["id"]
    body = {"params": {"characters": [ana, bo], "others": "Grue"}, "dice": table.contribution()}
    started: dict[str, Any] = table.post("gm", "/turns/start", body)
    return started


def test_a_rolled_turn_order_verifies_and_a_reordered_one_is_caught(
    client: Any, db_url: str, tmp_path: Path
) -> None:
    table = open_table(client, "legacy")
    started = _start(table)
    assert started["dice"]["server_chosen"] is False
    table.post("gm", "/turns/next", {"params": {"ends": started["record"]["order"][0]}})
    table.reveal()
    doc = table.export("observer")
    verdict = verify(doc, tmp_path)
    assert verdict.problems == []
    assert "0 dice recomputed" not in verdict.out
    forged = entry(doc, started["seq"])
    forged["body"]["record"]["order"].reverse()
    forged["record"] = forged["body"]["record"]
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.first == started["seq"]
    assert "its order is not its combatants sorted by their rolls" in verdict.out
