"""Write ``old_rules_records.json`` and ``old_rules_export.json``: what the Legacy rules
before a8deb00 logged.

a8deb00 (2026-12-07) changed what a curse and an unconscious roller do to a roll. The
records logged before it name no ``"rules"``; they must replay today to the dice and
cards they showed then (``versions.FIRST_RULES``). This script makes such records by
running the tree before that commit, so that nothing in them is written by hand::

    git worktree add --detach /tmp/legacy-old a8deb00~1
    PYTHONPATH=/tmp/legacy-old/src .venv/bin/python tests/legacy/data/make_old_rules_records.py
    git worktree remove --force /tmp/legacy-old

Each entry of the first is a chain (its root record, then each follow-up) with the card
every step showed (its outcome, success and dice), as ``old_records.json`` keeps them. The
faces are chosen (a ``ReplaySource``); each record keeps only the draws the old rules asked
for. The second is a table's whole log as the old server exported it (committed dice, a
revealed seed): a cursed character's luck swap and an unconscious character's opposed and
extended checks among its plays, for ``rulebound verify`` to check today.
"""

from __future__ import annotations

import json
import secrets
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from rulebound.core import Draw, ReplaySource
from rulebound.rulesets.contract import Card, Play
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.request import LegacyRoll
from rulebound.rulesets.plays import TableRules
from rulebound.store.testing import migrated_sqlite, sqlite_url
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

OUT = Path(__file__).parent / "old_rules_records.json"
EXPORT = Path(__file__).parent / "old_rules_export.json"
TABLE = TableRules(GAME)
WRITTEN = {"scale": "as-written"}
HALVED = {"scale": "halved"}
DEX = {"characteristic": "DEX"}
LONG = {"success_threshold": 200, "failure_threshold": 200, "max_rolls": 5}
"""Thresholds no turn reaches: the check runs its five rolls out."""
FACES = (5, 12, 7, 9, 3, 14, 8, 2, 11, 6, 13, 4)
Sheet = dict[str, Any]
Step = Callable[[list[dict[str, Any]]], Play]


def faces(*chosen: int) -> ReplaySource:
    """More d20 faces than any step asks for: the record keeps those it used."""
    return ReplaySource(Draw(20, face) for face in (*chosen, *FACES))


def kara(**changes: Any) -> Sheet:
    return TABLE.validate_sheet({**TABLE.new_sheet("Kara"), **changes})


def pip(**changes: Any) -> Sheet:
    """A Halfling with a Halfling soul: a LCK save may cancel a critical failure."""
    return kara(name="Pip", race="halfling", soul="halfling", **changes)


def seen(card: Card) -> dict[str, Any]:
    """What a card showed that ``verify`` compares by meaning: outcome, success, dice."""
    shown = {"outcome": card.outcome, "succeeded": card.succeeded}
    data: dict[str, Any] = json.loads(json.dumps(shown | {"dice": [asdict(d) for d in card.dice]}))
    return data


def chain(name: str, first: Play, *steps: Step) -> dict[str, Any]:
    """A chain from its first play, each later step made on the chain so far."""
    records, cards = [first.record], [seen(first.card)]
    for step in steps:
        play = step(records)
        records.append(play.record)
        cards.append(seen(play.card))
    return {"name": name, "chain": records, "cards": cards}


def turn(sheet: Sheet, rolls: int = 1) -> Step:
    """An extended check's next turns, as the table rolls them."""
    params = {"rolls": rolls} if rolls > 1 else {}
    return lambda records: TABLE.act(sheet, records, "extended-roll", params, {}, faces())


def fate(sheet: Sheet, action: str, *chosen: int) -> Step:
    """A fate follow-up paid from ``sheet`` as the table holds it then."""
    return lambda records: TABLE.act(sheet, records, action, {}, HALVED, faces(*chosen))


def started(sheet: Sheet) -> Play:
    """The game master's extended check for ``sheet`` (the table tool: no roll yet)."""
    params = DEX | LONG | {"character": "1"}
    play = TABLE.table_act({"1": sheet}, "extended-check", params, WRITTEN, faces())
    return Play(play.record, play.card, None, play.summary)


def rolled(sheet: Sheet, form: dict[str, Any], variants: dict[str, str], *chosen: int) -> Play:
    return TABLE.roll(sheet, form, variants, faces(*chosen))


