"""Real Chromium against a live server with the interactions endpoint: the web table's
fixtures (tests/web/browser), a server on the committed dice, and signed interactions
sent over HTTP as Discord sends them."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext

from rulebound.discord.interactions import PATH

from ...web.browser.conftest import Table, browser_type_launch_args, contexts
from ...web.conftest import LiveServer
from ..conftest import Discord, discord_app, signed

__all__ = ["browser_type_launch_args", "contexts"]

DOCS_SHOTS = Path(__file__).resolve().parents[3] / "docs" / "discord"
SHOTS = (
    DOCS_SHOTS
    if os.environ.get("RULEBOUND_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "rulebound-discord-screenshots"
)
"""As for the web table's: docs/discord/ only when RULEBOUND_SCREENSHOTS is set."""


@pytest.fixture
def db_url(sqlite_db_url: str) -> str:
    return sqlite_db_url


@pytest.fixture
def server(db_url: str) -> Iterator[LiveServer]:
    live = LiveServer(lambda: discord_app(db_url)).start()
    yield live
    live.stop()


class OverHttp:
    """What ``Discord.answer`` needs of a client, over real HTTP to the live server."""

    def __init__(self, base: str) -> None:
        self.http = httpx2.Client(base_url=base, timeout=30)

    def post(self, path: str, content: bytes, headers: dict[str, str]) -> Any:
        return self.http.post(path, content=content, headers=headers)


@pytest.fixture
def remote(server: LiveServer) -> Iterator[Discord]:
    over = OverHttp(server.url)
    yield Discord(over)  # type: ignore[arg-type]
    over.http.close()


@pytest.fixture
def table(server: LiveServer, browser: Browser, contexts: list[BrowserContext]) -> Table:
    return Table(server, browser, contexts)


def post_signed(server: LiveServer, payload: dict[str, Any]) -> Any:
    body = json.dumps(payload).encode()
    return httpx2.post(server.url + PATH, content=body, headers=signed(body), timeout=30)
