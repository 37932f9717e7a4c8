from __future__ import annotations

from rulebound.rulesets.empty_reach import load_character
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game

from .conftest import Party


def test_a_new_character_comes_with_its_forms(party: Party) -> None:
    made = party.client.post(party.url("/characters"), json={"name": "Ana"}, headers=party.player)
    assert made.status_code == 201
    body = made.json()
    assert (body["name"], body["version"], body["owner_id"]) == ("Ana", 1, party.ids["player"])
    assert body["may_edit"]
    assert {f["name"] for f in body["dialog"]} >= {"skill", "helpers"}
    assert ["Health", "4 / 4"] in body["tracks"]
    assert {a["key"] for a in body["actions"]} >= {"heal"}
    listed = party.client.get(party.url("/characters"), headers=party.observer).json()
    assert [(c["name"], c["may_edit"]) for c in listed] == [("Ana", False)]


def test_an_edit_error_names_the_field(party: Party) -> None:
    cid = party.character(party.player)
    path = party.url(f"/characters/{cid}")
    bad = party.client.patch(
        path, json={"form": {"attributes.Strength": "D7"}}, headers=party.player
    )
    assert bad.status_code == 400
    assert bad.json()["field"].startswith("attributes")
    assert bad.json()["value"] == "D7"
    good = party.client.patch(
        path, json={"form": {"damage": 2}, "version": 1}, headers=party.player
    )
    assert good.status_code == 200
    assert (good.json()["version"], good.json()["sheet"]["damage"]) == (2, 2)
    stale = party.client.patch(
        path, json={"form": {"damage": 3}, "version": 1}, headers=party.player
    )
    assert stale.status_code == 409
    assert party.client.get(path, headers=party.gm).json()["sheet"]["damage"] == 2


def test_export_is_a_cli_character_file_and_imports_back(party: Party) -> None:
    cid = party.character(party.player)
    client = party.client
    client.patch(
        party.url(f"/characters/{cid}"), json={"form": {"skills.Force": "D6"}}, headers=party.player
    )
    exported = client.get(party.url(f"/characters/{cid}/export"), headers=party.observer)
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    sheet = exported.json()
    assert load_character(sheet).skills["Force"].label == "D6"
    imported = client.post(
        party.url("/characters"), json={"sheet": sheet | {"name": "Copy"}}, headers=party.other
    )
    assert imported.status_code == 201
    assert imported.json()["sheet"]["skills"] == {"Force": "D6"}
    replaced = client.put(
        party.url(f"/characters/{cid}/sheet"),
        json={"sheet": sheet | {"damage": 1}},
        headers=party.player,
    )
    assert replaced.json()["sheet"]["damage"] == 1
    broken = client.put(
        party.url(f"/characters/{cid}/sheet"),
        json={"sheet": {"name": "X", "attributes": 3}},
        headers=party.player,
    )
    assert broken.status_code == 400
    assert broken.json()["field"].startswith("attributes")


def test_a_character_file_of_another_game_is_named_so(party: Party) -> None:
    """A Legacy file sent to an Empty Reach table fails on nearly every field: the API says
    once that it is another game's, creating or replacing alike, and the page import too."""
    legacy = TableRules(get_game("legacy")).new_sheet("Vex")
    cid = party.character(party.player)
    said = "This file is not a character of The Empty Reach (is it from another game?)"
    for method, path in (("post", "/characters"), ("put", f"/characters/{cid}/sheet")):
        answer = party.client.request(
            method.upper(), party.url(path), json={"sheet": legacy}, headers=party.player
        )
        assert answer.status_code == 400, answer.text
        assert answer.json()["message"].startswith(said), answer.json()
        assert len(answer.json()["message"]) < 300


def test_a_body_the_json_reader_refuses_is_told_in_words(party: Party) -> None:
    """A number past Python's 4,300 digits fails the framework's body parse: a 400 whose
    message says what to look at, as every refusal under /api has."""
    body = '{"name": ' + "9" * 5000 + "}"
    answer = party.client.post(
        party.url("/characters"),
        content=body,
        headers={**party.player, "content-type": "application/json"},
    )
    assert answer.status_code == 400, answer.text
    assert "4,300 digits" in answer.json()["message"]


def test_observers_and_strangers_cannot_write(party: Party) -> None:
    cid = party.character(party.player)
    client = party.client
    writes = [
        ("post", party.url("/characters"), {"name": "Sneak"}),
        ("patch", party.url(f"/characters/{cid}"), {"form": {"damage": 1}}),
        ("put", party.url(f"/characters/{cid}/sheet"), {"sheet": {"name": "X"}}),
        ("post", party.url(f"/characters/{cid}/roll"), {"form": {"skill": "Force"}}),
        ("post", party.url(f"/characters/{cid}/actions/heal"), {"params": {}}),
        ("post", party.url("/actions/anything"), {"params": {}}),
        ("post", party.url("/creation"), {"form": {}}),
        ("post", party.url("/invites/player/rotate"), {}),
    ]
    for method, path, body in writes:
        answer = client.request(method, path, json=body, headers=party.observer)
        assert answer.status_code == 403, (method, path, answer.text)
    assert (
        client.post(
            party.url(f"/characters/{cid}/roll"),
            json={"form": {"skill": "Force"}},
            headers=party.other,
        ).status_code
        == 403
    )


def test_chances_are_exact_fractions(party: Party) -> None:
    cid = party.character(party.player)
    path = party.url(f"/characters/{cid}/chances")
    one = party.client.post(path, json={"form": {"skill": "Force"}}, headers=party.player).json()
    success = next(c for c in one["chances"] if c["label"] == "success")
    assert (success["p"], success["percent"]) == ("3/8", "37.5%")
    helped = party.client.post(
        path, json={"form": {"skill": "Force", "helpers": 1}}, headers=party.observer
    ).json()
    assert next(c for c in helped["chances"] if c["label"] == "success")["float"] > success["float"]
    bad = party.client.post(path, json={"form": {"skill": ""}}, headers=party.player)
    assert bad.status_code == 400
    assert bad.json()["field"] == "skill"
