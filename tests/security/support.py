"""Helpers for the security tests: every unsafe route of the app, filled in; cookie seats."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute

from ..client import AppClient
from ..web.conftest import Party

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_META = re.compile(r'name="csrf-token" content="([^"]+)"')
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}


@dataclass(frozen=True)
class Route:
    method: str
    path: str

    @property
    def api(self) -> bool:
        return self.path.startswith("/api/")

    def url(self, values: dict[str, Any]) -> str:
        def fill(match: re.Match[str]) -> str:
            name = match.group(1)
            assert name in values, f"{self}: no test value for path parameter {name!r}"
            return str(values[name])

        return re.sub(r"\{(\w+)\}", fill, self.path)

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def unsafe_routes(app: FastAPI) -> list[Route]:
    """Every (method, path) of the app that is not GET/HEAD, read from its routes."""
    found = {
        Route(method, route.path)
        for route in app.routes
        if isinstance(route, APIRoute)
        for method in route.methods or ()
        if method in UNSAFE
    }
    return sorted(found, key=str)


# What an unsafe route is, by path: how a role check applies to it.
SEATLESS = {"/api/tables", "/api/join/{token}", "/tables", "/join/{token}"}
"""Open to anyone holding the link (they create a seat); limited per client address."""
READ_ONLY = {
    "/api/tables/{table_id}/characters/{character_id}/chances",
    "/t/{table_id}/c/{character_id}/chances",
}
"""Unsafe by method only: they compute and write nothing, so any seat may ask."""
ANY_PLAYER = {
    "/api/tables/{table_id}/characters",
    "/api/tables/{table_id}/creation",
    "/api/tables/{table_id}/talk",
    "/t/{table_id}/characters",
    "/t/{table_id}/characters/import",
    "/t/{table_id}/characters/starter",
    "/t/{table_id}/create",
    "/t/{table_id}/talk",
}
"""Writes any player may make (new characters of their own, table talk); observers may not."""

SHEET = {
    "name": "Imported",
    "attributes": {"Strength": "D6", "Agility": "D8", "Wits": "D8", "Empathy": "D8"},
    "base_health": 4,
    "base_resolve": 4,
}

API_BODIES: dict[str, dict[str, Any]] = {
    "/api/tables": {"name": "T", "ruleset": "empty-reach", "gm_name": "G"},
    "/api/join/{token}": {"name": "Joe"},
    "/api/tables/{table_id}/invites/{role}/rotate": {},
    "/api/tables/{table_id}/members/{member_id}": {"grant_all": False},
    "/api/tables/{table_id}/characters": {"name": "Bo"},
    "/api/tables/{table_id}/characters/{character_id}": {"form": {}},
    "/api/tables/{table_id}/characters/{character_id}/sheet": {"sheet": SHEET},
    "/api/tables/{table_id}/characters/{character_id}/owner": {"owner_id": None},
    "/api/tables/{table_id}/characters/{character_id}/chances": {"form": {"skill": "Force"}},
    "/api/tables/{table_id}/characters/{character_id}/roll": {"form": {"skill": "Force"}},
    "/api/tables/{table_id}/characters/{character_id}/actions/{action}": {},
    "/api/tables/{table_id}/entries/{entry_id}/actions/{action}": {},
    "/api/tables/{table_id}/entries/{entry_id}/keep": {},
    "/api/tables/{table_id}/entries/{entry_id}/reveal": {},
    "/api/tables/{table_id}/entries/{entry_id}/void": {},
    "/api/tables/{table_id}/scene/close": {},
    "/api/tables/{table_id}/actions/{action}": {},
    "/api/tables/{table_id}/creation": {},
    "/api/tables/{table_id}/dice/reveal": {},
    "/api/tables/{table_id}/talk": {"text": "/r 2d6+3"},
    "/api/tables/{table_id}/turns/{action}": {},
}
"""A well-formed body for each API route, so a refusal is not a 422 for its shape."""

PAGE_FORMS: dict[str, dict[str, str]] = {
    "/tables": {"name": "T", "ruleset": "empty-reach", "gm_name": "G"},
    "/join/{token}": {"name": "Joe"},
    "/t/{table_id}/invites/{role}": {},
    "/t/{table_id}/members/{member_id}": {"grant_all": "off"},
    "/t/{table_id}/act/{action}": {},
    "/t/{table_id}/e/{entry_id}/act/{action}": {},
    "/t/{table_id}/e/{entry_id}/keep": {},
    "/t/{table_id}/e/{entry_id}/reveal": {},
    "/t/{table_id}/e/{entry_id}/void": {},
    "/t/{table_id}/talk": {"text": "/r 2d6+3"},
    "/t/{table_id}/scene/close": {},
    "/t/{table_id}/characters": {"name": "Bo"},
    "/t/{table_id}/characters/import": {"sheet": '{"name": "Imp"}'},
    "/t/{table_id}/characters/starter": {"name": "Bo"},
    "/t/{table_id}/c/{character_id}/sheet": {"version": "1"},
    "/t/{table_id}/c/{character_id}/import": {"sheet": '{"name": "Imp"}'},
    "/t/{table_id}/c/{character_id}/chances": {"skill": "Force"},
    "/t/{table_id}/c/{character_id}/roll": {"skill": "Force"},
    "/t/{table_id}/c/{character_id}/act/{action}": {},
    "/t/{table_id}/create": {},
    "/t/{table_id}/dice/reveal": {},
    "/t/{table_id}/turns/{action}": {},
}
"""Form fields for each page route (the CSRF token is added per session)."""

ACTIONS = {
    "/api/tables/{table_id}/turns/{action}": "round",
    "/t/{table_id}/turns/{action}": "round",
}
"""The ``{action}`` of a route whose actions are not a game's follow-ups (default "push")."""


