"""Issue 8, security: request bodies, names, notes, lists and dice per roll are capped.

A body past the cap is refused with 413 before it is parsed, whether or not it
says its length; a value past a cap is a 400 that names its field."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from rulebound.web.app import create_app
from rulebound.web.caps import MAX_ITEMS, MAX_NAME, MAX_TEXT
from rulebound.web.settings import Settings

from ..web.conftest import Dice, Party, games_for_tests, seat_party
from .support import set_scene

CAP = 64 * 1024


@pytest.fixture
def app(db_url: str, dice: Dice) -> FastAPI:
    settings = Settings(
        database_url=db_url, source=dice.source, games=games_for_tests, max_body_bytes=CAP
    )
    return create_app(settings)


def _field_error(answer: Any, field: str, expected: str = "") -> None:
    assert answer.status_code == 400, answer.text[:300]
    body = answer.json()
    assert body["field"] == field, body
    assert expected in body["expected"], body
    assert len(answer.text) < 2000  # a refused value is not echoed whole


def test_a_body_over_the_cap_is_413(party: Party) -> None:
    big = {"name": "x" * CAP}
    made = party.client.post(party.url("/characters"), json=big, headers=party.gm)
    assert made.status_code == 413
    fits = party.client.post(party.url("/characters"), json={"name": "Bo"}, headers=party.gm)
    assert fits.status_code == 201


def test_a_body_without_a_length_is_cut_at_the_cap(party: Party) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(CAP // 1024 + 1):
            yield b"x" * 1024
        yield b'"}'

    headers = party.gm | {"Content-Type": "application/json"}
    made = party.client.post(party.url("/characters"), content=chunks(), headers=headers)
    assert made.status_code == 413


def test_pages_and_uploads_are_capped_too(party: Party) -> None:
    scene = set_scene(party)
    cookie = scene.cookie_headers("player")
    csrf = scene.csrf("player")
    url = f"/t/{party.table_id}/characters/import"
    upload = {"file": ("a.json", "x" * (CAP + 1), "application/json")}
    sent = party.client.post(url, data={"csrf": csrf}, files=upload, headers=cookie)
    assert sent.status_code == 413
    form = {"csrf": csrf, "name": "x" * (CAP + 1)}
    sent = party.client.post(f"/t/{party.table_id}/characters", data=form, headers=cookie)
    assert sent.status_code == 413


def test_names_are_capped(party: Party) -> None:
    client, long = party.client, "n" * (MAX_NAME + 1)
    table = {"name": "t" * 201, "ruleset": "empty-reach", "gm_name": "G"}
    assert client.post("/api/tables", json=table).status_code == 422
    table = {"name": "T", "ruleset": "empty-reach", "gm_name": long}
    assert client.post("/api/tables", json=table).status_code == 422
    token = str(party.invites["player"]).rsplit("/", 1)[1]
    assert client.post(f"/api/join/{token}", json={"name": long}).status_code == 422
    assert (
        client.post(party.url("/characters"), json={"name": long}, headers=party.gm).status_code
        == 422
    )
    scene = set_scene(party)
    form = {"name": long, "csrf": scene.csrf("gm")}
    page = client.post(
        f"/t/{party.table_id}/characters", data=form, headers=scene.cookie_headers("gm")
    )
    assert page.status_code == 400
    assert f"a name of 1 to {MAX_NAME} characters" in page.text
    sheet = {"name": long, "attributes": {"Strength": "D6"}}
    made = client.post(party.url("/characters"), json={"sheet": sheet}, headers=party.gm)
    _field_error(made, "name", "characters")  # the ruleset's own cap (80) or ours (100)
    cid = party.character(party.gm)
    edit = {"form": {"name": long}}
    edited = client.patch(party.url(f"/characters/{cid}"), json=edit, headers=party.gm)
    _field_error(edited, "name", "characters")
    guided = seat_party(party.client, "guided-test")  # an adapter with no cap of its own
    made = client.post(guided.url("/characters"), json={"sheet": {"name": long}}, headers=guided.gm)
    _field_error(made, "name", f"1 to {MAX_NAME} characters")


def test_notes_and_other_text_are_capped(party: Party) -> None:
    cid = party.character(party.gm)
    long = "s" * (MAX_TEXT + 1)
    edit = {"form": {"specialties": long}}
    edited = party.client.patch(party.url(f"/characters/{cid}"), json=edit, headers=party.gm)
    _field_error(edited, "specialties", f"at most {MAX_TEXT} characters")
    sheet = {"name": "Ana", "notes": {"journal": [long]}}
    put = party.client.put(
        party.url(f"/characters/{cid}/sheet"), json={"sheet": sheet}, headers=party.gm
    )
    _field_error(put, "notes.journal[0]", "text of at most")
    roll = {"form": {"skill": "Force", "note": long}}
    rolled = party.client.post(party.url(f"/characters/{cid}/roll"), json=roll, headers=party.gm)
    _field_error(rolled, "note")


def test_lists_and_nesting_are_capped(party: Party) -> None:
    scene = set_scene(party)
    url = party.url(f"/entries/{scene.entry_id}/actions/push")
    many = {"params": {"dice": list(range(MAX_ITEMS + 1))}}
    _field_error(party.client.post(url, json=many, headers=party.player), "dice", "items")
    deep: Any = "x"
    for _ in range(20):
        deep = [deep]
    form = {"form": {"skill": "Force", "deep": deep}}
    chances = party.client.post(
        party.url(f"/characters/{scene.character_id}/chances"), json=form, headers=party.player
    )
    assert chances.status_code == 400
    assert "nesting" in chances.json()["expected"]


def test_dice_and_modifiers_per_roll_are_capped_by_the_rules(party: Party) -> None:
    cid = party.character(party.gm)
    gear = {"form": {"gear": "Rifle 30/30"}}
    edited = party.client.patch(party.url(f"/characters/{cid}"), json=gear, headers=party.gm)
    _field_error(edited, "gear.0.bonus", "at most 10")
    roll = {"form": {"skill": "Force", "modifier": 999}}  # once a 500
    rolled = party.client.post(party.url(f"/characters/{cid}/roll"), json=roll, headers=party.gm)
    _field_error(rolled, "modifier")
    rainwall = seat_party(party.client, "rainwall")
    sheet = {
        "name": "Ana",
        "traits": {"Dexterity": 10},
        "skills": {"Lockpicking": {"score": 5, "bonus": 50}},
    }
    made = rainwall.client.post(
        rainwall.url("/characters"), json={"sheet": sheet}, headers=rainwall.gm
    )
    assert made.status_code == 201, made.text
    roll = {"form": {"skill": "Lockpicking", "dr": 1}}
    url = rainwall.url(f"/characters/{made.json()['id']}/roll")
    _field_error(rainwall.client.post(url, json=roll, headers=rainwall.gm), "bonus", "at most 20")


def test_the_sheet_page_shows_a_capped_field_beside_it(party: Party) -> None:
    scene = set_scene(party)
    cookie, csrf = scene.cookie_headers("player"), scene.csrf("player")
    form = {"csrf": csrf, "version": "2", "name": "Ana", "specialties": "s" * (MAX_TEXT + 1)}
    url = f"/t/{party.table_id}/c/{scene.character_id}/sheet"
    page = party.client.post(url, data=form, headers=cookie)
    assert page.status_code == 400
    assert 'id="s-specialties-error"' in page.text
    assert f"text of at most {MAX_TEXT} characters" in page.text


def test_ids_past_the_databases_integers_name_nothing(party: Party) -> None:
    for huge in (2**31, 2**63, 10**30):
        api = party.client.get(f"/api/tables/{huge}", headers=party.gm)
        assert api.status_code == 404, (huge, api.text)
        assert api.json()["error"] == "not-found"
        entry = party.client.get(party.url(f"/entries/{huge}"), headers=party.gm)
        assert entry.status_code == 404
        assert party.client.get(f"/t/{huge}", headers=party.gm).status_code == 404
    log = party.client.get(party.url(f"/log?before={2**40}"), headers=party.gm)
    assert log.status_code == 422  # a seq is bounded in the schema
