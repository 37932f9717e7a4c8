"""Whether a result may still be followed up, read from the outlines of the entries after
its roll (``TableService._open_chain``): each reason a chain is closed, and the entries
after it that leave it open."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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
