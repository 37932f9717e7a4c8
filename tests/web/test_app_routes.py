"""Every app serves the same route objects (``web.app.ROUTES``, built once at import), so
nothing of a request may stay in them: two apps on two databases, side by side, each
answer from their own store. Another origin's writes are refused before any route
(``security.OriginGuard``), and the Discord endpoint, added to one app only, is that
app's alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.routing import APIRoute

from rulebound.discord.interactions import PATH, mount
from rulebound.store.testing import copied_sqlite
from rulebound.web.app import ROUTES, create_app
from rulebound.web.settings import Settings

from ..client import AppClient
from .conftest import Dice, games_for_tests, seat_party

PUBLIC_KEY = "0" * 64


def _app_on(folder: Path, template: Path) -> AppClient:
    folder.mkdir()
    url = copied_sqlite(template, folder)
    return AppClient(
        create_app(Settings(database_url=url, source=Dice().source, games=games_for_tests))
    )


@pytest.fixture
def apps(tmp_path: Path, sqlite_template: Path) -> Iterator[tuple[AppClient, AppClient]]:
    """Two apps in this process, side by side, each on a SQLite file of its own."""
    with (
        _app_on(tmp_path / "one", sqlite_template) as one,
        _app_on(tmp_path / "two", sqlite_template) as two,
    ):
        yield one, two


def test_two_apps_share_the_routes_and_each_answers_from_its_own_store(
    apps: tuple[AppClient, AppClient],
) -> None:
    one, two = apps
    assert [r for r in one.app.routes if r in ROUTES] == ROUTES
    assert [r for r in two.app.routes if r in ROUTES] == ROUTES
    first = seat_party(one)
    seat_party(two, "rainwall")  # table 1 of `two`
    second = seat_party(two, "ghostburn")
    assert (first.table_id, second.table_id) == (1, 2)
    mine = one.get(first.url(), headers=first.gm).json()
    assert (mine["name"], mine["ruleset"]) == ("Night run", "empty-reach")
    theirs = two.get(f"/api/tables/{first.table_id}", headers=second.gm)
    assert theirs.status_code == 403  # table 1 of `two` is rainwall's, not this seat's
    ruleset = two.get(second.url(), headers=second.gm).json()["ruleset"]
    assert ruleset == "ghostburn"
    assert one.get(second.url(), headers=second.gm).status_code == 404


def test_another_origins_writes_are_refused_before_any_route(
    apps: tuple[AppClient, AppClient],
) -> None:
    """The guard stands before the router: a route added to the app later, the static files
    and a path no route serves refuse a cross-site write alike, as the app's handlers answer
    an error (JSON under /api, the error page elsewhere), with the security headers."""
    one, _ = apps

    @one.app.post("/later")
    def later() -> dict[str, str]:
        return {"ok": "yes"}

    assert one.post("/later").json() == {"ok": "yes"}  # no browser headers: not a browser
    cross_site = {"Sec-Fetch-Site": "cross-site"}
    for path in ("/later", "/static/app.js", "/api/nowhere", "/nowhere"):
        answer = one.post(path, headers=cross_site)
        assert answer.status_code == 403, (path, answer.status_code)
        assert "cross-site request refused" in answer.text, path
        assert answer.headers["x-frame-options"] == "DENY", path
    assert one.post("/api/nowhere", headers=cross_site).json()["error"] == "forbidden"
    page = one.post("/nowhere", headers=cross_site)
    assert page.headers["content-type"].startswith("text/html")
    assert one.get("/static/app.js", headers=cross_site).status_code == 200  # reads pass


def test_the_discord_endpoint_is_added_to_its_app_alone(
    apps: tuple[AppClient, AppClient],
) -> None:
    one, two = apps
    mount(one.app, PUBLIC_KEY)
    assert one.post(PATH, content=b"{}").status_code == 401  # no signature
    assert two.post(PATH, content=b"{}").status_code == 404
    assert PATH not in {getattr(route, "path", "") for route in ROUTES}
    cross_site = {"Sec-Fetch-Site": "cross-site"}
    assert one.post(PATH, content=b"{}", headers=cross_site).status_code == 403


DOCS = Path(__file__).parents[2] / "docs" / "web.md"
DOC_ROW = re.compile(r"^\| `(GET|POST|PUT|PATCH|DELETE)` \| `(/api/[^`]*)` \|", re.M)
SHORT = {
    "{table_id}": "{id}",
    "{character_id}": "{c}",
    "{entry_id}": "{e}",
    "{member_id}": "{member}",
}


def test_the_api_table_in_the_docs_lists_every_route_and_no_other() -> None:
    documented = set(DOC_ROW.findall(DOCS.read_text(encoding="utf-8")))
    served = set()
    for route in ROUTES:
        if isinstance(route, APIRoute) and route.path.startswith("/api/"):
            path = route.path
            for long, short in SHORT.items():
                path = path.replace(long, short)
            served |= {(method, path) for method in route.methods or ()}
    assert documented - served == set(), "documented, not served"
    assert served - documented == set(), "served, not documented"
