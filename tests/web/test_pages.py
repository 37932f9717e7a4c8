"""The HTML side: cookies, CSRF, forms with errors beside their fields, escaping, CSP."""

from __future__ import annotations

import html
import json
import re

import pytest
from fastapi import FastAPI
from httpx2 import Response

from ..client import AppClient
from .conftest import Dice

TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')


def _open_table(
    client: AppClient, name: str = "Night run", gm: str = "Gina", ruleset: str = "empty-reach"
) -> tuple[int, str]:
    made = client.post(
        "/tables",
        data={"name": name, "gm_name": gm, "ruleset": ruleset, "observers": "on"},
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    cookie = made.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie
    table_id = int(made.headers["location"].rsplit("/", 1)[1])
    page = client.get(f"/t/{table_id}")
    match = TOKEN.search(page.text)
    assert match
    return table_id, match.group(1)


def test_home_lists_every_table_ruleset_with_variants(client: AppClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'value="empty-reach"' in page.text
    assert "variant.empty-reach.gear_banes" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "<script>" not in page.text
    assert " style=" not in page.text


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"name": "   "}, "Name: “   ” will not do; it takes"),
        ({"variant.empty-reach.gear_banes": "bogus"}, "will not do; it takes one of"),
    ],
)
def test_the_home_page_says_what_is_wrong_with_a_new_table_in_plain_words(
    client: AppClient, form: dict[str, str], said: str
) -> None:
    sent = {"name": "Night run", "gm_name": "Gina", "ruleset": "empty-reach"} | form
    answer = client.post("/tables", data=sent)
    assert answer.status_code == 400
    shown = re.search(r'<p class="error" role="alert">(.*?)</p>', answer.text, re.S)
    assert shown, answer.text
    assert said in html.unescape(shown.group(1))
    assert "got " not in shown.group(1)


