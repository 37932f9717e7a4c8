"""Issue 8, security: every unsafe request comes from our own origin, and cookie sessions
also echo their synchronizer token. Bearer clients need no token, but a browser's
cross-origin headers refuse them too. Every unsafe route of the app is checked."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from httpx2 import Response

from ..web.conftest import Party, seat_party
from .support import SEATLESS, Route, Scene, set_scene, unsafe_routes

PAGE = Route("POST", "/t/{table_id}/characters")
API = Route("POST", "/api/tables/{table_id}/characters")

REFUSED_ORIGINS = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},  # a page on another port of this host
    {"Sec-Fetch-Site": "none"},
    {"Origin": "http://testserver:8001"},
    {"Origin": "https://testserver"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://testserver.evil.example"},
]
ACCEPTED_ORIGINS = [
    {"Sec-Fetch-Site": "same-origin"},
    {"Origin": "http://testserver"},
    {},  # no browser headers: not a browser (cookie sessions still need the token)
]


def _refused(answer: Response, why: str) -> None:
    status, text = answer.status_code, answer.text
    assert status == 403, (status, text[:300])
    assert why in text, text[:300]


@pytest.mark.parametrize("route", [PAGE, API], ids=["page", "api"])
@pytest.mark.parametrize("headers", REFUSED_ORIGINS, ids=str)
def test_cookie_writes_from_another_origin_are_refused(
    party: Party, route: Route, headers: dict[str, str]
) -> None:
    scene = set_scene(party)
    sent = scene.send(route, "player", as_cookie=True, headers=headers)
    _refused(sent, "cross-site request refused")


@pytest.mark.parametrize("route", [PAGE, API], ids=["page", "api"])
@pytest.mark.parametrize("headers", ACCEPTED_ORIGINS, ids=str)
def test_cookie_writes_from_this_origin_with_the_token_pass(
    party: Party, route: Route, headers: dict[str, str]
) -> None:
    scene = set_scene(party)
    sent = scene.send(route, "player", as_cookie=True, headers=headers)
    assert sent.status_code in (201, 303), sent.text[:300]


@pytest.mark.parametrize("route", [PAGE, API], ids=["page", "api"])
def test_cookie_writes_need_this_sessions_token(party: Party, route: Route) -> None:
    scene = set_scene(party)
    elsewhere = seat_party(party.client)
    foreign = set_scene(elsewhere).csrf("player")
    _refused(_without_token(scene, route), "CSRF token")
    for wrong in ("forged", scene.csrf("other"), scene.csrf("gm"), foreign):
        _refused(scene.send(route, "player", as_cookie=True, csrf=wrong), "CSRF token")
    right = scene.send(route, "player", as_cookie=True)
    assert right.status_code in (201, 303)


def _without_token(scene: Scene, route: Route) -> Response:
    url = route.url(scene.values(route.path))
    headers = scene.cookie_headers("player")
    if route.api:
        return scene.client.post(url, json={"name": "Bo"}, headers=headers)
    return scene.client.post(url, data={"name": "Bo"}, headers=headers, follow_redirects=False)


def test_bearer_clients_need_no_token_but_not_another_origin(party: Party) -> None:
    scene = set_scene(party)
    assert scene.send(API, "player").status_code == 201
    for headers in REFUSED_ORIGINS:
        _refused(scene.send(API, "player", headers=headers), "cross-site request refused")


def test_every_unsafe_route_refuses_another_origin(app: FastAPI, party: Party) -> None:
    scene = set_scene(party)
    for route in unsafe_routes(app):
        for who in (None, "gm"):
            sent = scene.send(route, who, headers={"Sec-Fetch-Site": "same-site"})
            assert sent.status_code == 403, f"{route} as {who}: {sent.status_code}"
            assert "cross-site request refused" in sent.text, route


def test_every_seated_route_needs_the_token_with_a_cookie(app: FastAPI, party: Party) -> None:
    scene = set_scene(party)
    for route in unsafe_routes(app):
        if route.path in SEATLESS:
            continue
        sent = scene.send(route, "gm", as_cookie=True, csrf="not-the-token")
        _refused(sent, "CSRF token")


def test_the_game_master_writes_by_cookie_with_the_token(app: FastAPI, party: Party) -> None:
    scene = set_scene(party)
    for route in unsafe_routes(app):
        if route.path not in SEATLESS and route.api:
            sent = scene.send(route, "gm", as_cookie=True)
            assert sent.status_code != 403, f"{route}: {sent.text[:300]}"
