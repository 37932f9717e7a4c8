"""Issue 14, items 7 and 10: hidden entries do not betray that they exist; revoked seats stay
revoked; the creator's seat is protected.

Pass criteria: following up an entry one may not know of answers exactly what following
up a missing one answers (404, the same body), by the API and by the page; a revoked
member cannot take a seat again with the invite link they had (the revoke replaced it;
the new link works for others); a second game master cannot revoke the table's creator.
"""

from __future__ import annotations

from ..web.conftest import Party

SAME = {"Sec-Fetch-Site": "same-origin"}


def _roll(party: Party, cid: int, privacy: str) -> int:
    body = {"form": {"skill": "Force"}, "privacy": privacy}
    rolled = party.client.post(party.url(f"/characters/{cid}/roll"), json=body, headers=party.gm)
    assert rolled.status_code == 201, rolled.text
    return int(rolled.json()["id"])


def test_a_hidden_entry_answers_a_follow_up_as_a_missing_one_does(party: Party) -> None:
    cid = party.character(party.gm, "Ana")
    hidden = _roll(party, cid, "self")
    missing = hidden + 1000

    def follow(entry_id: int) -> tuple[int, str]:
        answer = party.client.post(
            party.url(f"/entries/{entry_id}/actions/push"),
            json={"params": {}},
            headers=party.player,
        )
        detail = answer.json()["detail"].replace(str(entry_id), "N")
        return answer.status_code, detail

    assert follow(hidden) == follow(missing)
    assert follow(hidden)[0] == 404
    page = [
        party.client.post(
            f"/t/{party.table_id}/e/{entry_id}/act/push", data={}, headers=party.player | SAME
        ).status_code
        for entry_id in (hidden, missing)
    ]
    assert page == [404, 404]
    assert (
        party.client.get(party.url(f"/entries/{hidden}"), headers=party.player).status_code == 404
    )


def test_the_gm_tools_answer_a_players_own_roll_as_a_missing_one(party: Party) -> None:
    """A roll a player made for themselves alone is not the game master's to know of:
    reveal, void and keep answer it exactly as they answer an entry that is not there."""
    cid = party.character(party.player, "Pia's")
    body = {"form": {"skill": "Force"}, "privacy": "self"}
    rolled = party.client.post(
        party.url(f"/characters/{cid}/roll"), json=body, headers=party.player
    )
    assert rolled.status_code == 201, rolled.text
    hidden = int(rolled.json()["id"])
    missing = hidden + 1000

    def tool(name: str, entry_id: int) -> tuple[int, str]:
        answer = party.client.post(party.url(f"/entries/{entry_id}/{name}"), headers=party.gm)
        return answer.status_code, answer.json()["detail"].replace(str(entry_id), "N")

    for name in ("reveal", "void", "keep"):
        assert tool(name, hidden) == tool(name, missing) == (404, "log entry N not found"), name
    for name in ("reveal", "void"):
        page = [
            party.client.post(
                f"/t/{party.table_id}/e/{entry_id}/{name}", data={}, headers=party.gm | SAME
            ).status_code
            for entry_id in (hidden, missing)
        ]
        assert page == [404, 404], name


def test_a_revoked_member_cannot_take_a_seat_again_with_their_link(party: Party) -> None:
    old = str(party.invites["player"]).rsplit("/", 1)[1]
    revoke = party.client.patch(
        party.url(f"/members/{party.ids['player']}"), json={"revoked": True}, headers=party.gm
    )
    assert revoke.status_code == 200, revoke.text
    again = party.client.post(f"/api/join/{old}", json={"name": "Pia again"})
    assert again.status_code == 404
    table = party.client.get(party.url(), headers=party.gm).json()
    new = table["invites"]["player"].rsplit("/", 1)[1]
    assert new != old
    assert party.client.post(f"/api/join/{new}", json={"name": "Newcomer"}).status_code == 201
    assert table["invites"]["gm"] == party.invites["gm"]


def test_the_creators_seat_cannot_be_revoked(party: Party) -> None:
    token = str(party.invites["gm"]).rsplit("/", 1)[1]
    second = party.client.post(f"/api/join/{token}", json={"name": "Second GM"})
    assert second.status_code == 201
    headers = {"Authorization": "Bearer " + second.json()["session_token"]}
    creator = party.ids["gm"]
    refused = party.client.patch(
        party.url(f"/members/{creator}"), json={"revoked": True}, headers=headers
    )
    assert refused.status_code == 409
    assert "creator" in refused.json()["detail"]
    assert party.client.get(party.url(), headers=party.gm).status_code == 200
    player = party.client.patch(
        party.url(f"/members/{party.ids['player']}"), json={"revoked": True}, headers=headers
    )
    assert player.status_code == 200