def test_writes_need_the_token_and_the_same_origin(client: AppClient) -> None:
    table_id, csrf = _open_table(client)
    path = f"/t/{table_id}/characters"
    assert client.post(path, data={"name": "Ana"}).status_code == 403
    assert client.post(path, data={"name": "Ana", "csrf": "forged"}).status_code == 403
    cross = client.post(
        path, data={"name": "Ana", "csrf": csrf}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert cross.status_code == 403
    origin = client.post(
        path, data={"name": "Ana", "csrf": csrf}, headers={"Origin": "http://evil.example"}
    )
    assert origin.status_code == 403
    api = client.post(f"/api/tables/{table_id}/characters", json={"name": "Ana"})
    assert api.status_code == 403
    ok = client.post(
        path,
        data={"name": "Ana", "csrf": csrf},
        headers={"Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    assert ok.status_code == 303
    with_header = client.post(
        f"/api/tables/{table_id}/characters", json={"name": "Bo"}, headers={"X-CSRF-Token": csrf}
    )
    assert with_header.status_code == 201


def test_joining_by_link_seats_a_second_browser(client: AppClient, app: FastAPI) -> None:
    table_id, _ = _open_table(client)
    invite = app.state.store.table(table_id).player_token
    with AppClient(app) as player:
        assert player.get(f"/t/{table_id}").status_code == 403
        form = player.get(f"/join/{invite}")
        assert "a player" in form.text
        joined = player.post(f"/join/{invite}", data={"name": "Pia"}, follow_redirects=False)
        assert joined.status_code == 303
        page = player.get(f"/t/{table_id}")
        assert page.status_code == 200
        assert "Pia" in page.text
        assert "Invite links" not in page.text
        assert player.get("/").text.count(f'href="/t/{table_id}"') == 1


def test_sheet_errors_show_beside_their_field(client: AppClient) -> None:
    table_id, csrf = _open_table(client)
    made = client.post(
        f"/t/{table_id}/characters", data={"name": "Ana", "csrf": csrf}, follow_redirects=False
    )
    char_path = made.headers["location"]
    page = client.get(char_path)
    assert 'id="s-attributes-Strength"' in page.text
    assert "Exact chances" in page.text
    bad = client.post(
        char_path + "/sheet", data={"csrf": csrf, "version": "1", "name": "Ana", "damage": "lots"}
    )
    assert bad.status_code == 400
    error = re.search(r'<div class="field field-int has-error">.*?</div>', bad.text, re.S)
    assert error
    assert 'name="damage"' in error.group(0)
    assert "whole number" in error.group(0)
    good = client.post(
        char_path + "/sheet",
        data={"csrf": csrf, "version": "1", "name": "Ana", "damage": "1"},
        follow_redirects=False,
    )
    assert good.status_code == 303
    stale = client.post(
        char_path + "/sheet", data={"csrf": csrf, "version": "1", "name": "Ana", "damage": "2"}
    )
    assert stale.status_code == 409


def test_roll_dialog_chances_and_roll_by_form(client: AppClient) -> None:
    table_id, csrf = _open_table(client)
    char_path = client.post(
        f"/t/{table_id}/characters", data={"name": "Ana", "csrf": csrf}, follow_redirects=False
    ).headers["location"]
    chances = client.post(
        char_path + "/chances", data={"csrf": csrf, "skill": "Force", "helpers": "1"}
    ).json()
    assert chances["chances"][0]["label"] == "success"
    rolled = client.post(
        char_path + "/roll",
        data={"csrf": csrf, "skill": "Force", "privacy": "gm"},
        follow_redirects=False,
    )
    assert rolled.status_code == 303
    assert "#e" in rolled.headers["location"]
    page = client.get(f"/t/{table_id}")
    assert 'class="card' in page.text
    assert "Me and the game master" in page.text
    bad = client.post(char_path + "/roll", data={"csrf": csrf, "skill": "", "privacy": "public"})
    assert bad.status_code == 400
    assert 'class="field field-select has-error"' in bad.text


def test_hostile_names_are_text(client: AppClient) -> None:
    table_id, _csrf = _open_table(
        client, name="<script>alert(1)</script>", gm="<img src=x onerror=alert(1)>"
    )
    page = client.get(f"/t/{table_id}").text
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=x" not in page


def test_the_log_page_and_json_import(client: AppClient) -> None:
    table_id, csrf = _open_table(client)
    sheet = json.dumps(
        {
            "name": "Imported",
            "attributes": {"Strength": "D6", "Agility": "D8", "Wits": "D8", "Empathy": "D8"},
            "base_health": 4,
            "base_resolve": 4,
        }
    )
    made = client.post(
        f"/t/{table_id}/characters/import",
        data={"csrf": csrf},
        files={"file": ("a.json", sheet, "application/json")},
        follow_redirects=False,
    )
    assert made.status_code == 303
    assert "Imported" in client.get(made.headers["location"]).text
    bad = client.post(
        f"/t/{table_id}/characters/import",
        data={"csrf": csrf},
        files={"file": ("a.json", "{nope", "application/json")},
    )
    assert bad.status_code == 400
    assert "it breaks at line 1, column 2" in bad.text
    long_number = '{"name": "Big", "base_health": ' + "1" * 5000 + "}"
    too_long = client.post(  # once a 500: Python's cap on the digits it converts
        f"/t/{table_id}/characters/import",
        data={"csrf": csrf},
        files={"file": ("a.json", long_number, "application/json")},
    )
    assert too_long.status_code == 400
    assert "a number in it runs past 4,300 digits" in too_long.text
    ghostburn = {"name": "Vex", "abilities": {"agility": 3}, "luck_points": 1, "augs": []}
    foreign = client.post(
        f"/t/{table_id}/characters/import",
        data={"csrf": csrf},
        files={"file": ("vex.json", json.dumps(ghostburn), "application/json")},
    )
    assert foreign.status_code == 400
    assert "This file is not a character of The Empty Reach" in foreign.text
    log = client.get(f"/t/{table_id}/log")
    assert log.status_code == 200
    assert "Gina created Imported" in log.text


def test_guided_creation_pages_end_on_the_new_sheet(client: AppClient, dice: Dice) -> None:
    made = client.post(
        "/tables",
        data={"name": "G", "gm_name": "Gina", "ruleset": "guided-test"},
        follow_redirects=False,
    )
    table_id = int(made.headers["location"].rsplit("/", 1)[1])
    table_page = client.get(f"/t/{table_id}").text
    assert f'href="/t/{table_id}/create"' in table_page
    token = TOKEN.search(table_page)
    assert token
    csrf = token.group(1)
    dice.seeds[:] = [1]  # might 2: a giant is refused
    page = client.get(f"/t/{table_id}/create").text

    def post(answer: dict[str, str]) -> Response:
        state = re.search(r'name="state" value="([^"]+)"', page)
        assert state
        return client.post(
            f"/t/{table_id}/create",
            data={"csrf": csrf, "state": state.group(1), **answer},
            follow_redirects=False,
        )

    page = post({}).text
    assert "Choose a kin" in page
    refused = post({"kin": "giant"})
    assert refused.status_code == 400
    assert "Choose a kin" in refused.text
    assert "needs might 4" in refused.text
    page = refused.text
    page = post({"kin": "human"}).text
    done = post({"name": "Hild"})
    assert done.status_code == 303
    assert "Hild" in client.get(done.headers["location"]).text


def test_the_character_page_dialog_picks_and_checks_other_characters(client: AppClient) -> None:
    """A Legacy dialog's helper is another character: the character page offers the table's
    characters as the table page does, and a pick that names none of them is a 400 naming
    the field, for chances as for the roll."""
    table_id, csrf = _open_table(client, ruleset="legacy")
    made = [
        client.post(
            f"/t/{table_id}/characters", data={"name": name, "csrf": csrf}, follow_redirects=False
        ).headers["location"]
        for name in ("Ana", "Bo")
    ]
    ana, bo_id = made[0], made[1].rsplit("/", 1)[1]
    page = client.get(ana).text
    helper = re.search(r'<select[^>]*name="helper".*?</select>', page, re.S)
    assert helper, page
    assert f'<option value="{bo_id}"' in helper.group(0)
    form = {"csrf": csrf, "characteristic": "STR"}
    picked = client.post(ana + "/chances", data=form | {"helper": bo_id})
    assert picked.json()["detail"].startswith("Bo does not hold the Strength affinity")
    for bad in ("999", "abc"):
        answer = client.post(ana + "/chances", data=form | {"helper": bad})
        assert answer.status_code == 400, answer.text
        assert answer.json()["detail"].startswith("Helper (a character): “"), answer.json()
        rolled = client.post(ana + "/roll", data=form | {"helper": bad, "privacy": "public"})
        assert rolled.status_code == 400
        assert "has-error" in rolled.text


def test_each_panel_of_the_table_page_is_fetched_again_alone(client: AppClient) -> None:
    """A live update fetches one panel at a time; a name that is no panel is not found.
    (Legacy: its game master has tools.)"""
    table_id, csrf = _open_table(client, ruleset="legacy")
    client.post(f"/t/{table_id}/characters", data={"name": "Ana", "csrf": csrf})
    marks = {
        "characters": 'class="characters"',
        "members": 'id="counters"',
        "tools": 'class="panel tool"',
        "turns": 'aria-label="Turn order"',
    }
    for panel, mark in marks.items():
        answer = client.get(f"/t/{table_id}/fragments/{panel}")
        assert answer.status_code == 200, (panel, answer.text)
        assert mark in answer.text, panel
        assert "<html" not in answer.text, panel
    assert "Ana" in client.get(f"/t/{table_id}/fragments/characters").text
    missing = client.get(f"/t/{table_id}/fragments/sheets")
    assert missing.status_code == 404
    assert "panel &#39;sheets&#39; not found" in missing.text
    other = client.get(f"/t/{table_id + 1}/fragments/members")
    assert other.status_code == 404  # no such table
