"""The OpenAPI schema is enough for a third-party generator: openapi-python-client makes a
client from ``/openapi.json``, and that client opens a table, seats a character and rolls.

The schema declares the bearer scheme and requires it on every operation of a table, and
only there; each of those operations does authenticate a seated member."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute

from rulebound.store.testing import sqlite_url
from rulebound.web.app import create_app
from rulebound.web.routes import api, fairness
from rulebound.web.routes.api import BEARER, SEATED
from rulebound.web.settings import Settings

from ..client import AppClient
from .conftest import LiveServer

PACKAGE = "rulebound_client"
CONFIG = (
    f"project_name_override: rulebound-client\npackage_name_override: {PACKAGE}\npost_hooks: []\n"
)
AUTHENTICATES = ("viewer_for", "writer_for", "guarded_for", "_played")
"""What a route calls to find a seated member (``web.deps``, ``api._played``)."""


def _schema_app(folder: Path) -> FastAPI:
    return create_app(Settings(database_url=sqlite_url(folder)))


def _operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            yield path, method, operation


def test_the_bearer_scheme_is_declared_and_required_under_a_table(tmp_path: Path) -> None:
    app = _schema_app(tmp_path)
    try:
        schema = app.openapi()
    finally:
        app.state.store.close()
    scheme = schema["components"]["securitySchemes"][BEARER]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    secured = {(p, m) for p, m, op in _operations(schema) if op.get("security")}
    public = {(p, m) for p, m, op in _operations(schema) if "security" not in op}
    assert {(p, m) for p, m in secured if not p.startswith(SEATED)} == set()
    assert public == {
        ("/api/rulesets", "get"),
        ("/api/tables", "post"),
        ("/api/join/{token}", "post"),
    }
    for path, method, operation in _operations(schema):
        if (path, method) in secured:
            assert operation["security"] == [{BEARER: []}]


def test_every_operation_under_a_table_authenticates_a_member(tmp_path: Path) -> None:
    app = _schema_app(tmp_path)
    try:
        routes = [
            r
            for r in (*api.router.routes, *fairness.router.routes)
            if isinstance(r, APIRoute) and r.include_in_schema
        ]
        under = [r for r in routes if r.path == SEATED or r.path.startswith(SEATED + "/")]
        assert len(under) >= 20
        for route in under:
            source = inspect.getsource(route.endpoint)
            assert any(name in source for name in AUTHENTICATES), route.path
        # and without credentials, each one that reads is refused
        with AppClient(app) as client:
            body = {"name": "Night run", "ruleset": "empty-reach", "gm_name": "Gina"}
            table_id = client.post("/api/tables", json=body).json()["table"]["id"]
            for route in under:
                if "GET" in (route.methods or ()):
                    path = route.path.format(table_id=table_id, character_id=1, entry_id=1)
                    assert client.get(path).status_code == 403, route.path
    finally:
        app.state.store.close()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client openapi-python-client generates from this server's schema."""
    folder = tmp_path_factory.mktemp("client")
    app = _schema_app(folder)
    try:
        (folder / "openapi.json").write_text(json.dumps(app.openapi()), encoding="utf-8")
    finally:
        app.state.store.close()
    (folder / "config.yml").write_text(CONFIG, encoding="utf-8")
    command = [
        *(sys.executable, "-m", "openapi_python_client", "generate"),
        *("--path", "openapi.json", "--config", "config.yml", "--meta", "none"),
        *("--output-path", str(folder / "out" / PACKAGE)),
    ]
    made = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stdout + made.stderr
    sys.path.insert(0, str(folder / "out"))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder / "out"))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _api(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.table.{name}")


def test_a_generated_client_opens_a_table_and_rolls(
    generated: ModuleType, live: LiveServer
) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    create_table = _api("create_table_api_tables_post")
    create_character = _api("create_character_api_tables_table_id_characters_post")
    roll = _api("roll_api_tables_table_id_characters_character_id_roll_post")
    body = models.CreateTableIn(
        name="Night run", ruleset=models.CreateTableInRuleset("empty-reach"), gm_name="Gina"
    )
    with generated.Client(base_url=live.url) as anyone:
        seat = create_table.sync(client=anyone, body=body)
        assert isinstance(seat, models.SeatOut), seat
        table_id = seat.table.id
        made = create_character.sync_detailed(
            table_id, client=anyone, body=models.CharacterIn(name="Ana")
        )
        assert made.status_code == 403  # no token: not seated
    with generated.AuthenticatedClient(base_url=live.url, token=seat.session_token) as gm:
        character = create_character.sync(table_id, client=gm, body=models.CharacterIn(name="Ana"))
        assert isinstance(character, models.CharacterDetailOut), character
        form = models.RollInForm.from_dict({"skill": "Force"})
        entry = roll.sync(table_id, character.id, client=gm, body=models.RollIn(form=form))
    assert isinstance(entry, models.EntryOut), entry
    assert entry.kind == "roll"
    assert entry.card.title.startswith("Force (Strength)")
    assert [die.face for die in entry.card.dice] == [draw[1] for draw in entry.record["draws"]]


def test_the_generated_calls_name_their_path_parameters(generated: ModuleType) -> None:
    roll = _api("roll_api_tables_table_id_characters_character_id_roll_post")
    assert list(inspect.signature(roll.sync).parameters)[:2] == ["table_id", "character_id"]
