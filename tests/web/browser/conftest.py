"""Real Chromium (Debian's package) through Playwright's ``executable_path``, against a real
uvicorn server on SQLite. Screenshots feed docs/web.md (see SHOTS)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..conftest import Dice, LiveServer, games_for_tests

CHROMIUM = "/usr/bin/chromium"
DOCS_SHOTS = Path(__file__).resolve().parents[3] / "docs" / "web"
SHOTS = (
    DOCS_SHOTS
    if os.environ.get("RULEBOUND_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "rulebound-screenshots"
)
"""Screenshots go to docs/web/ only when RULEBOUND_SCREENSHOTS is set, so a test run
leaves the tracked pictures alone: `RULEBOUND_SCREENSHOTS=1 scripts/check -m browser`."""
WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: CI must run the browser tests")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (scripts/install dev does)")
    return browser_type_launch_args | {
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture
def db_url(sqlite_db_url: str) -> str:
    """Browser tests run on SQLite only (a copy of the run's migrated template); the API
    tests cover PostgreSQL."""
    return sqlite_db_url


@pytest.fixture
def server(db_url: str, dice: Dice) -> Iterator[LiveServer]:
    settings = Settings(database_url=db_url, source=dice.source, games=games_for_tests)
    live = LiveServer(lambda: create_app(settings)).start()
    yield live
    live.stop()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """A context that prefers reduced motion: the arrival and dice animations are decoration
    no test asserts, and drawing them in software costs Chromium CPU after every live entry.
    (Chromium's --force-prefers-reduced-motion does not reach the page under Playwright,
    which sets the media feature itself.)"""
    return browser.new_context(reduced_motion="reduce", **options)


class Table:
    """A table opened in the GM's browser, with helpers to seat others in their own browsers."""

    def __init__(
        self,
        server: LiveServer,
        browser: Browser,
        contexts: list[BrowserContext],
        ruleset: str = "empty-reach",
    ) -> None:
        self.server, self.browser, self.contexts = server, browser, contexts
        self.gm = self.new_page()
        self.gm.goto(server.url + "/")
        self.gm.locator(f'input[name=ruleset][value="{ruleset}"]').check()
        self.gm.get_by_label("Table name").fill("The Long Dark")
        self.gm.get_by_label("Your name (game master)").fill("Gina")
        self.gm.get_by_role("button", name="Open the table").click()
        expect(self.gm.locator("#feed-h")).to_have_text("The Long Dark")
        self.url = self.gm.url
        self.invites = {
            role: self.gm.locator(f"#inv-{role}").input_value() for role in ("player", "observer")
        }
        wait_live(self.gm)

    def new_page(self) -> Page:
        context = new_context(self.browser, viewport={"width": 1100, "height": 900})
        self.contexts.append(context)
        return context.new_page()

    def join(self, role: str, name: str) -> Page:
        page = self.new_page()
        page.goto(self.invites[role])
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page.locator("#feed-h")).to_have_text("The Long Dark")
        wait_live(page)
        return page


def wait_live(page: Page) -> None:
    expect(page.locator("[data-live-status]")).to_have_text("Live feed: connected")


def new_character(page: Page, name: str, force: str | None = "D6") -> str:
    page.get_by_text("New character").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_role("button", name="Create a blank sheet").click()
    expect(page.locator("#c-h")).to_have_text(name)
    if force:
        page.locator("#s-skills-Force").select_option(force)
        page.get_by_role("button", name="Save the sheet").click()
        expect(page.locator("#s-skills-Force")).to_have_value(force)
    return page.url


def roll(page: Page, skill: str = "Force", privacy: str = "public") -> None:
    page.locator("#d-skill").select_option(skill)
    page.locator("#d-privacy").select_option(privacy)
    with page.expect_navigation():
        page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator("#c-h")).to_be_visible()  # a roll from the sheet stays on the sheet
    page.goto(page.url.split("/c/")[0])


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # the side panels refresh 150 ms after a live entry
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


@pytest.fixture
def table(server: LiveServer, browser: Browser, contexts: list[BrowserContext]) -> Table:
    return Table(server, browser, contexts)
