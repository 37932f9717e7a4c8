"""The table page's "Fair dice" panel, and the contribution a page form sends with a roll.

Pass criteria: the page shows the commitment the API publishes and no form to set a
table-wide client seed; every form that rolls dice says where ``app.js`` reads the
commitment from (``data-dice``); a page roll that carries a contribution uses it (and
the roller's page shows it), one that carries none is marked as the server's choice;
the game master's reveal (it needs the CSRF token) lists the revealed seed, which hashes
to the old commitment.
"""

from __future__ import annotations

import re
import secrets

from rulebound.core.verifiable import commitment_for

from ..client import AppClient

TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')
SAME = {"Sec-Fetch-Site": "same-origin"}


def _open(client: AppClient) -> tuple[int, str]:
    form = {"name": "Night run", "gm_name": "Gina", "ruleset": "empty-reach"}
    made = client.post("/tables", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    table_id = int(made.headers["location"].rsplit("/", 1)[1])
    match = TOKEN.search(client.get(f"/t/{table_id}").text)
    assert match
    return table_id, match.group(1)


def test_the_panel_publishes_the_commitment_and_the_reveal_works(client: AppClient) -> None:
    table_id, csrf = _open(client)
    commitment = client.get(f"/api/tables/{table_id}/dice").json()["commitment"]
    page = client.get(f"/t/{table_id}").text
    assert f'value="{commitment}"' in page
    assert f'action="/t/{table_id}/dice/reveal"' in page
    assert "client-seed" not in page
    assert client.post(f"/t/{table_id}/dice/client-seed", data={"csrf": csrf}).status_code in (
        404,
        405,
    )

    reveal = f"/t/{table_id}/dice/reveal"
    assert client.post(reveal, data={}, headers=SAME).status_code == 403
    done = client.post(reveal, data={"csrf": csrf}, headers=SAME, follow_redirects=False)
    assert done.status_code == 303
    page = client.get(f"/t/{table_id}").text
    seed = re.search(r"<code>([0-9a-f]{64})</code> → <code>" + commitment, page)
    assert seed
    assert commitment_for(seed.group(1)) == commitment
    assert "Revealed seeds (1)" in page


def test_a_page_roll_sends_the_rollers_contribution(client: AppClient) -> None:
    table_id, csrf = _open(client)
    made = client.post(
        f"/t/{table_id}/characters",
        data={"name": "Ana", "csrf": csrf},
        headers=SAME,
        follow_redirects=False,
    )
    cid = int(made.headers["location"].rsplit("/", 1)[1])
    page = client.get(f"/t/{table_id}/c/{cid}").text
    assert page.count(f'data-dice="/api/tables/{table_id}/dice"') >= 2  # the roll, each action
    commitment = client.get(f"/api/tables/{table_id}/dice").json()["commitment"]
    mine = secrets.token_hex(16)
    roll = f"/t/{table_id}/c/{cid}/roll"
    sent = {"csrf": csrf, "skill": "Force", "contribution": mine, "commitment": commitment}
    assert client.post(roll, data=sent, headers=SAME, follow_redirects=False).status_code == 303
    bare = {"csrf": csrf, "skill": "Force"}
    assert client.post(roll, data=bare, headers=SAME, follow_redirects=False).status_code == 303
    log = client.get(f"/api/tables/{table_id}/log").json()["entries"]
    assert log[1]["dice"] == {
        "commitment": commitment,
        "contribution": mine,
        "server_chosen": False,
        "client_seed": None,
        "nonce": None,
    }
    assert log[0]["dice"]["server_chosen"] is True
    page = client.get(f"/t/{table_id}").text
    assert f'<code data-contribution="{mine}">{mine}</code>' in page
    assert "a contribution the server chose" in page
    stale = dict(sent, contribution=secrets.token_hex(16), commitment="ab" * 32)
    refused = client.post(roll, data=stale, headers=SAME)
    assert refused.status_code == 409
    assert "reload" in refused.text
    again = client.post(roll, data=dict(sent), headers=SAME)
    assert again.status_code == 409
    assert "already used" in again.text
