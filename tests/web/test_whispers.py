"""Table talk a group uses: whispers, emotes and inline rolls, through the API and the page.

Pass criteria: a whisper reaches its sender, its addressee and the game master, and no one
else learns that it exists: not through the log, the entry's own URL, the JSON feed, the
JSON export (a withheld link there) or the CSV; with inline rolls the same; a whisper names
one other member of the table and is table talk only (a roll cannot be one); "/me" makes an
action line.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..client import AppClient
from .conftest import Party, bearer

SECRET = "the duke keeps the key in his boot"


def _seat(party: Party, name: str) -> dict[str, str]:
    token = party.invites["player"].rsplit("/", 1)[1]
    joined = party.client.post(f"/api/join/{token}", json={"name": name})
    assert joined.status_code == 201, joined.text
    return bearer(joined.json()["session_token"])


def _say(party: Party, who: dict[str, str], code: int = 201, **body: Any) -> dict[str, Any]:
    said = party.client.post(party.url("/talk"), json=body, headers=who)
    assert said.status_code == code, said.text
    answer: dict[str, Any] = said.json()
    return answer


def _everything(client: AppClient, party: Party, who: dict[str, str], entry_id: int) -> str:
    """All a member can fetch about the log, as one string."""
    export = client.get(party.url("/log/export?format=json"), headers=who).json()
    links = [e for e in export["entries"] if e.get("withheld")]
    export["entries"] = [e for e in export["entries"] if not e.get("withheld")]
    return "\n".join(
        [
            client.get(party.url("/log"), headers=who).text,
            client.get(party.url(f"/entries/{entry_id}"), headers=who).text,
            client.get(party.url("/feed?follow=false"), headers=who).text,
            client.get(party.url("/log/export?format=csv"), headers=who).text,
            str(export),
            str([set(link) for link in links]),
        ]
    )


@pytest.mark.parametrize("text", [SECRET, SECRET + " [[1d20+3]]", "/me " + SECRET])
def test_a_whisper_reaches_its_addressee_and_the_gm_and_no_one_else(
    client: AppClient, party: Party, text: str
) -> None:
    nel = _seat(party, "Nel")
    whisper = _say(party, party.player, text=text, to=party.ids["other"])
    assert (whisper["privacy"], whisper["to_id"], whisper["to"]) == (
        "whisper",
        party.ids["other"],
        "Oz",
    )
    assert whisper["privacy_label"] == "Whisper to Oz"
    assert whisper["record"]["to"] == party.ids["other"]
    seq = f'"seq":{whisper["seq"]}'
    for who, knows in (
        (party.gm, True),
        (party.player, True),
        (party.other, True),
        (party.observer, False),
        (nel, False),
    ):
        seen = _everything(client, party, who, whisper["id"])
        assert (SECRET in seen) == knows
        assert ('"not-found"' in seen) == (not knows)  # its own URL: as for a missing one
        assert (seq in seen.replace(" ", "")) == knows
    export = client.get(party.url("/log/export?format=json"), headers=nel).json()
    link = next(e for e in export["entries"] if e["seq"] == whisper["seq"])
    assert link == {"withheld": True, "seq": whisper["seq"], "privacy": "whisper"} | {
        key: link[key] for key in ("dice", "body_hash", "prev_hash", "hash")
    }


def test_a_blind_message_is_refused_and_a_blind_free_roll_is_told_as_one(party: Party) -> None:
    """Blind keeps a result from the roller: a message without dice has none, and blind
    would only hide it from its own sender (the game master alone is "gm")."""
    refused = _say(party, party.player, 400, text="meet me at dawn", privacy="blind")
    assert (refused["field"], refused["value"]) == ("privacy", "blind")
    rolled = _say(party, party.player, text="/r 1d20", privacy="blind")
    assert rolled["summary"] == "Pia rolled blind; only the game master sees it"
    inline = _say(party, party.player, text="a blind guess [[1d6]]", privacy="blind")
    assert inline["hidden"] is True


def test_an_emote_is_an_action_line(party: Party) -> None:
    said = _say(party, party.player, text="/me ducks behind the crate")
    assert (said["kind"], said["summary"], said["record"]) == (
        "talk",
        "Pia ducks behind the crate",
        {"emote": True},
    )
    rolled = _say(party, party.player, text="/me swings at the guard [[1d20+3]]")
    assert rolled["kind"] == "free-roll"
    assert rolled["summary"].startswith("Pia swings at the guard [1d20+3 = ")
    page = party.client.get(f"/t/{party.table_id}", headers=party.gm).text
    assert '<p class="summary emote">Pia ducks behind the crate</p>' in page


def test_a_talk_to_the_game_master_is_theirs(party: Party) -> None:
    said = _say(party, party.player, text="I pocket the ring", privacy="gm")
    assert (said["privacy"], said["to_id"]) == ("gm", None)
    other = party.client.get(party.url(f"/entries/{said['id']}"), headers=party.other)
    assert other.status_code == 404
    gm = party.client.get(party.url(f"/entries/{said['id']}"), headers=party.gm)
    assert gm.json()["summary"] == "Pia: I pocket the ring"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"to": "player"}, "to"),  # the sender
        ({"to": 10**6}, "to"),  # nobody seated here
        ({"privacy": "whisper"}, "to"),  # to whom?
        ({"privacy": "gm", "to": "other"}, "privacy"),
    ],
)
def test_a_whisper_names_another_member_of_the_table(
    party: Party, body: dict[str, Any], field: str
) -> None:
    to = body.get("to")
    sent = body | ({"to": party.ids[to]} if isinstance(to, str) else {})
    refused = _say(party, party.player, 400, text="psst", **sent)
    assert refused["field"] == field
    log = party.client.get(party.url("/log"), headers=party.gm).json()["entries"]
    assert not any(e["kind"] == "talk" for e in log)


def test_a_roll_is_never_a_whisper(party: Party) -> None:
    cid = party.character(party.player)
    body = {"form": {"skill": "Force"}, "privacy": "whisper"}
    api = party.client.post(party.url(f"/characters/{cid}/roll"), json=body, headers=party.player)
    assert api.status_code == 422
    form = {"skill": "Force", "privacy": "whisper"}
    page = party.client.post(
        f"/t/{party.table_id}/c/{cid}/roll", data=form, headers=party.player, follow_redirects=False
    )
    assert page.status_code == 400
    assert "a whisper is table talk" in page.text


def test_the_talk_form_whispers_to_the_member_it_names(party: Party) -> None:
    oz = party.ids["other"]
    page = party.client.get(f"/t/{party.table_id}", headers=party.player).text
    assert f'<option value="whisper:{oz}">Oz</option>' in page
    assert f'value="whisper:{party.ids["player"]}"' not in page  # never to oneself
    posted = party.client.post(
        f"/t/{party.table_id}/talk",
        data={"text": "meet me at the well", "privacy": f"whisper:{oz}"},
        headers=party.player,
        follow_redirects=False,
    )
    assert posted.status_code == 303, posted.text
    log = party.client.get(party.url("/log"), headers=party.other).json()["entries"]
    assert (log[0]["summary"], log[0]["privacy"]) == ("Pia: meet me at the well", "whisper")
    observer = party.client.get(party.url("/log"), headers=party.observer).json()["entries"]
    assert not any("well" in e["summary"] for e in observer)
