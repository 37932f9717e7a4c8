"""Guided creation through the generic flow (a test adapter), and the OpenAPI contract."""

from __future__ import annotations

import base64
from typing import Any

from httpx2 import Response

from rulebound.web.routes import api

from ..client import AppClient
from .conftest import Dice, Party, seat_party


def _step(party: Party, state: str | None, form: dict[str, Any]) -> dict[str, Any]:
    answer = party.client.post(
        party.url("/creation"), json={"state": state, "form": form}, headers=party.player
    )
    assert answer.status_code == 200, answer.text
    step: dict[str, Any] = answer.json()
    return step


def test_guided_creation_walks_the_steps_and_makes_the_character(
    client: AppClient, dice: Dice
) -> None:
    party = seat_party(client, "guided-test")
    dice.seeds[:] = [5]
    first = _step(party, None, {})
    assert first["title"] == "Roll might"
    assert first["character"] is None
    second = _step(party, first["state"], {})
    assert second["title"] == "Choose a kin"
    assert second["fields"][0]["choices"][1]["value"] == "giant"
    third = _step(party, second["state"], {"kin": "human"})
    assert third["title"] == "Name"
    done = _step(party, third["state"], {"name": "Hild"})
    assert done["character"]["name"] == "Hild"
    assert done["character"]["owner_id"] == party.ids["player"]
    assert done["character"]["sheet"]["kin"] == "human"


def test_the_steps_state_cannot_be_forged(client: AppClient, dice: Dice) -> None:
    party = seat_party(client, "guided-test")
    first = _step(party, None, {})
    _, _, mac = first["state"].rpartition(".")
    body = base64.urlsafe_b64encode(b'{"might":6}').decode()
    forged = party.client.post(
        party.url("/creation"), json={"state": f"{body}.{mac}", "form": {}}, headers=party.player
    )
    assert forged.status_code == 400
    assert forged.json()["field"] == "state"
    elsewhere = party.client.post(
        party.url("/creation"), json={"state": first["state"], "form": {}}, headers=party.other
    )
    assert elsewhere.status_code == 400


def test_a_restriction_is_enforced(client: AppClient, dice: Dice) -> None:
    party = seat_party(client, "guided-test")
    dice.seeds[:] = [1, 0]  # might 2 at the first table, 4 at the second

    def try_giant() -> Response:
        state = _step(party, _step(party, None, {})["state"], {})["state"]
        body = {"state": state, "form": {"kin": "giant"}}
        return party.client.post(party.url("/creation"), json=body, headers=party.player)

    refused = try_giant()
    assert refused.status_code == 409
    assert "might 4" in refused.json()["detail"]
    allowed = try_giant()
    assert allowed.json()["title"] == "Name"


def test_rulesets_without_guided_creation_say_so(party: Party) -> None:
    refused = party.client.post(party.url("/creation"), json={"form": {}}, headers=party.player)
    assert refused.status_code == 409


def test_the_schema_documents_every_route_and_its_errors(client: AppClient) -> None:
    schema = client.get("/openapi.json").json()
    routes = {
        (method.upper(), path)
        for route in api.router.routes
        if (path := getattr(route, "path", "")).startswith("/api/")
        for method in getattr(route, "methods", ()) or ()
    }
    documented = {(m.upper(), p) for p, ops in schema["paths"].items() for m in ops}
    assert routes <= documented
    assert len(routes) >= 22
    error = {"$ref": "#/components/schemas/ErrorOut"}
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            answers = op["responses"]
            assert {"400", "403", "404", "409", "429", "503"} <= set(answers), (method, path)
            for code in ("400", "403", "404", "409", "429", "503"):
                assert answers[code]["content"]["application/json"]["schema"] == error
    assert schema["components"]["schemas"]["ErrorOut"]["required"] == ["error", "detail"]
    assert _dangling(schema, schema) == []
    assert "Card" in schema["components"]["schemas"]
    assert not any(p.startswith("/t/") or p == "/" for p in schema["paths"])


def _dangling(node: object, schema: dict[str, Any]) -> list[str]:
    """The ``$ref``s under ``node`` that name no component of ``schema``."""
    if isinstance(node, list):
        return [ref for item in node for ref in _dangling(item, schema)]
    if not isinstance(node, dict):
        return []
    found = [ref for value in node.values() for ref in _dangling(value, schema)]
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.rsplit("/", 1)[-1] not in schema["components"]["schemas"]:
        found.append(ref)
    return found
