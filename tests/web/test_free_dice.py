"""Free dice at the web table: ``/r`` in the talk box with d20's notation and ours, inline
``[[...]]`` rolls in chat, the odds preview, bad input (a 4,300-digit number included) as a
400 on every route, and ``rulebound verify`` rebuilding every free roll from its record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebound.web.app import create_app

from ..client import AppClient
from ..trust.conftest import Table, open_table, trust_settings, verify
from ..trust.forge import entry, reseal

HUGE = "9" * 4400


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    with AppClient(create_app(trust_settings(db_url))) as client:
        yield open_table(client)


def say(table: Table, who: str, text: str, code: int = 303) -> str:
    body = {"text": text, "privacy": "public", **table.contribution()}
    answer = table.client.post(
        f"/t/{table.id}/talk", data=body, headers=table.seats[who], follow_redirects=False
    )
    assert answer.status_code == code, answer.text
    return str(answer.text)


def log(table: Table) -> list[dict[str, Any]]:
    found = table.client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    return [e for e in found if e["kind"] == "free-roll"]


def test_free_rolls_of_every_kind_are_logged_and_verify_rebuilds_them(
    table: Table, tmp_path: Path
) -> None:
    for text in (
        "/r 4d6kh3",
        "/r 1d20+5 adv Stealth",
        "/r 10d10>=7",
        "/r 6#4d6kh3",
        "/r 3d6! [fire]",
        "/r 1d20+5 >= 15",
        "/r 4dF+1",
        "/r 50d100kh25",
    ):
        say(table, "player", text)
    say(table, "player", "Opening the door [[1d20+3]] and [[2d6 [fire]]]")
    rolls = log(table)
    titles = [e["card"]["title"] for e in rolls]
    assert "/r 2d20kh1+5 Stealth" in titles
    assert "/r 6#4d6kh3" in titles
    comparison = next(e for e in rolls if e["card"]["title"] == "/r 1d20+5 >= 15")
    assert comparison["card"]["succeeded"] in (True, False)
    costly = next(e for e in rolls if e["card"]["title"] == "/r 50d100kh25")
    assert any("odds not computed" in d for d in costly["card"]["details"])
    inline = next(e for e in rolls if "record" in e and "message" in e["record"])
    assert inline["summary"].startswith("Pia: Opening the door [1d20+3 = ")
    assert len(inline["card"]["dice"]) == 3
    report = verify(table.export(), tmp_path)
    assert report.code == 0, report.problems
    assert "free rolls: 9 rebuilt from their expressions and draws" in report.out


def test_a_free_roll_whose_card_was_changed_is_caught(table: Table, tmp_path: Path) -> None:
    say(table, "player", "/r 4d6kh3")
    doc = table.export()
    seq = next(
        i
        for i, e in enumerate(doc["entries"], 1)
        if (e.get("body") or {}).get("kind") == "free-roll"
    )
    body = entry(doc, seq)["body"]
    rolled = int(body["card"]["outcome"].removeprefix("Total "))
    forged = 3 if rolled != 3 else 18  # another total than the one rolled, whatever it was
    body["card"]["outcome"] = f"Total {forged}"
    body["summary"] = f"rolled 4d6kh3: {forged}"
    report = verify(reseal(doc), tmp_path)
    assert report.code == 1
    assert any("free roll gives a different outcome" in p["detail"] for p in report.problems)


def test_the_odds_preview_answers_each_expression(table: Table) -> None:
    def odds(text: str) -> Any:
        return table.client.get(
            f"/t/{table.id}/talk/odds", params={"text": text}, headers=table.seats["player"]
        )

    found = odds("/r 4d6kh3")
    assert found.status_code == 200
    assert found.json()["odds"] == "4d6kh3: average 12.24, 3 to 18; P(total ≥ 13) = 79/162 (48.8%)"
    assert "P(success) = 11/20" in odds("1d20+5 >= 15").json()["odds"]
    assert "odds not computed" in odds("50d100kh25").json()["odds"]
    for bad in (f"/r 1d6+{HUGE}", f"/r {HUGE}", "/r 1d6+9999999999", "/r 4d6 kh3", "/r 101d6"):
        answer = odds(bad)
        assert answer.status_code == 400, (bad[:20], answer.text)
        assert answer.json()["message"]
        assert len(answer.text) < 600


@pytest.mark.parametrize(
    "text",
    [
        f"/r 1d6+{HUGE}",
        f"/r {HUGE[:490]}",
        "/r 1d6+9999999999",
        "/r 4d6d1",
        f"roll [[1d6+{HUGE[:480]}]]",
    ],
)
def test_bad_dice_in_the_talk_box_are_a_400_and_nothing_is_logged(table: Table, text: str) -> None:
    before = len(log(table))
    said = say(table, "player", text, code=400)
    assert "Traceback" not in said
    assert len(log(table)) == before