def entries() -> list[dict[str, Any]]:
    cursed, out = kara(cursed=True), kara(unconscious=True)
    return [
        chain(
            "a cursed roller's extended check, every turn with two dice",
            rolled(cursed, DEX | LONG | {"rolls": 2}, WRITTEN),
            turn(cursed),
            turn(cursed, 2),
        ),
        chain(
            "a cursed roller's extended check started by the game master",
            started(cursed),
            turn(cursed, 2),
            turn(cursed),
        ),
        chain(
            "a cursed roller's opposed check", rolled(cursed, DEX | {"opposed.score": 30}, HALVED)
        ),
        chain(
            "an opposed check against a cursed character's sheet",
            rolled(kara(), DEX | {"opposed.character": kara(name="Foe", cursed=True)}, HALVED),
        ),
        chain(
            "an unconscious roller's opposed check",
            rolled(out, DEX | {"opposed.score": 30}, HALVED),
        ),
        chain(
            "a dead roller's opposed check",
            rolled(kara(dead=True), DEX | {"opposed.score": 30}, HALVED),
        ),
        chain(
            "an opposed check against an unconscious character's sheet",
            rolled(kara(), DEX | {"opposed.character": kara(name="Foe", unconscious=True)}, HALVED),
        ),
        chain(
            "an unconscious roller's extended check",
            rolled(out, DEX | LONG | {"rolls": 2}, WRITTEN),
            turn(out),
        ),
        chain(
            "an unconscious roller's extended check started by the game master",
            started(out),
            turn(out, 2),
        ),
        chain(
            "a luck swap paid from a cursed sheet: two dice, the curse spent",
            rolled(kara(), DEX, HALVED, 18),
            fate(cursed, "luck-swap", 4, 15),
        ),
        chain(
            "a Halfling's LCK save after a critical failure, from a cursed sheet",
            rolled(pip(), DEX, HALVED, 20),
            fate(pip(cursed=True), "cancel-critical", 16, 3),
        ),
    ]


class Server:
    """A Legacy table on the old server (its own SQLite file), played by its game master."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        body = {"name": "Old rules", "ruleset": "legacy", "gm_name": "Gina"}
        made = self.call("post", "/api/tables", body | {"variants": HALVED})
        self.table = f"/api/tables/{made['table']['id']}"
        self.auth = {"Authorization": f"Bearer {made['session_token']}"}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        answer = self.client.request(method, path, json=body, headers=getattr(self, "auth", {}))
        if answer.status_code not in (200, 201):
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text}")
        return answer.json()

    def dice(self) -> dict[str, str]:
        """What a roller sends: a fresh contribution and the commitment it saw."""
        commitment = self.call("get", self.table + "/dice")["commitment"]
        return {"contribution": secrets.token_hex(16), "commitment": commitment}

    def character(self, name: str, **state: str) -> int:
        made: int = self.call("post", self.table + "/characters", {"name": name})["id"]
        self.edit(made, **state)
        return made

    def edit(self, character: int, **state: str) -> None:
        if state:
            self.call("patch", self.table + f"/characters/{character}", {"form": state})

    def roll(self, character: int, form: dict[str, Any]) -> Any:
        body = {"form": form, "privacy": "public", "dice": self.dice()}
        return self.call("post", self.table + f"/characters/{character}/roll", body)

    def follow(self, entry: int, action: str) -> Any:
        body = {"params": {}, "dice": self.dice()}
        return self.call("post", self.table + f"/entries/{entry}/actions/{action}", body)

    def export(self) -> Any:
        self.call("post", self.table + "/dice/reveal", {})
        return self.call("get", self.table + "/log/export?format=json")


def offers(entry: Any, action: str) -> bool:
    return any(a["key"] == action and a["available"] for a in entry["card"]["actions"])


def play(server: Server) -> None:
    """Kara rolls until a luck swap is offered, is cursed, and swaps (two dice then); Bo,
    unconscious, makes an opposed check and an extended one that ends (its thresholds 1:
    no partial success, so every card names its outcome's key, which verify asks of a log
    whose cards began to name theirs)."""
    kara = server.character("Kara")
    rolled = server.roll(kara, DEX)
    while not offers(rolled, "luck-swap"):
        rolled = server.roll(kara, DEX)
    server.edit(kara, cursed="true")
    server.follow(rolled["id"], "luck-swap")
    bo = server.character("Bo", unconscious="true")
    server.roll(bo, DEX | {"opposed.score": 30})
    ends = {"success_threshold": 1, "failure_threshold": 1, "max_rolls": 3, "until_done": True}
    server.roll(bo, DEX | ends)


def export() -> Any:
    off = dict.fromkeys(("SESSION", "TABLE", "ANONYMOUS"), "off")
    with tempfile.TemporaryDirectory() as folder:
        migrated_sqlite(Path(folder))
        env = {f"RULEBOUND_RATE_{key}": value for key, value in off.items()}
        env["RULEBOUND_DATABASE_URL"] = sqlite_url(Path(folder))
        with TestClient(create_app(Settings.from_env(env))) as client:
            server = Server(client)
            play(server)
            return server.export()


def main() -> None:
    if hasattr(LegacyRoll, "first_roll"):  # a8deb00 added it
        sys.exit("run with PYTHONPATH set to the tree at a8deb00~1 (see the docstring)")
    OUT.write_text(json.dumps(entries(), indent=1) + "\n", encoding="utf-8")
    EXPORT.write_text(json.dumps(export(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
