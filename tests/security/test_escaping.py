"""Issue 8, security: every user-written text is escaped, in pages and in feed fragments,
under a CSP of ``script-src 'self'``; the front end never parses HTML into live nodes."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from ..client import AppClient
from ..web.conftest import Party
from .support import set_scene

WEB = Path(__file__).resolve().parents[2] / "src" / "rulebound" / "web"
HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    '"><svg onload=alert(3)>',
    "'-alert(4)-'",
]
RAW = ("<script>alert", "<img src=x", "<svg onload", '" onerror', "' onload")


def _hostile_table(client: AppClient) -> tuple[Party, int]:
    body = {"name": HOSTILE[0], "ruleset": "empty-reach", "gm_name": HOSTILE[1]}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201
    table_id = made.json()["table"]["id"]
    gm = {"Authorization": "Bearer " + made.json()["session_token"]}
    invites = made.json()["table"]["invites"]
    token = invites["player"].rsplit("/", 1)[1]
    joined = client.post(f"/api/join/{token}", json={"name": HOSTILE[2]})
    player = {"Authorization": "Bearer " + joined.json()["session_token"]}
    party = Party(client, table_id, invites, gm, player, player, player, ids={})
    return party, table_id


def _assert_escaped(text: str, where: str) -> None:
    for raw in RAW:
        assert raw not in text, f"{where}: raw {raw!r}"


def test_hostile_names_are_text_on_every_page_and_fragment(client: AppClient) -> None:
    party, table_id = _hostile_table(client)
    made = client.post(party.url("/characters"), json={"name": HOSTILE[3]}, headers=party.player)
    cid = made.json()["id"]
    notes = {"form": {"skills.Force": "D6", "specialties": HOSTILE[1]}}
    client.patch(party.url(f"/characters/{cid}"), json=notes, headers=party.player)
    rolled = client.post(
        party.url(f"/characters/{cid}/roll"),
        json={"form": {"skill": "Force"}},
        headers=party.player,
    )
    assert rolled.status_code == 201
    cookie = {"Cookie": f"rb_table_{table_id}={party.gm['Authorization'][7:]}"}
    token = party.invites["player"].rsplit("/", 1)[1]
    pages = ["/", f"/t/{table_id}", f"/t/{table_id}/log", f"/t/{table_id}/c/{cid}"]
    pages += [f"/t/{table_id}/fragments/characters", f"/join/{token}"]
    for path in pages:
        page = client.get(path, headers=cookie)
        assert page.status_code == 200, path
        _assert_escaped(page.text, path)
    assert (
        "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(f"/t/{table_id}", headers=cookie).text
    )
    feed = client.get(party.url("/feed?follow=false"), headers=party.gm).text
    fragments = [json.loads(line[6:])["html"] for line in feed.splitlines() if line[:6] == "data: "]
    assert len(fragments) >= 4
    for html in fragments:
        _assert_escaped(html, "feed fragment")
    assert any("&lt;img src=x onerror=alert(2)&gt;" in html for html in fragments)


def test_an_error_page_escapes_what_it_repeats(client: AppClient) -> None:
    page = client.post("/tables", data={"name": HOSTILE[0], "ruleset": "<b>chess</b>"})
    assert page.status_code == 400
    _assert_escaped(page.text, "error page")
    assert "<b>chess" not in page.text


def test_every_answer_carries_the_security_headers(party: Party) -> None:
    scene = set_scene(party)
    answers = [
        party.client.get("/"),
        party.client.get("/static/app.js"),
        party.client.get(party.url(f"/entries/{scene.entry_id}"), headers=party.gm),
        party.client.get(party.url("/feed?follow=false"), headers=party.gm),
        party.client.get("/t/99999", headers=party.gm),
        party.client.post(party.url("/characters"), json={}, headers=party.observer),
    ]
    for answer in answers:
        csp = answer.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'"
        assert directives["default-src"] == "'self'"
        assert directives["frame-ancestors"] == "'none'"
        assert directives["object-src"] == "'none'"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"


def test_pages_hold_no_inline_script_or_handler(party: Party) -> None:
    scene = set_scene(party)
    cookie = scene.cookie_headers("gm")
    for path in ("/", f"/t/{party.table_id}", f"/t/{party.table_id}/c/{scene.character_id}"):
        text = party.client.get(path, headers=cookie).text
        scripts = re.findall(r"<script\b[^>]*>", text)
        assert scripts == ['<script type="module" src="/static/app.js">'], path
        assert not re.search(r"\son[a-z]+\s*=", text), path
        assert " style=" not in text, path


def test_templates_never_turn_escaping_off() -> None:
    for template in (WEB / "templates").glob("*.html"):
        text = template.read_text()
        assert "|safe" not in text.replace(" ", ""), template.name
        assert "autoescape false" not in text, template.name
        assert "Markup(" not in text, template.name


def test_the_front_end_builds_no_html_from_strings() -> None:
    source = (WEB / "static" / "app.js").read_text()
    code = "\n".join(line for line in source.splitlines() if not line.strip().startswith("//"))
    for sink in (
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "createContextualFragment",
        "document.write",
        "eval(",
        "new Function",
    ):
        assert sink not in code, sink
    assert "new DOMParser()" in code  # fragments are parsed inert, then cleaned
    assert "textContent" in code


FORMULAS = ['=HYPERLINK("http://evil/","x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


def test_the_csv_export_never_starts_a_cell_with_a_formula(client: AppClient) -> None:
    """Issue 14, item 11: a name a spreadsheet would run is written as text."""
    made = client.post(
        "/api/tables", json={"name": "T", "ruleset": "empty-reach", "gm_name": FORMULAS[0]}
    )
    assert made.status_code == 201, made.text
    table_id = made.json()["table"]["id"]
    gm = {"Authorization": "Bearer " + made.json()["session_token"]}
    for name in FORMULAS[1:]:
        assert (
            client.post(
                f"/api/tables/{table_id}/characters", json={"name": name}, headers=gm
            ).status_code
            == 201
        )
    text = client.get(f"/api/tables/{table_id}/log/export?format=csv", headers=gm).text
    rows = list(csv.reader(io.StringIO(text)))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")], cells
    assert "'" + FORMULAS[0] in cells
    assert any(cell.startswith("'" + FORMULAS[0]) for cell in cells)
