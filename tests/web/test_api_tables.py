from __future__ import annotations

import pytest

from rulebound.web.routes import api

from ..client import AppClient
from .conftest import Party


def test_rulesets_list_their_variants(client: AppClient) -> None:
    found = {r["key"]: r for r in client.get("/api/rulesets").json()}
    assert "empty-reach" in found
    variants = {v["key"]: v for v in found["empty-reach"]["variants"]}
    assert variants["gear_banes"]["default"] in variants["gear_banes"]["choices"]


def test_creating_a_table_seats_its_game_master(client: AppClient) -> None:
    body = {
        "name": "  Night   run ",
        "ruleset": "empty-reach",
        "gm_name": "Gina",
        "variants": {"gear_banes": "gear-dice"},
        "observers": False,
    }
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201
    table = made.json()["table"]
    assert (table["name"], table["you"]["role"]) == ("Night run", "gm")
    assert table["variants"]["gear_banes"] == "gear-dice"
    assert set(table["variants"]) >= {"gear_banes", "tie_break"}
    assert table["invites"]["observer"] is None
    assert table["invites"]["player"].startswith("http://testserver/join/")


def test_bad_table_requests_name_the_field(client: AppClient) -> None:
    base = {"name": "T", "ruleset": "empty-reach", "gm_name": "G"}
    unknown = client.post("/api/tables", json=base | {"ruleset": "chess"})
    assert unknown.status_code == 400
    assert (unknown.json()["field"], unknown.json()["value"]) == ("ruleset", "chess")
    variant = client.post("/api/tables", json=base | {"variants": {"gear_banes": "never"}})
    assert variant.status_code == 400
    assert variant.json()["field"] == "variants.gear_banes"
    assert client.post("/api/tables", json={"name": "T"}).status_code == 422


def test_joining_needs_a_live_invite(party: Party) -> None:
    client = party.client
    assert client.post("/api/join/nonsense", json={"name": "X"}).status_code == 404
    seen = client.get(party.url(), headers=party.player).json()
    assert seen["invites"] is None
    assert [m["role"] for m in seen["members"]] == ["gm", "player", "player", "observer"]
    assert seen["you"]["name"] == "Pia"


def test_without_a_session_nothing_is_shown(party: Party) -> None:
    client = party.client
    for path in ("", "/characters", "/log", "/log/export"):
        assert client.get(party.url(path)).status_code == 403
    wrong = {"Authorization": "Bearer not-a-session"}
    assert client.get(party.url(), headers=wrong).status_code == 403
    assert client.get("/api/tables/9999", headers=party.gm).status_code == 404


def test_only_the_gm_replaces_invite_links(party: Party) -> None:
    client = party.client
    old = party.invites["player"].rsplit("/", 1)[1]
    path = party.url("/invites/player/rotate")
    assert client.post(path, json={}, headers=party.player).status_code == 403
    rotated = client.post(path, json={}, headers=party.gm)
    assert rotated.status_code == 200
    assert client.post(f"/api/join/{old}", json={"name": "Late"}).status_code == 404
    off = client.post(
        party.url("/invites/observer/rotate"), json={"disable": True}, headers=party.gm
    )
    assert off.json()["invites"]["observer"] is None
    refused = client.post(party.url("/invites/gm/rotate"), json={"disable": True}, headers=party.gm)
    assert refused.status_code == 409


def test_a_revoked_member_loses_the_table(party: Party) -> None:
    client = party.client
    path = party.url(f"/members/{party.ids['other']}")
    assert client.patch(path, json={"revoked": True}, headers=party.player).status_code == 403
    done = client.patch(path, json={"revoked": True}, headers=party.gm)
    assert done.status_code == 200
    assert done.json()["revoked"]
    assert client.get(party.url(), headers=party.other).status_code == 403
    self_revoke = client.patch(
        party.url(f"/members/{party.ids['gm']}"), json={"revoked": True}, headers=party.gm
    )
    assert self_revoke.status_code == 409


@pytest.mark.parametrize("who", ["other", "observer"])
def test_a_revoked_member_is_seated_again_by_none_of_the_links_they_held(
    party: Party, who: str
) -> None:
    """Revoking a seat replaces the link of its role and of every role below it: a revoked
    player does not come back through the observer link either."""
    client = party.client
    done = client.patch(
        party.url(f"/members/{party.ids[who]}"), json={"revoked": True}, headers=party.gm
    )
    assert done.status_code == 200
    roles = ("player", "observer") if who == "other" else ("observer",)
    for role in roles:
        token = party.invites[role].rsplit("/", 1)[1]
        assert client.post(f"/api/join/{token}", json={"name": "Back"}).status_code == 404, role
    fresh = client.get(party.url(), headers=party.gm).json()["invites"]
    for role in roles:
        token = fresh[role].rsplit("/", 1)[1]
        assert client.post(f"/api/join/{token}", json={"name": "New"}).status_code == 201


