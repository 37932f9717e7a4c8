"""Issue 8, security: observers and non-owners get 403 on every write.

The routes are read from the app itself, so a new unsafe route is tested (or the
test says how to classify it). Each refusal is checked to be about the role, not
a CSRF or origin refusal, and the game master's same request is not refused, so
the 403 is not an artefact of a wrong URL or body.
"""

from __future__ import annotations

from fastapi import FastAPI
from httpx2 import Response

from ..client import AppClient
from ..web.conftest import Party
from .support import ANY_PLAYER, READ_ONLY, SEATLESS, Route, Scene, set_scene, unsafe_routes

ROLE_WORDS = ("observers watch", "only the game master", "your own characters", "cannot see")


def _role_refusal(response: Response, route: Route, who: str) -> None:
    status, text = response.status_code, response.text
    assert status == 403, f"{who} was not refused {route}: {status} {text[:300]}"
    assert any(word in text for word in ROLE_WORDS), f"{route}: refused, but why? {text[:300]}"


def _writes(app: FastAPI) -> list[Route]:
    return [r for r in unsafe_routes(app) if r.path not in SEATLESS | READ_ONLY]


def test_the_app_has_the_unsafe_routes_we_classify(app: FastAPI, client: AppClient) -> None:
    """(``client`` runs the app's lifespan, which closes its store.)"""
    routes = unsafe_routes(app)
    assert len(routes) >= 28
    paths = {r.path for r in routes}
    assert paths >= SEATLESS | READ_ONLY | ANY_PLAYER


def test_observers_are_refused_every_write(app: FastAPI, party: Party) -> None:
    scene = set_scene(party)
    for route in _writes(app):
        _role_refusal(scene.send(route, "observer"), route, "observer")


def test_observers_are_refused_every_api_write_by_cookie_too(app: FastAPI, party: Party) -> None:
    scene = set_scene(party)
    for route in _writes(app):
        if route.api:
            _role_refusal(scene.send(route, "observer", as_cookie=True), route, "observer")


def test_non_owners_are_refused_every_write_but_their_own(app: FastAPI, party: Party) -> None:
    scene = set_scene(party)
    for route in _writes(app):
        if route.path not in ANY_PLAYER:
            _role_refusal(scene.send(route, "other"), route, "another player")


def test_the_game_master_is_not_refused_those_writes(app: FastAPI, party: Party) -> None:
    scene = set_scene(party)
    for route in _writes(app):
        answer = scene.send(route, "gm")
        assert answer.status_code != 403, f"GM refused {route}: {answer.text[:300]}"


def test_a_player_acts_for_their_own_character(party: Party) -> None:
    scene = set_scene(party)
    owner = _roll_as(scene, "player")
    assert owner == 201
    assert _roll_as(scene, "other") == 403
    granted = party.client.patch(
        party.url(f"/members/{party.ids['other']}"), json={"grant_all": True}, headers=party.gm
    )
    assert granted.status_code == 200
    assert _roll_as(scene, "other") == 201


def test_strangers_are_refused_every_seated_route(app: FastAPI, party: Party) -> None:
    scene: Scene = set_scene(party)
    for route in unsafe_routes(app):
        if route.path in SEATLESS:
            continue
        answer = scene.send(route, None)
        assert answer.status_code == 403, f"a stranger reached {route}: {answer.status_code}"
        assert "not seated" in answer.text


def _roll_as(scene: Scene, who: str) -> int:
    url = scene.party.url(f"/characters/{scene.character_id}/roll")
    body = {"form": {"skill": "Force"}}
    headers = getattr(scene.party, who)
    return int(scene.client.post(url, json=body, headers=headers).status_code)
