"""Issue 8, security: session and invite tokens are unguessable, revocable, stored hashed
and carried in HttpOnly, SameSite cookies (Secure over https)."""

from __future__ import annotations

import hashlib
import re

from fastapi import FastAPI
from sqlalchemy import MetaData, create_engine, select

from ..client import AppClient
from ..web.conftest import Party, bearer, seat_party

URLSAFE_192_BITS = re.compile(r"[A-Za-z0-9_-]{32,}")
FORM = {"name": "Night run", "gm_name": "Gina", "ruleset": "empty-reach", "observers": "on"}


def _tokens(party: Party) -> list[str]:
    sessions = [h["Authorization"].removeprefix("Bearer ") for h in _seats(party)]
    invites = [str(link).rsplit("/", 1)[1] for link in party.invites.values() if link]
    return sessions + invites


def _seats(party: Party) -> list[dict[str, str]]:
    return [party.gm, party.player, party.other, party.observer]


def test_tokens_are_long_random_and_unique(client: AppClient) -> None:
    seen: list[str] = []
    for _ in range(5):
        seen += _tokens(seat_party(client))
    assert len(seen) == 5 * 7
    assert len(set(seen)) == len(seen)
    for token in seen:
        assert URLSAFE_192_BITS.fullmatch(token), token


def test_session_tokens_are_stored_only_as_their_hash(party: Party, db_url: str) -> None:
    engine = create_engine(db_url.replace("postgresql://", "postgresql+psycopg://", 1))
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        dump = " ".join(
            repr(tuple(row)) for table in meta.sorted_tables for row in conn.execute(select(table))
        )
    engine.dispose()
    for seat in _seats(party):
        token = seat["Authorization"].removeprefix("Bearer ")
        assert token not in dump
        assert hashlib.sha256(token.encode()).hexdigest() in dump


def test_the_session_cookie_is_http_only_same_site_and_scoped(client: AppClient) -> None:
    made = client.post("/tables", data=FORM, follow_redirects=False)
    assert made.status_code == 303
    cookie = made.headers["set-cookie"].lower()
    assert cookie.startswith("rb_table_")
    for flag in ("httponly", "samesite=lax", "path=/", "max-age="):
        assert flag in cookie
    assert "secure" not in cookie  # plain http: a Secure cookie would never come back


def test_over_https_the_cookie_is_secure_too(app: FastAPI) -> None:
    with AppClient(app, base_url="https://testserver") as secure:
        made = secure.post("/tables", data=FORM, follow_redirects=False)
        assert made.status_code == 303
        assert "secure" in made.headers["set-cookie"].lower()
        assert "max-age=31536000" in made.headers["strict-transport-security"]


def test_a_revoked_seat_loses_every_surface(party: Party) -> None:
    client, player = party.client, party.player
    cookie = {"Cookie": f"rb_table_{party.table_id}={player['Authorization'][7:]}"}
    patch = party.url(f"/members/{party.ids['player']}")
    assert client.patch(patch, json={"revoked": True}, headers=party.gm).status_code == 200
    for url in ("", "/log", "/log/export?format=json", "/feed?follow=false", "/characters"):
        assert client.get(party.url(url), headers=player).status_code == 403, url
    assert client.get(f"/t/{party.table_id}", headers=cookie).status_code == 403
    made = client.post(party.url("/characters"), json={"name": "Bo"}, headers=player)
    assert made.status_code == 403
    assert client.patch(patch, json={"revoked": False}, headers=party.gm).status_code == 200
    assert client.get(party.url(""), headers=player).status_code == 200


def test_a_replaced_invite_link_stops_working(party: Party) -> None:
    client = party.client
    old = str(party.invites["player"]).rsplit("/", 1)[1]
    rotated = client.post(party.url("/invites/player/rotate"), json={}, headers=party.gm)
    assert rotated.status_code == 200
    new = rotated.json()["invites"]["player"].rsplit("/", 1)[1]
    assert new != old
    assert client.post(f"/api/join/{old}", json={"name": "Late"}).status_code == 404
    assert client.get(f"/join/{old}").status_code == 404
    assert client.post(f"/api/join/{new}", json={"name": "Late"}).status_code == 201
    assert client.get(party.url(""), headers=party.player).status_code == 200  # seats stay


def test_a_switched_off_observer_link_seats_nobody(party: Party) -> None:
    client = party.client
    old = str(party.invites["observer"]).rsplit("/", 1)[1]
    body = {"disable": True}
    off = client.post(party.url("/invites/observer/rotate"), json=body, headers=party.gm)
    assert off.json()["invites"]["observer"] is None
    assert client.post(f"/api/join/{old}", json={"name": "Late"}).status_code == 404


def test_a_session_opens_only_its_own_table(party: Party) -> None:
    elsewhere = seat_party(party.client)
    token = party.player["Authorization"].removeprefix("Bearer ")
    assert party.client.get(elsewhere.url(""), headers=bearer(token)).status_code == 403
    cookie = {"Cookie": f"rb_table_{elsewhere.table_id}={token}"}
    assert party.client.get(f"/t/{elsewhere.table_id}", headers=cookie).status_code == 403
