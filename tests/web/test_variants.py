"""A table's chosen rule variants reach the rules on every roll and odds request."""

from __future__ import annotations

from ..client import AppClient
from .conftest import bearer


def test_table_variants_shape_the_roll(client: AppClient) -> None:
    body = {
        "name": "T",
        "ruleset": "empty-reach",
        "gm_name": "G",
        "variants": {"gear_banes": "gear-dice"},
    }
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    table, gm = made.json()["table"]["id"], bearer(made.json()["session_token"])
    hero = client.post(f"/api/tables/{table}/characters", json={"name": "Ana"}, headers=gm)
    base = f"/api/tables/{table}/characters/{hero.json()['id']}"
    rolled = client.post(base + "/roll", json={"form": {"skill": "Force"}}, headers=gm)
    assert rolled.status_code == 201, rolled.text
    assert rolled.json()["record"]["request"]["options"]["gear_banes"] == "gear-dice"


def test_unknown_variant_choice_is_refused_at_creation(client: AppClient) -> None:
    body = {"name": "T", "ruleset": "empty-reach", "gm_name": "G", "variants": {"gear_banes": "x"}}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 400
    assert refused.json()["field"] == "variants.gear_banes"
