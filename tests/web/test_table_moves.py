"""Keep, the next roll closing a result, reveal and the unseen push (issue 12), through the API
with the server's committed dice; the log they write still passes ``rulebound verify``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebound.web.app import create_app

from ..client import AppClient
from ..trust.conftest import Table, open_table, trust_settings, verify


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    with AppClient(create_app(trust_settings(db_url))) as client:
        yield open_table(client)


def _act(table: Table, who: str, entry: int, what: str, code: int) -> dict[str, object]:
    answer = table.client.post(
        table.url(f"/entries/{entry}/{what}"), json={}, headers=table.seats[who]
    )
    assert answer.status_code == code, answer.text
    return dict(answer.json())


def test_keep_and_the_next_roll_close_a_result_and_verify_accepts_them(
    table: Table, tmp_path: Path
) -> None:
    cid = table.character("player")
    first = table.roll("player", cid)
    kept = _act(table, "player", first["id"], "keep", 201)
    assert kept["kind"] == "keep"
    assert kept["parent_id"] == first["id"]
    assert "kept the result" in str(kept["summary"])
    _act(table, "player", first["id"], "actions/push", 409)  # kept: closed
    _act(table, "player", first["id"], "keep", 409)
    second = table.roll("player", cid)
    third = table.roll("player", cid)
    for closed in (second["id"],):
        refused = table.client.post(
            table.url(f"/entries/{closed}/actions/push"),
            json={"params": {"reroll": [0]}},
            headers=table.seats["player"],
        )
        assert refused.status_code == 409, refused.text
        assert "rolled again" in refused.json()["message"]
    assert third["can_act"] == bool(third["card"]["actions"])
    _act(table, "other", third["id"], "keep", 403)  # not Oz's character
    _act(table, "observer", third["id"], "keep", 403)
    assert verify(table.export(), tmp_path).code == 0


def test_a_blind_roll_is_pushed_unseen_then_revealed_to_everyone(
    table: Table, tmp_path: Path
) -> None:
    cid = table.character("player")
    rolled = table.roll("player", cid, "blind")
    assert rolled["hidden"]
    body = {"params": {}, "dice": table.contribution()}  # unseen: the default dice, or none
    url = table.url(f"/entries/{rolled['id']}/actions/push")
    answer = table.client.post(url, json=body, headers=table.seats["player"])
    assert answer.status_code == 201, answer.text
    pushed = answer.json()
    assert pushed["hidden"]  # pushed, still unseen
    assert pushed["card"] is None
    assert pushed["privacy"] == "blind"
    _act(table, "player", pushed["id"], "reveal", 403)  # only the game master reveals
    shown = _act(table, "gm", pushed["id"], "reveal", 201)
    assert shown["kind"] == "reveal"
    assert shown["privacy"] == "public"
    gm_view = table.client.get(table.url(f"/entries/{pushed['id']}"), headers=table.seats["gm"])
    card = gm_view.json()["card"]
    for who in ("player", "other", "observer"):
        log = table.client.get(table.url("/log"), headers=table.seats[who]).json()["entries"]
        revealed = next(e for e in log if e["kind"] == "reveal")
        assert revealed["card"]["outcome"] == card["outcome"]
        assert revealed["card"]["dice"] == card["dice"]
        assert revealed["card"]["actions"] == []  # nothing to act on from the copy
    assert shown["revealed_from"] == "Pia"  # the roller's, though the GM revealed it
    assert shown["actor"] == "Gina"
    again = table.client.post(
        table.url(f"/entries/{pushed['id']}/reveal"), headers=table.seats["gm"]
    )
    assert again.status_code == 409, again.text  # once: a second copy told nothing new
    assert "already revealed" in again.json()["message"]
    gm_log = table.client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    assert [e["kind"] for e in gm_log].count("reveal") == 1
    assert not next(e for e in gm_log if e["id"] == pushed["id"])["may_reveal"]
    public = table.roll("player", cid)
    _act(table, "gm", public["id"], "reveal", 409)  # a public roll has nothing to reveal
    assert verify(table.export(), tmp_path).code == 0
    assert verify(table.export("player"), tmp_path).code == 0


def test_every_unseen_push_of_a_blind_roll_is_taken_whatever_its_dice_show(
    table: Table, tmp_path: Path
) -> None:
    """Refusing an unseen push when no die is left to reroll (every die a success or a 1)
    told the roller much of a result they may not see: an unseen push is always taken, and
    one with nothing to reroll counts as the push (ruling E1)."""
    cid = table.character("player")
    emptied = pushes = 0
    while pushes < 200 and not (emptied and pushes - emptied):  # both cases, by chance
        pushes += 1
        rolled = table.roll("player", cid, "blind")
        body = {"params": {}, "dice": table.contribution()}
        url = table.url(f"/entries/{rolled['id']}/actions/push")
        answer = table.client.post(url, json=body, headers=table.seats["player"])
        assert answer.status_code == 201, answer.text  # the same answer, whatever the dice
        pushed = answer.json()
        assert (pushed["hidden"], pushed["card"]) == (True, None)
        seen = table.client.get(table.url(f"/entries/{pushed['id']}"), headers=table.seats["gm"])
        states = [die["state"] for die in seen.json()["card"]["dice"]]
        emptied += "rerolled" not in states
    assert emptied, "no roll left nothing to reroll: the case under test never came up"
    assert pushes > emptied, "no roll had a die to reroll"
    assert verify(table.export(), tmp_path).code == 0


def test_the_game_master_voids_a_roll_without_deleting_it(table: Table, tmp_path: Path) -> None:
    cid = table.character("player")
    rolled = table.roll("player", cid)
    _act(table, "player", rolled["id"], "void", 403)
    void = _act(table, "gm", rolled["id"], "void", 201)
    assert void["kind"] == "void"
    assert void["record"] == {"voids": [rolled["id"]]}
    _act(table, "gm", rolled["id"], "void", 409)
    _act(table, "player", rolled["id"], "keep", 409)  # a void roll takes no follow-up
    log = table.client.get(table.url("/log"), headers=table.seats["other"]).json()["entries"]
    assert [e["id"] for e in log if e["id"] == rolled["id"]]  # still in the log
    assert verify(table.export(), tmp_path).code == 0


def test_table_talk_rolls_with_the_tables_dice_and_verifies(table: Table, tmp_path: Path) -> None:
    def say(who: str, text: str, privacy: str = "public", code: int = 303) -> None:
        body = {"text": text, "privacy": privacy, **table.contribution()}
        answer = table.client.post(
            f"/t/{table.id}/talk", data=body, headers=table.seats[who], follow_redirects=False
        )
        assert answer.status_code == code, answer.text

    say("gm", "/r 2d6+3")
    say("player", "Ana ducks", "public")
    say("gm", "/r d20", "gm")
    say("player", "/r 2d6+", code=400)  # names the position; nothing is logged
    say("observer", "hello", code=403)
    log = table.client.get(table.url("/log"), headers=table.seats["other"]).json()["entries"]
    roll = next(e for e in log if e["kind"] == "free-roll")
    assert roll["card"]["title"] == "/r 2d6+3"
    total = int(roll["card"]["outcome"].removeprefix("Total "))
    assert 5 <= total <= 15
    assert total == 3 + sum(d["face"] for d in roll["card"]["dice"])
    assert [e["summary"] for e in log if e["kind"] == "talk"] == ["Pia: Ana ducks"]
    assert not [e for e in log if e["privacy"] == "gm"]  # the GM's own roll is theirs
    assert verify(table.export(), tmp_path).code == 0


def test_closing_the_scene_closes_every_open_follow_up(table: Table, tmp_path: Path) -> None:
    ana, bo = table.character("player"), table.character("other", "Bo")
    first, second = table.roll("player", ana), table.roll("other", bo)
    assert (
        table.client.post(table.url("/scene/close"), headers=table.seats["player"]).status_code
        == 403
    )
    closed = table.post("gm", "/scene/close")
    assert closed["kind"] == "scene"
    for who, rolled in (("player", first), ("other", second)):
        _act(table, who, rolled["id"], "keep", 409)
    after = table.roll("player", ana)
    _act(table, "player", after["id"], "keep", 201)  # a roll after the scene is open again
    assert verify(table.export(), tmp_path).code == 0
