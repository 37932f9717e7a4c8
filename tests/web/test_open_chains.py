"""Whether a result may still be followed up, read from the outlines of the entries after
its roll (``TableService._open_chain``): each reason a chain is closed, and the entries
after it that leave it open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rulebound.store import Scope
from rulebound.web.app import create_app

from ..client import AppClient
from ..trust.conftest import Table, open_table, trust_settings


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    with AppClient(create_app(trust_settings(db_url))) as client:
        yield open_table(client)


def _keep(table: Table, entry: int, code: int = 201, who: str = "player") -> str:
    """Keep ``entry``'s result: the answer's message where it is refused."""
    answer = table.client.post(
        table.url(f"/entries/{entry}/keep"), json={}, headers=table.seats[who]
    )
    assert answer.status_code == code, answer.text
    return str(answer.json().get("message", ""))


def test_each_reason_a_chain_closes_and_what_leaves_it_open(table: Table) -> None:
    ana, bo = table.character("player"), table.character("other", "Bo")
    first = table.roll("player", ana)
    table.roll("other", bo)  # another character's roll, and table talk: still open
    table.post("gm", "/talk", {"text": "hold on", "privacy": "public"})
    _keep(table, first["id"])
    assert "already followed up or kept" in _keep(table, first["id"], 409)

    older, newer = table.roll("player", ana), table.roll("player", ana)
    assert "rolled again" in _keep(table, older["id"], 409)

    table.post("gm", f"/entries/{newer['id']}/void")
    assert "voided" in _keep(table, newer["id"], 409)
    assert "already void" in table.post("gm", f"/entries/{newer['id']}/void", code=409)["message"]

    before = table.roll("player", ana)
    table.post("gm", "/scene/close")
    assert "closed the scene" in _keep(table, before["id"], 409)
    after = table.roll("player", ana)  # a scene closed before the roll leaves it open
    _keep(table, after["id"])


def _read_before(table: Table, root_id: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the check of ``root_id``'s chain reads the log as it stands now: what is
    logged next lands between the check and the write, as a concurrent request's would."""
    service = table.client.app.state.service
    root = service.store.chain(table.id, root_id)[0]
    snapshot = service._later(table.id, root, ("void", "reveal"), Scope(0, True))
    real = service._later
    monkeypatch.setattr(
        service,
        "_later",
        lambda table_id, seen, *rest: (
            snapshot if seen.id == root_id else real(table_id, seen, *rest)
        ),
    )


@pytest.mark.parametrize("closer", ["void", "roll", "scene", "keep"])
def test_a_chain_closed_between_the_check_and_the_write_takes_no_follow_up(
    table: Table, closer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Racing a push against a void, a newer roll or a scene's end, both once answered 201:
    the push was logged after what closed its roll, and changed the sheet."""
    ana = table.character("player")
    first = _pushable(table, ana)
    _read_before(table, first["id"], monkeypatch)
    if closer == "void":
        table.post("gm", f"/entries/{first['id']}/void")
    elif closer == "roll":
        table.roll("player", ana)
    elif closer == "scene":
        table.post("gm", "/scene/close")
    else:
        _keep(table, first["id"])
    said = _keep(table, first["id"], 409)
    assert said
    dice = [str(i) for i, die in enumerate(first["card"]["dice"]) if die["selectable"]]
    body = {"params": {"reroll": dice}, **table.contribution()}
    pushed = table.client.post(
        table.url(f"/entries/{first['id']}/actions/push"), json=body, headers=table.seats["player"]
    )
    assert pushed.status_code == 409, pushed.text
    log = table.client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    assert not [e for e in log if e["parent_id"] == first["id"] and e["kind"] == "follow-up"]


def _pushable(table: Table, character: int) -> dict[str, Any]:
    """A roll of ``character``'s that a push could change (a die left to reroll)."""
    for _ in range(60):
        rolled: dict[str, Any] = table.roll("player", character)
        actions = {a["key"]: a for a in rolled["card"]["actions"]}
        if "push" in actions and any(die["selectable"] for die in rolled["card"]["dice"]):
            return rolled
    raise AssertionError("no roll in 60 left a die to push")


def test_a_roll_voided_twice_at_once_is_voided_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    rolled = table.roll("player", table.character("player"))
    _read_before(table, rolled["id"], monkeypatch)
    table.post("gm", f"/entries/{rolled['id']}/void")
    assert "already void" in table.post("gm", f"/entries/{rolled['id']}/void", code=409)["message"]
    log = table.client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    assert len([e for e in log if e["kind"] == "void"]) == 1


def test_a_result_revealed_twice_at_once_is_revealed_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    rolled = table.roll("player", table.character("player"), "blind")
    _read_before(table, rolled["id"], monkeypatch)
    table.post("gm", f"/entries/{rolled['id']}/reveal")
    said = table.post("gm", f"/entries/{rolled['id']}/reveal", code=409)["message"]
    assert "already revealed" in said


@pytest.mark.parametrize("privacy", ["self", "gm", "blind", "public"])
def test_a_newer_roll_closes_the_older_for_whoever_knows_of_it(table: Table, privacy: str) -> None:
    """A newer roll of the character closes its older roll's follow-ups for those who know
    of it. The roller's own "self" roll was missed (the check read the log as the GM does,
    who does not know of it); and a roll hidden from someone must not close a roll for
    them either, or the refusal would tell them that it exists."""
    ana = table.character("player")
    first = _pushable(table, ana)
    table.roll("player", ana, privacy)
    assert "rolled again" in _keep(table, first["id"], 409, who="player")
    gm_knows = privacy != "self"
    _keep(table, first["id"], 409 if gm_knows else 201, who="gm")
