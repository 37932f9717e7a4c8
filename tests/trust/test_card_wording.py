"""Cards carry the version of the games' words they were written in (``Card.wording``), so a
game may reword its cards ("1 success", "Kara wins") without failing ``rulebound verify`` on
the logs written before: a card in earlier words is held to its replay by what it means
(outcome key, success, dice), a card in today's words word for word, and a card in older
words after one in newer words is a rewording someone did to the log."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rulebound.rulesets.views import WORDING

from ..client import AppClient
from .conftest import Table, open_table, verify
from .forge import reseal

EARLIER = " (as first worded)"


def _export(table: Table) -> dict[str, Any]:
    cid = table.character("player")
    for _ in range(3):
        table.push("player", table.roll("player", cid))
    table.reveal()
    return table.export()


def _plays(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in doc["entries"] if e.get("kind") in ("roll", "follow-up") and e.get("body")]


def _in_earlier_words(entry: dict[str, Any]) -> None:
    """The entry as the server wrote it before cards had a wording: no ``wording``, other
    words for the same outcome (the summary ends with them, as it always does)."""
    body = entry["body"]
    card = {k: v for k, v in body["card"].items() if k != "wording"}
    card["outcome"] += EARLIER
    body["card"] = entry["card"] = card
    body["summary"] = entry["summary"] = body["summary"] + EARLIER


def test_todays_cards_carry_todays_words(client: AppClient, table: Table) -> None:
    plays = _plays(_export(table))
    assert plays
    assert all(p["body"]["card"]["wording"] == WORDING for p in plays)


def test_a_log_in_earlier_words_verifies_by_what_its_cards_mean(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    doc = _export(table)
    for entry in _plays(doc):
        _in_earlier_words(entry)
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 0, verdict.out
    assert "earlier cards" in verdict.out


def test_a_log_in_the_words_before_todays_verifies_by_what_its_cards_mean(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    """Cards logged in the last words but one (here with another detail than today's card
    gives, as a reworded Legacy detail would be) verify, held to what they mean."""
    doc = _export(table)
    for entry in _plays(doc):
        card = entry["body"]["card"]
        card["wording"] = WORDING - 1
        card["details"] = [*card["details"], "worded as before"]
        entry["card"] = card
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 0, verdict.out
    assert "earlier cards" in verdict.out
    for entry in _plays(doc):
        entry["body"]["card"]["wording"] = WORDING
    assert verify(reseal(doc), tmp_path).code == 1  # in today's words, every word counts


def test_an_earlier_worded_card_is_still_held_to_its_outcome_and_dice(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    doc = _export(table)
    plays = _plays(doc)
    for entry in plays:
        _in_earlier_words(entry)
    forged = plays[0]["body"]["card"]
    forged["succeeded"] = not forged["succeeded"]
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 1
    assert verdict.first == plays[0]["seq"]
    assert "different succeeded" in verdict.out


def test_a_card_in_older_words_after_newer_ones_is_a_rewording(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    doc = _export(table)
    late = _plays(doc)[-1]
    _in_earlier_words(late)
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 1
    assert verdict.first == late["seq"]
    assert "older words" in verdict.out


def test_an_inline_rolls_card_writes_its_results_in_and_an_older_one_still_verifies(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    """An inline message's card was titled with the message as typed ("[[1d20+3]]"); it is
    titled with each roll written in, as its summary is. A log from before still verifies."""
    said = table.post("player", "/talk", {"text": "I swing [[1d20+3]] for [[2d6]]"})
    title = said["card"]["title"]
    assert re.fullmatch(r"I swing \[1d20\+3 = \d+\] for \[2d6 = \d+\]", title), title
    assert said["summary"].endswith(title)
    table.reveal()
    doc = table.export()
    (entry,) = [e for e in doc["entries"] if "message" in e.get("body", {}).get("record", {})]
    card = entry["body"]["card"]
    card["wording"], card["title"] = 4, "I swing [[1d20+3]] for [[2d6]]"
    entry["card"] = card
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 0, verdict.out
    card["title"] = "I swing [1d20+3 = 23] for [2d6 = 12]"  # older words, a title made up
    assert "different title" in verify(reseal(doc), tmp_path).out
    card["wording"] = WORDING  # in today's words, the title must be today's
    card["title"] = "I swing [[1d20+3]] for [[2d6]]"
    assert verify(reseal(doc), tmp_path).code == 1


def test_a_free_roll_in_older_words_after_newer_cards_is_a_rewording(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    """A free roll's card, too, is in the same or newer words as the cards before it."""
    table.roll("player", table.character("player"))
    table.post("player", "/talk", {"text": "I swing [[1d20+3]]"})
    table.reveal()
    doc = table.export()
    (entry,) = [e for e in doc["entries"] if "message" in e.get("body", {}).get("record", {})]
    entry["body"]["card"]["wording"] = WORDING - 1
    entry["card"] = entry["body"]["card"]
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.first == entry["seq"]
    assert "older words" in verdict.out


def test_a_legacy_check_still_under_way_after_a_decided_one_verifies(
    client: AppClient, tmp_path: Path
) -> None:
    """An extended check under way (or a partial success not yet taken) names no outcome
    key: there is none yet. A log where it follows a decided check was refused as reworded;
    then one from before keys where it came first was refused for its missing key."""
    table = open_table(client, "legacy")
    cid = int(table.post("player", "/characters", {"name": "Ana"})["id"])
    plain = {"characteristic": "DEX"}
    extended = plain | {
        "success_threshold": 90,
        "failure_threshold": 90,
        "max_rolls": 5,
        "rolls": 1,
    }
    for form in (plain, extended):
        body = {"form": form, "dice": table.contribution()}
        rolled = table.post("player", f"/characters/{cid}/roll", body)
    assert rolled["card"]["outcome_key"] == "", rolled["card"]  # under way
    table.reveal()
    doc = table.export()
    verdict = verify(doc, tmp_path)
    assert verdict.code == 0, verdict.out
    # the same log as a server wrote it before cards had keys or words: it verifies too
    for entry in _plays(doc):
        card = entry["body"]["card"]
        entry["body"]["card"] = entry["card"] = {
            k: v for k, v in card.items() if k not in ("outcome_key", "wording")
        }
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 0, verdict.out


def test_a_card_in_words_newer_than_this_rulebound_knows_is_not_taken_on_trust(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    """A card claiming words from a later version was compared only by what it means, so its
    outcome could be rewritten freely: verify cannot read those words, and says so."""
    doc = _export(table)
    late = _plays(doc)[-1]
    card = late["body"]["card"]
    card["wording"], card["outcome"] = WORDING + 94, "A triumph"
    late["card"] = card
    said = late["body"]["summary"].partition(": ")[0] + ": A triumph"
    late["body"]["summary"] = late["summary"] = said
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.first == late["seq"]
    assert "newer words" in verdict.out


def test_a_roll_shown_whole_without_its_card_is_named(
    client: AppClient, table: Table, tmp_path: Path
) -> None:
    """A roll's card set to null, with any summary, verified: nothing was compared."""
    doc = _export(table)
    first = _plays(doc)[0]
    first["body"]["card"] = first["card"] = None
    first["body"]["summary"] = first["summary"] = "Pia for Ana rolled: a triumph"
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.first == first["seq"]
    assert "whole but no card" in verdict.out
