"""A blind roll never reaches the player's page nor its traffic; an observer cannot act."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Response, expect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulebound.core.random_source import SeededSource
from rulebound.rulesets.registry import all_games
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..conftest import Dice, LiveServer, games_for_tests
from .conftest import Table, new_character, roll, shot, wait_live

pytestmark = pytest.mark.browser
CARD_MARKERS = ('class="outcome"', 'class=\\"outcome\\"', '"draws"', '"outcome":')
"""A result card in HTML, in HTML inside feed JSON, a record, or a card as JSON."""


class Recorder:
    """ASGI middleware keeping every response body the server sends, with its request cookies."""

    def __init__(self, app: ASGIApp | None) -> None:
        self.app = app
        self.sent: list[tuple[str, str, bytes]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self.app is not None  # the server's app, set before it starts
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies = dict(scope["headers"]).get(b"cookie", b"").decode()

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.body":
                self.sent.append((cookies, scope["path"], message.get("body", b"")))
            await send(message)

        await self.app(scope, receive, keep)

    def to(self, session: str) -> str:
        return "".join(body.decode("utf-8", "replace") for c, _, body in self.sent if session in c)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder(None)


@pytest.fixture
def server(db_url: str, dice: Dice, recorder: Recorder) -> Iterator[LiveServer]:
    settings = Settings(database_url=db_url, source=dice.source, games=games_for_tests)

    def make() -> Recorder:
        recorder.app = create_app(settings)
        return recorder

    live = LiveServer(make).start()
    yield live
    live.stop()


def _session(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"].startswith("rb_table_"))


def test_a_blind_roll_never_reaches_the_player(
    table: Table, dice: Dice, recorder: Recorder
) -> None:
    player = table.join("player", "Pia")
    bodies: list[str] = []

    def keep(response: Response) -> None:
        streaming = "event-stream" in (response.headers.get("content-type") or "")
        if not streaming and not 300 <= response.status < 400:
            bodies.append(response.text())

    player.on("response", keep)
    watching = player.context.new_page()
    watching.goto(table.url)
    wait_live(watching)
    new_character(player, "Ana")
    dice.seeds[:] = [0]
    roll(player, privacy="blind")
    expect(table.gm.locator(".entry.kind-roll .card .outcome")).to_have_text("1 success")
    for page in (player, watching):
        hidden = page.locator(".entry.kind-roll")
        expect(hidden).to_have_class(r"entry kind-roll privacy-blind hidden-roll")
        expect(hidden).to_contain_text("only the game master sees it")
        expect(hidden.locator(".card")).to_have_count(0)
        assert "1 success" not in page.locator("#feed").inner_html()
    shot(player, "blind-roll-player")
    shot(table.gm, "blind-roll-gm")
    sent = recorder.to(_session(player))
    assert "rolled blind for Ana" in sent  # the feed and the page did reach the player
    assert not [m for m in CARD_MARKERS if m in sent]
    assert not [m for m in CARD_MARKERS for b in bodies if m in b]
    assert 'class=\\"outcome\\"' in recorder.to(_session(table.gm))  # the GM got it live


def test_an_observer_watches_but_cannot_act(table: Table, dice: Dice) -> None:
    player = table.join("player", "Pia")
    sheet_url = new_character(player, "Ana").split("#")[0]
    dice.seeds[:] = [0]
    roll(player)
    observer = table.join("observer", "Obi")
    expect(observer.locator(".entry.kind-roll .outcome")).to_have_text("1 success")
    expect(observer.locator("form")).to_have_count(0)
    expect(observer.get_by_text("New character")).to_have_count(0)
    shot(observer, "observer-view")
    observer.goto(sheet_url)
    expect(observer.locator("#c-h")).to_have_text("Ana")
    expect(observer.locator("form")).to_have_count(0)
    csrf = observer.locator("meta[name=csrf-token]").get_attribute("content") or ""
    base = table.url
    for path, form in (
        ("/characters", {"name": "Sneak"}),
        (sheet_url.removeprefix(base) + "/roll", {"skill": "Force"}),
        (sheet_url.removeprefix(base) + "/sheet", {"damage": "3", "version": "3"}),
    ):
        answer = observer.request.post(base + path, form={"csrf": csrf, **form})
        assert answer.status == 403, (path, answer.status)
    api = observer.request.post(
        base.replace("/t/", "/api/tables/") + "/characters",
        data={"name": "Sneak"},
        headers={"X-CSRF-Token": csrf},
    )
    assert api.status == 403


def _walk_guided(table: Table, key: str, *, screenshot: bool = True) -> None:
    """Take every step on its defaults, naming anything unnamed; when a step is refused
    (a restriction), tick one more of its boxes, or else try the next choice of its
    selects, last select first."""
    page = table.gm
    page.get_by_text("New character").click()
    page.get_by_role("link", name="Guided creation").click()
    for _ in range(80):
        if "/c/" in page.url:
            break
        for box in page.locator("#creation input[type=text]").all():
            if not box.input_value():
                box.fill("Aria")
        if page.locator("#creation .error").count():
            unticked = page.locator("#creation input[type=checkbox]:not(:checked)")
            if unticked.count():  # a choice of several (a soul's extra affinities)
                unticked.first.check()
            else:
                _next_choice(page)
        page.get_by_role("button", name="Next").click()
    assert "/c/" in page.url, f"{key}: the guided flow did not finish"
    expect(page.locator("#c-h")).not_to_be_empty()
    if screenshot:
        shot(page, f"guided-creation-{key}")


def _next_choice(page: Page) -> None:
    for select in reversed(page.locator("#creation select").all()):
        options = select.locator("option").all()
        values = [o.get_attribute("value") or "" for o in options]
        at = values.index(select.input_value())
        select.select_option(values[(at + 1) % len(values)])
        if at + 1 < len(values):
            return


def test_guided_creation_of_each_ruleset_that_has_it(
    server: LiveServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    guided = [k for k, g in all_games().items() if g.creation({}, {}, SeededSource(1))]
    if not guided:
        pytest.skip("no registered ruleset offers guided creation yet (Legacy's adapter will)")
    for key in guided:
        _walk_guided(Table(server, browser, contexts, ruleset=key), key)


def test_the_guided_flow_pages_work_in_a_browser(
    server: LiveServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    table = Table(server, browser, contexts, ruleset="guided-test")
    _walk_guided(table, "guided-test", screenshot=False)
    expect(table.gm.locator(".tracks")).to_contain_text("Might")
