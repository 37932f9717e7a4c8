"""The table page's "Fair dice" panel: the commitment, the client seed form, the reveal.

Pass criteria: the page shows the commitment the API publishes; its forms need
the CSRF token; a client seed set there is used (and shown escaped); the game
master's reveal lists the revealed seed, which hashes to the old commitment.
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from rulebound.core.verifiable import commitment_for

TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')


def _open(client: TestClient) -> tuple[int, str]:
    form = {"name": "Night run", "gm_name": "Gina", "ruleset": "empty-reach"}
    made = client.post("/tables", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    table_id = int(made.headers["location"].rsplit("/", 1)[1])
    match = TOKEN.search(client.get(f"/t/{table_id}").text)
    assert match
    return table_id, match.group(1)


def test_the_panel_publishes_and_its_forms_work(client: TestClient) -> None:
    table_id, csrf = _open(client)
    commitment = client.get(f"/api/tables/{table_id}/dice").json()["commitment"]
    page = client.get(f"/t/{table_id}").text
    assert f'value="{commitment}"' in page
    assert f'action="/t/{table_id}/dice/reveal"' in page

    path = f"/t/{table_id}/dice/client-seed"
    assert client.post(path, data={"client_seed": "mine"}).status_code == 403
    same = {"Sec-Fetch-Site": "same-origin"}
    done = client.post(
        path,
        data={"client_seed": "<b>mine</b>", "csrf": csrf},
        headers=same,
        follow_redirects=False,
    )
    assert done.status_code == 303
    page = client.get(f"/t/{table_id}").text
    assert "&lt;b&gt;mine&lt;/b&gt;" in page
    assert "<b>mine</b>" not in page
    assert client.get(f"/api/tables/{table_id}/dice").json()["client_seed"] == "<b>mine</b>"
    bad = client.post(path, data={"client_seed": "a:b", "csrf": csrf}, headers=same)
    assert bad.status_code == 400

    reveal = f"/t/{table_id}/dice/reveal"
    assert client.post(reveal, data={}, headers=same).status_code == 403
    done = client.post(reveal, data={"csrf": csrf}, headers=same, follow_redirects=False)
    assert done.status_code == 303
    page = client.get(f"/t/{table_id}").text
    seed = re.search(r"<code>([0-9a-f]{64})</code> → <code>" + commitment, page)
    assert seed
    assert commitment_for(seed.group(1)) == commitment
    assert "Revealed seeds (1)" in page
