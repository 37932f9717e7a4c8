"""Fixtures for the web table: an app on SQLite and (with RULEBOUND_TEST_PG_URL) PostgreSQL,
a party of members seated through the API, and dice whose seeds a test chooses."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
import uvicorn
from fastapi import FastAPI

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, SeededSource
from rulebound.rulesets.contract import (
    Choice,
    CreationStep,
    Field,
    Game,
    Sheets,
    SheetView,
)
from rulebound.rulesets.plays import TableRules
from rulebound.web.app import create_app
from rulebound.web.settings import Settings, TableGame, registry_games

from ..client import AppClient

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: Playwright's sync API, when the browser
    tests ran first in this process, leaves an event loop running in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class GuidedSheets(Sheets[Any, Any]):
    def validate(self, sheet: Any) -> dict[str, Any]:
        if not str(sheet.get("name", "")).strip():
            raise InvalidInput("name", sheet.get("name"), "a name")
        return {
            "name": str(sheet["name"]),
            "kin": sheet.get("kin", "human"),
            "might": sheet.get("might", 1),
        }

    def new(self, name: str) -> dict[str, Any]:
        return self.validate({"name": name})

    def view(self, sheet: Any) -> SheetView:
        return SheetView(
            (Field("name", "Name", "text"),),
            {"name": sheet["name"]},
            (("Might", str(sheet["might"])),),
        )

    def edit(self, sheet: Any, form: Any) -> dict[str, Any]:
        return self.validate(dict(sheet) | dict(form))

    def dialog(self, sheet: Any) -> tuple[Field, ...]:
        return ()

    def request(self, sheet: Any, values: Any, variants: Any) -> Any:
        raise RuleViolation("roll", "no rolls in the test ruleset")


class GuidedGame(Game[Any, Any]):
    """A tiny game with a two-step guided creation and no rolls, to test the generic flow."""

    key = "guided-test"
    title = "Guided (test only)"
    KINS = (Choice("human", "Human"), Choice("giant", "Giant (needs might 4+)"))

    def __init__(self) -> None:
        self.sheets = GuidedSheets()

    def load(self, data: Any) -> Any:
        raise RuleViolation("roll", "no rolls in the test ruleset")

    def dump(self, request: Any) -> dict[str, Any]:
        raise RuleViolation("roll", "no rolls in the test ruleset")

    def roll(self, request: Any, source: RandomSource) -> Any:
        raise RuleViolation("roll", "no rolls in the test ruleset")

    def card(self, result: Any) -> Any:
        raise RuleViolation("card", "no cards in the test ruleset")

    def creation(self, state: Any, form: Any, source: RandomSource) -> CreationStep:
        if "might" not in state:
            return CreationStep("Roll might", (), {"might": source.draw(6)}, ("Post to roll.",))
        if "kin" not in state:
            kin = form.get("kin")
            if kin is None:
                kin_field = Field("kin", "Kin", "select", self.KINS, default="human")
                return CreationStep(
                    "Choose a kin", (kin_field,), state, (f"Might {state['might']}",)
                )
            if kin == "giant" and state["might"] < 4:
                raise RuleViolation("kin", "a giant needs might 4 or more")
            state = dict(state, kin=kin)
        name = form.get("name")
        if not name:
            return CreationStep("Name", (Field("name", "Name", "text"),), state)
        assert self.sheets is not None
        sheet = self.sheets.validate(dict(state, name=name))
        return CreationStep("Done", (), state, sheet=sheet)


@dataclass
class Dice:
    """Each play takes the next queued seed; with none queued, a fixed one."""

    seeds: list[int] = field(default_factory=list)

    def source(self, _table_id: int) -> RandomSource:
        return SeededSource(self.seeds.pop(0) if self.seeds else 99)


def games_for_tests() -> dict[str, TableGame]:
    games = dict(registry_games())
    games["guided-test"] = TableGame("guided-test", "Guided (test only)", TableRules(GuidedGame()))
    return games


@pytest.fixture
def dice() -> Dice:
    return Dice()


@pytest.fixture
def app(db_url: str, dice: Dice) -> FastAPI:
    return create_app(Settings(database_url=db_url, source=dice.source, games=games_for_tests))


@pytest.fixture
def client(app: FastAPI) -> Iterator[AppClient]:
    with AppClient(app) as opened:
        yield opened


@dataclass
class Party:
    """A table seated through the API: bearer headers per member, and the table's ids."""

    client: AppClient
    table_id: int
    invites: dict[str, Any]
    gm: dict[str, str]
    player: dict[str, str]
    other: dict[str, str]
    observer: dict[str, str]
    ids: dict[str, int]

    def url(self, path: str = "") -> str:
        return f"/api/tables/{self.table_id}{path}"

    def character(self, who: dict[str, str], name: str = "Ana") -> int:
        made = self.client.post(self.url("/characters"), json={"name": name}, headers=who)
        assert made.status_code == 201, made.text
        return int(made.json()["id"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_party(client: AppClient, ruleset: str = "empty-reach") -> Party:
    body = {"name": "Night run", "ruleset": ruleset, "gm_name": "Gina", "observers": True}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    invites = table["invites"]
    headers = {"gm": bearer(made.json()["session_token"])}
    ids = {"gm": table["you"]["id"]}
    for who, link, name in (
        ("player", "player", "Pia"),
        ("other", "player", "Oz"),
        ("observer", "observer", "Obi"),
    ):
        token = invites[link].rsplit("/", 1)[1]
        joined = client.post(f"/api/join/{token}", json={"name": name})
        assert joined.status_code == 201, joined.text
        headers[who] = bearer(joined.json()["session_token"])
        ids[who] = joined.json()["table"]["you"]["id"]
    return Party(client, table["id"], invites, ids=ids, **headers)


@pytest.fixture
def party(client: AppClient) -> Party:
    return seat_party(client)


class LiveServer:
    """A real uvicorn server in a thread, on a free port; stop() and start() again to restart."""

    def __init__(self, make_app: Any) -> None:
        self.make_app = make_app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> LiveServer:
        config = uvicorn.Config(
            self.make_app(),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            assert time.monotonic() < deadline, "the server did not start"
            assert self._thread.is_alive(), "the server thread died"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        assert self._server is not None
        assert self._thread is not None
        self._server.should_exit = True
        self._thread.join(timeout=20)
        assert not self._thread.is_alive(), "the server did not stop"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def live_settings(db_url: str, dice: Dice) -> Settings:
    return Settings(database_url=db_url, source=dice.source, games=games_for_tests)


@pytest.fixture
def live(live_settings: Settings) -> Iterator[LiveServer]:
    server = LiveServer(lambda: create_app(live_settings)).start()
    yield server
    server.stop()