def test_a_grant_lets_a_player_play_any_character(party: Party) -> None:
    client = party.client
    mine = party.character(party.player)
    edit = {"form": {"damage": 1}}
    assert (
        client.patch(party.url(f"/characters/{mine}"), json=edit, headers=party.other).status_code
        == 403
    )
    client.patch(
        party.url(f"/members/{party.ids['other']}"), json={"grant_all": True}, headers=party.gm
    )
    assert (
        client.patch(party.url(f"/characters/{mine}"), json=edit, headers=party.other).status_code
        == 200
    )


def test_the_gm_hands_a_character_to_a_player(party: Party) -> None:
    client = party.client
    npc = party.character(party.gm, "Guard")
    path = party.url(f"/characters/{npc}/owner")
    assert (
        client.put(path, json={"owner_id": party.ids["player"]}, headers=party.player).status_code
        == 403
    )
    moved = client.put(path, json={"owner_id": party.ids["player"]}, headers=party.gm)
    assert moved.json()["owner_id"] == party.ids["player"]
    assert client.put(path, json={"owner_id": 999}, headers=party.gm).status_code == 400


def test_no_character_goes_to_a_seat_that_cannot_play_it(party: Party) -> None:
    """An observer watches: a grant to play any character, or a character of its own, would
    change nothing they can do, so the game master is told so; nor does a character go to a
    revoked seat, where nobody but the game master could play it."""
    client = party.client
    npc = party.character(party.gm, "Guard")
    observer = party.ids["observer"]
    granted = client.patch(
        party.url(f"/members/{observer}"), json={"grant_all": True}, headers=party.gm
    )
    assert granted.status_code == 400, granted.text
    assert (granted.json()["field"], granted.json()["value"]) == ("grant_all", True)
    path = party.url(f"/characters/{npc}/owner")
    given = client.put(path, json={"owner_id": observer}, headers=party.gm)
    assert (given.status_code, given.json()["field"]) == (400, "owner_id")
    client.patch(
        party.url(f"/members/{party.ids['other']}"), json={"revoked": True}, headers=party.gm
    )
    gone = client.put(path, json={"owner_id": party.ids["other"]}, headers=party.gm)
    assert (gone.status_code, gone.json()["field"]) == (400, "owner_id")
    back = client.put(path, json={"owner_id": party.ids["gm"]}, headers=party.gm)
    assert back.json()["owner_id"] == party.ids["gm"]


def test_the_table_lists_its_first_members_and_pages_the_rest(
    party: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seating 1,000 observers must not answer each join with every member (issue 13): the
    table shows the first page, its size and where the rest begin."""
    monkeypatch.setattr(api, "MEMBER_PAGE", 3)
    token = party.invites["observer"].rsplit("/", 1)[1]
    for name in ("O2", "O3", "O4"):
        joined = party.client.post(f"/api/join/{token}", json={"name": name})
        assert joined.status_code == 201
        assert len(joined.json()["table"]["members"]) == 3
    seen = party.client.get(party.url(), headers=party.player).json()
    assert [m["name"] for m in seen["members"]] == ["Gina", "Pia", "Oz"]
    assert seen["member_count"] == 7
    assert seen["members_after"] == seen["members"][-1]["id"]
    names, after = [], seen["members_after"]
    while after is not None:
        page = party.client.get(party.url(f"/members?after={after}&limit=2"), headers=party.player)
        assert page.status_code == 200
        names += [m["name"] for m in page.json()["members"]]
        after = page.json()["next_after"]
    assert names == ["Obi", "O2", "O3", "O4"]
    every = party.client.get(party.url("/members"), headers=party.observer).json()
    assert [m["name"] for m in every["members"]] == ["Gina", "Pia", "Oz", "Obi", "O2", "O3", "O4"]
    assert every["next_after"] is None
    assert party.client.get(party.url("/members")).status_code == 403
    assert party.client.get(party.url("/members?limit=0"), headers=party.gm).status_code == 422


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            {"name": "   ", "ruleset": "empty-reach", "gm_name": "Gina"},
            "name: it takes one line with at least one visible character and no direction"
            " override.",
        ),
        (
            {"name": "Night run", "ruleset": "empty-reach", "gm_name": "Gi\u202ena"},
            "gm_name: it takes one line with at least one visible character and no direction"
            " override.",
        ),
        ({"name": "Night run", "ruleset": "empty-reach"}, "gm_name: Field required."),
    ],
)
def test_a_malformed_request_says_what_is_wrong_in_words(
    client: AppClient, body: dict[str, str], said: str
) -> None:
    """A 422 keeps the framework's list of problems, and says them in a sentence a person
    reads, without the schema's regular expressions."""
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"][0] == "body"
    assert answer.json()["message"] == said
    not_json = client.post(
        "/api/tables", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert not_json.status_code == 422
    assert not_json.json()["message"].startswith("The body is not valid JSON")
