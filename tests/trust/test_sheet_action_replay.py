"""Sheet and table actions that roll are replayed like rolls: their cards are rebuilt by the
ruleset's own ``card(chain)`` (``tool_card``), so a host cannot rewrite a death save's card or
outcome while keeping its faces.

Each scenario plays through the web table, reveals the seed and exports the log: the honest
export verifies, with the action's card counted among the replayed ones; the same export with
that entry's title, outcome and summary rewritten (every hash recomputed, ``forge.reseal``)
fails at that entry.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulebound.core.verifiable import VerifiableSource

from ..client import AppClient
from .conftest import Table, open_table, verify
from .forge import Doc, entry, reseal

Played = Callable[[Table, int], int]
"""Plays on a table with a character (its id): the id of the entry a forger rewrites."""


def _act(table: Table, cid: int, action: str, params: dict[str, Any], who: str = "player") -> Any:
    body = {"params": params, "dice": table.contribution()}
    return table.post(who, f"/characters/{cid}/actions/{action}", body)


def _follow(table: Table, made: Any, action: str, params: dict[str, Any], who: str) -> Any:
    body = {"params": params, "dice": table.contribution()}
    return table.post(who, f"/entries/{made['id']}/actions/{action}", body)


def _edit(table: Table, cid: int, form: dict[str, str]) -> None:
    path = table.url(f"/characters/{cid}")
    edited = table.client.patch(path, json={"form": form}, headers=table.seats["player"])
    assert edited.status_code == 200, edited.text


def death_save(table: Table, cid: int) -> int:
    """A Legacy death save: a d20 against 10, by a character bleeding out."""
    _edit(table, cid, {"bleeding": "true", "unconscious": "true", "wounds": "0"})
    table.post("player", f"/characters/{cid}/roll", {"form": {"characteristic": "DEX"}})
    return int(_act(table, cid, "death-save", {})["id"])


def fatigue(table: Table, cid: int) -> int:
    """A Legacy fatigue past capacity: a STM check."""
    return int(_act(table, cid, "fatigue", {"amount": 4})["id"])


def initiative(table: Table, cid: int) -> int:
    """A Legacy game master's tool: initiative for the table's characters."""
    return int(table.post("gm", "/actions/initiative", {"dice": table.contribution()})["id"])


def extended_turn(table: Table, cid: int) -> int:
    """A turn of a Legacy extended check: a follow-up of a table action's chain."""
    params = {"character": str(cid), "characteristic": "DEX"}
    started = table.post("gm", "/actions/extended-check", {"params": params})
    return int(_follow(table, started, "extended-roll", {}, "gm")["id"])


def repair(table: Table, cid: int) -> int:
    """An Empty Reach repair: a sheet action whose record is a roll's."""
    _edit(table, cid, {"gear": "Crowbar 0/2"})
    return int(_act(table, cid, "repair", {"gear": "Crowbar"})["id"])


def killer_kept(table: Table, cid: int) -> int:
    """Empty Reach's Killer: two faces rolled by a sheet action, one kept by its follow-up."""
    _edit(table, cid, {"specialties": "Killer"})
    rolled = _act(table, cid, "roll-twice", {"specialty": "Killer", "sides": 6})
    return int(_follow(table, rolled, "choose", {"keep": 2}, "player")["id"])


def regain_luck(table: Table, cid: int) -> int:
    """Ghostburn's regain, after a roll naming the ladder rule it was played under: the
    action names none, and is not held to the roll's rules."""
    form = {"form": {"skill": "firearms", "dl": "14"}, "dice": table.contribution()}
    table.post("player", f"/characters/{cid}/roll", form)
    return int(_act(table, cid, "regain-luck", {"points": 1})["id"])


@dataclass(frozen=True)
class Scenario:
    ruleset: str
    play: Played


SCENARIOS = {
    "legacy death save": Scenario("legacy", death_save),
    "legacy fatigue": Scenario("legacy", fatigue),
    "legacy initiative": Scenario("legacy", initiative),
    "legacy extended turn": Scenario("legacy", extended_turn),
    "empty-reach repair": Scenario("empty-reach", repair),
    "empty-reach killer kept": Scenario("empty-reach", killer_kept),
    "ghostburn regain luck": Scenario("ghostburn", regain_luck),
}


def _revealed(table: Table, entry_id: int) -> tuple[Doc, int]:
    """The table's export after the seed's reveal, and the seq of entry ``entry_id``."""
    table.reveal()
    doc = table.export()
    (seq,) = [e["seq"] for e in doc["entries"] if e.get("id") == entry_id]
    return doc, seq