def body_for(route: Route) -> dict[str, Any]:
    table = API_BODIES if route.api else PAGE_FORMS
    assert route.path in table, (
        f"{route} is a new unsafe route: give it a body in tests/security/support.py "
        "and say who may call it (SEATLESS, READ_ONLY, ANY_PLAYER or GM and owners only)"
    )
    return table[route.path]


@dataclass
class Scene:
    """A seated party with a character of the player's and one public roll of it."""

    party: Party
    character_id: int
    entry_id: int
    token: str

    @property
    def client(self) -> AppClient:
        return self.party.client

    def values(self, path: str = "") -> dict[str, Any]:
        """Real values for a route's path parameters (``path``: the route, for its action)."""
        return {
            "table_id": self.party.table_id,
            "character_id": self.character_id,
            "entry_id": self.entry_id,
            "member_id": self.party.ids["other"],
            "role": "player",
            "action": ACTIONS.get(path, "push"),
            "token": self.token,
        }

    def session(self, who: str) -> str:
        return str(getattr(self.party, who)["Authorization"].removeprefix("Bearer "))

    def cookie_headers(self, who: str) -> dict[str, str]:
        return {"Cookie": f"rb_table_{self.party.table_id}={self.session(who)}"}

    def csrf(self, who: str) -> str:
        page = self.client.get(f"/t/{self.party.table_id}", headers=self.cookie_headers(who))
        assert page.status_code == 200, page.text
        match = CSRF_META.search(page.text)
        assert match
        return match.group(1)

    def send(self, route: Route, who: str | None, *, as_cookie: bool = False, **kw: Any) -> Any:
        """The route, as ``who`` (None: nobody) with a well-formed body; from our own origin
        unless ``headers`` say where the request comes from."""
        given = kw.pop("headers", None)
        headers = dict(SAME_ORIGIN if given is None else given)
        body = dict(body_for(route))
        if who is not None and (as_cookie or not route.api):
            headers |= self.cookie_headers(who)
            token = kw.pop("csrf", None) or self.csrf(who)
            if route.api:
                headers["X-CSRF-Token"] = token
            else:
                body["csrf"] = token
        elif who is not None:
            headers |= getattr(self.party, who)
        url = route.url(self.values(route.path))
        if route.api:
            return self.client.request(
                route.method, url, json=body, headers=headers, follow_redirects=False
            )
        return self.client.request(
            route.method, url, data=body, headers=headers, follow_redirects=False
        )


def set_scene(party: Party) -> Scene:
    cid = party.character(party.player, "Ana")
    force = {"form": {"skills.Force": "D6"}}
    edited = party.client.patch(party.url(f"/characters/{cid}"), json=force, headers=party.player)
    assert edited.status_code == 200, edited.text
    roll = {"form": {"skill": "Force"}, "privacy": "public"}
    rolled = party.client.post(
        party.url(f"/characters/{cid}/roll"), json=roll, headers=party.player
    )
    assert rolled.status_code == 201, rolled.text
    token = str(party.invites["player"]).rsplit("/", 1)[1]
    return Scene(party, cid, int(rolled.json()["id"]), token)
