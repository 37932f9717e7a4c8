"""The generic table drives every registered adapter: sheets, dialog, rolls, follow-ups, pages."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.rulesets.registry import game_keys

from ..client import AppClient
from .conftest import bearer


def _defaults(fields: list[dict[str, Any]]) -> dict[str, Any]:
    return {f["name"]: f["default"] for f in fields if f["default"] is not None}


@pytest.mark.parametrize("ruleset", sorted(game_keys()))
def test_each_adapter_plays_through_the_generic_table(client: AppClient, ruleset: str) -> None:
    made = client.post("/api/tables", json={"name": "T", "ruleset": ruleset, "gm_name": "G"})
    assert made.status_code == 201
    table, gm = made.json()["table"]["id"], bearer(made.json()["session_token"])
    created = client.post(f"/api/tables/{table}/characters", json={"name": "Ana"}, headers=gm)
    assert created.status_code == 201, created.text
    detail = created.json()
    base = f"/api/tables/{table}/characters/{detail['id']}"
    form = {"form": _defaults(detail["dialog"])}
    rolled = client.post(base + "/roll", json=form, headers=gm)
    assert rolled.status_code in (201, 400), rolled.text
    if rolled.status_code == 400:  # a blank sheet may lack what the dialog's defaults need
        assert rolled.json()["field"]
    else:  # the short path's answer (its card spliced in) is the route's entry, byte for byte
        shown = client.get(f"/api/tables/{table}/entries/{rolled.json()['id']}", headers=gm)
        assert rolled.content == shown.content
        for action in rolled.json()["card"]["actions"][:1]:
            path = f"/api/tables/{table}/entries/{rolled.json()['id']}/actions/{action['key']}"
            follow = client.post(path, json={"params": _defaults(action["fields"])}, headers=gm)
            assert follow.status_code in (201, 400, 409), follow.text
    for action in detail["actions"]:
        done = client.post(
            f"{base}/actions/{action['key']}",
            json={"params": _defaults(action["fields"])},
            headers=gm,
        )
        assert done.status_code in (201, 400, 409), (action["key"], done.text)
    for page in (f"/t/{table}", f"/t/{table}/c/{detail['id']}", f"/t/{table}/log"):
        assert client.get(page, headers=gm).status_code == 200, page


@pytest.mark.parametrize("ruleset", sorted(game_keys()))
def test_a_sheet_edit_names_a_field_the_sheet_has_not_and_an_empty_one_logs_nothing(
    client: AppClient, ruleset: str
) -> None:
    made = client.post("/api/tables", json={"name": "T", "ruleset": ruleset, "gm_name": "G"})
    table, gm = made.json()["table"]["id"], bearer(made.json()["session_token"])
    created = client.post(f"/api/tables/{table}/characters", json={"name": "Ana"}, headers=gm)
    path, version = f"/api/tables/{table}/characters/{created.json()['id']}", 1

    def log_size() -> int:
        return len(client.get(f"/api/tables/{table}/log?limit=200", headers=gm).json()["entries"])

    before = log_size()
    odd = client.patch(path, json={"form": {"nonsense": "1"}, "version": version}, headers=gm)
    assert odd.status_code == 400, odd.text
    assert (odd.json()["field"], odd.json()["value"]) == ("nonsense", "1")
    assert odd.json()["expected"].startswith("a field of the sheet: ")
    empty = client.patch(path, json={"form": {}, "version": version}, headers=gm)
    assert empty.status_code == 200, empty.text
    assert empty.json()["version"] == version
    assert log_size() == before