def _played(client: AppClient, scenario: Scenario) -> tuple[Doc, int]:
    """The export, after the reveal, of a table that played ``scenario``; the seq of its entry."""
    table = open_table(client, scenario.ruleset)
    cid = int(table.post("player", "/characters", {"name": "Ana"})["id"])
    played = scenario.play(table, cid)
    doc, seq = _revealed(table, played)
    assert entry(doc, seq)["dice"] is not None
    return doc, seq


def _replayed(out: str) -> int:
    found = re.search(r"cards: (\d+) results replayed", out)
    assert found is not None, out
    return int(found.group(1))


def _rewrite(item: dict[str, Any], title: str, outcome: str, summary: str) -> None:
    """What a forger shows instead: the card's title and outcome, and the summary with it."""
    body = item["body"]
    body["card"] = dict(body["card"], title=title, outcome=outcome)
    body["summary"] = summary
    item.update(card=body["card"], summary=summary)


def _told_stable(item: dict[str, Any]) -> None:
    """A death save's card, its outcome (and summary) turned to stable."""
    title = item["body"]["card"]["title"]
    _rewrite(item, title, "Ana death save: stable", "Ana: death save: stable")


@pytest.mark.parametrize("name", SCENARIOS)
def test_an_honest_action_verifies_with_its_card_replayed(
    client: AppClient, tmp_path: Path, name: str
) -> None:
    doc, _ = _played(client, SCENARIOS[name])
    verdict = verify(doc, tmp_path)
    assert verdict.code == 0, verdict.problems
    plays = [e for e in doc["entries"] if (e.get("body") or {}).get("card")]
    assert _replayed(verdict.out) == len(plays), verdict.out  # the action's card among them


@pytest.mark.parametrize("name", SCENARIOS)
def test_an_actions_card_rewritten_with_its_faces_kept_fails_at_its_entry(
    client: AppClient, tmp_path: Path, name: str
) -> None:
    doc, seq = _played(client, SCENARIOS[name])
    forged = copy.deepcopy(doc)
    item = entry(forged, seq)
    who = "Ana: " if item["body"]["summary"].startswith("Ana: ") else ""
    _rewrite(item, "Ana: a clean escape", "Ana escapes unharmed", f"{who}Ana escapes unharmed")
    verdict = verify(reseal(forged), tmp_path)
    assert verdict.code == 1
    assert verdict.first == seq, verdict.problems
    assert "replaying its record gives a different" in verdict.problems[0]["detail"]


def test_a_death_save_told_as_another_outcome_fails(client: AppClient, tmp_path: Path) -> None:
    """The forger's likeliest edit: the same card, its outcome and success turned around."""
    doc, seq = _played(client, SCENARIOS["legacy death save"])
    item = entry(doc, seq)
    assert item["body"]["card"]["outcome"] == "Ana death save: still bleeding out"
    _told_stable(item)
    item["body"]["card"]["succeeded"] = True
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems


def test_an_action_follows_nothing_up(client: AppClient, tmp_path: Path) -> None:
    doc, seq = _played(client, SCENARIOS["legacy death save"])
    item = entry(doc, seq)
    item["body"]["parent_id"] = item["parent_id"] = entry(doc, seq - 1)["id"]  # the roll
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems
    assert "follows nothing up" in verdict.problems[0]["detail"]


@pytest.mark.parametrize("kind", ["sheet", "talk"])
def test_an_action_relabelled_as_no_play_fails(
    client: AppClient, tmp_path: Path, kind: str
) -> None:
    """Another kind of entry, its dice kept, so that nothing would replay its card."""
    doc, seq = _played(client, SCENARIOS["legacy death save"])
    item = entry(doc, seq)
    item["body"]["kind"] = item["kind"] = kind
    _told_stable(item)
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems
    assert f"a {kind} entry is no play" in verdict.problems[0]["detail"]


def _recovery(client: AppClient) -> tuple[Doc, int]:
    """An Empty Reach recovery (``heal``): it rolls nothing, and its record holds the points
    recovered but not the name its card says, so no card can be rebuilt from it."""
    table = open_table(client, "empty-reach")
    cid = int(table.post("player", "/characters", {"name": "Ana"})["id"])
    _edit(table, cid, {"damage": "3"})
    healed = _act(table, cid, "heal", {"health": 2})
    return _revealed(table, int(healed["id"]))


def test_a_recovery_is_said_unreplayed_and_verifies(client: AppClient, tmp_path: Path) -> None:
    doc, _ = _recovery(client)
    verdict = verify(doc, tmp_path)
    assert verdict.code == 0, verdict.problems
    assert "unreplayed: 1 " in verdict.out


def test_a_recovery_given_dice_fails(client: AppClient, tmp_path: Path) -> None:
    """Faces the revealed seed gives (so the faces check passes) on an action that rolls
    nothing: the card they would make is not rebuilt, so they are refused."""
    doc, seq = _recovery(client)
    item = entry(doc, seq)
    seed = next(s["server_seed"] for s in doc["seeds"] if s["server_seed"])
    source = VerifiableSource(seed, item["dice"]["contribution"], 0)
    item["body"]["record"] = dict(item["body"]["record"], draws=[[20, source.draw(20)]])
    item["record"] = item["body"]["record"]
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems
    assert "rolls nothing" in verdict.problems[0]["detail"]


def _rolled(
    client: AppClient, ruleset: str, form: dict[str, str], edits: dict[str, str]
) -> tuple[Doc, int]:
    """The export, after the reveal, of one roll of ``ruleset``'s; the seq of the roll."""
    table = open_table(client, ruleset)
    cid = int(table.post("player", "/characters", {"name": "Ana"})["id"])
    if edits:
        _edit(table, cid, edits)
    body = {"form": form, "dice": table.contribution()}
    rolled = table.post("player", f"/characters/{cid}/roll", body)
    return _revealed(table, int(rolled["id"]))


def _triumph(item: dict[str, Any], record: dict[str, Any], kind: str | None = None) -> None:
    """A roll's record swapped for ``record`` (and its entry's kind for ``kind``), its card
    told as a triumph: what a forger would make of a roll nothing replays."""
    body = item["body"]
    body["record"] = item["record"] = record
    if kind is not None:
        body["kind"] = item["kind"] = kind
    _rewrite(item, "Ana: glory", "Ana: a critical triumph", "Pia: Ana: a critical triumph")
    body["card"]["succeeded"] = item["card"]["succeeded"] = True


def test_a_roll_told_as_a_recovery_fails(client: AppClient, tmp_path: Path) -> None:
    """Only a sheet action may be a recovery, the one record verify does not rebuild."""
    doc, seq = _rolled(client, "empty-reach", {"skill": "Force"}, {"skills.Force": "D8"})
    _triumph(entry(doc, seq), {"kind": "heal", "health": 0, "resolve": 0})
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems


@pytest.mark.parametrize("kind", [None, "sheet-action"], ids=["a roll", "a sheet action"])
def test_a_roll_of_a_game_with_no_actions_relabelled_fails(
    client: AppClient, tmp_path: Path, kind: str | None
) -> None:
    """Rainwall has no sheet actions (no ``tool_card``): a roll whose record is given another
    kind, its draws kept, is no action of its to leave unreplayed."""
    edits = {"skills.Climbing.score": "5", "traits.Strength": "3"}
    doc, seq = _rolled(client, "rainwall", {"skill": "Climbing", "dr": "10"}, edits)
    item = entry(doc, seq)
    _triumph(item, dict(item["body"]["record"], kind="x-roll"), kind)
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems


def test_a_death_save_stripped_of_its_dice_is_still_replayed(
    client: AppClient, tmp_path: Path
) -> None:
    """With no dice and no draws nothing recomputes a face, but the card must still be the
    one its record gives: a death save that draws nothing does not replay."""
    doc, seq = _played(client, SCENARIOS["legacy death save"])
    item = entry(doc, seq)
    item["dice"] = None
    item["body"]["record"] = item["record"] = dict(item["body"]["record"], draws=[])
    _told_stable(item)
    item["body"]["card"]["succeeded"] = True
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems


def test_an_action_that_rolls_nothing_has_its_card_rebuilt(
    client: AppClient, tmp_path: Path
) -> None:
    """An extended check's start draws nothing (its turns do): its card is rebuilt all the same."""
    table = open_table(client, "legacy")
    cid = int(table.post("player", "/characters", {"name": "Ana"})["id"])
    params = {"character": str(cid), "characteristic": "DEX"}
    started = table.post("gm", "/actions/extended-check", {"params": params})
    doc, seq = _revealed(table, int(started["id"]))
    assert verify(doc, tmp_path).code == 0
    item = entry(doc, seq)
    _rewrite(item, "Extended check: Ana, STR", "Ana already won", "Ana already won")
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems


def test_a_summary_that_tells_another_outcome_than_its_card_fails(
    client: AppClient, tmp_path: Path
) -> None:
    """ "Ana: death save: ..." sums up "Ana death save: ..." (the leading name said once); a
    summary that says the save went otherwise than the card does is refused."""
    doc, seq = _played(client, SCENARIOS["legacy death save"])
    item = entry(doc, seq)
    assert item["body"]["summary"] == "Ana: death save: still bleeding out"
    item["body"]["summary"] = item["summary"] = "Ana: death save: stable"
    verdict = verify(reseal(doc), tmp_path)
    assert (verdict.code, verdict.first) == (1, seq), verdict.problems
    assert "its summary does not end with the outcome" in verdict.problems[0]["detail"]
