"""The turn tracker and table talk in real Chromium: a game master and two players drive a
turn order through a round, and a whisper reaches its addressee and the game master and
no one else, on their pages, in the JSON feed and in the export."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..conftest import Dice, LiveServer, games_for_tests
from .conftest import Table, new_character, shot, wait_live
from .test_privacy_roles import Recorder, _session

pytestmark = pytest.mark.browser
SECRET = "the duke keeps the key in his boot"


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


def _at_table(table: Table, page: Page) -> Page:
    page.goto(table.url)
    wait_live(page)
    return page


def test_the_turn_tracker_is_driven_through_a_round_by_a_gm_and_two_players(
    server: LiveServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    table = Table(server, browser, contexts, ruleset="legacy")
    pia, oz = table.join("player", "Pia"), table.join("player", "Oz")
    new_character(pia, "Anastasia Vel", force=None)  # long names: labels under the dice
    new_character(oz, "Bartholomew Oz", force=None)
    gm, pia, oz = (_at_table(table, page) for page in (table.gm, pia, oz))
    gm.get_by_text("Start a turn order").click()
    expect(gm.get_by_label("Order by")).to_have_value("game")  # Legacy's initiative rules
    gm.get_by_label("Others (names, separated by commas)").fill("Grue")
    gm.get_by_role("button", name="Start", exact=True).click()
    pages = (gm, pia, oz)
    for page in pages:
        expect(page.locator(".turn-order li")).to_have_count(3)
        expect(page.locator(".turns .round")).to_have_text("· round 1")
    order = gm.locator(".turn-order .name").all_inner_texts()
    assert sorted(order) == ["Anastasia Vel", "Bartholomew Oz", "Grue"]
    assert order[-1] == "Grue"  # no sheet: after the characters, for the game master to move
    shot(gm, "turn-order-gm")
    labels = gm.locator(".entry.kind-turn .dice .dlabel")
    expect(labels).to_have_count(2)  # the two characters' d20s
    boxes = [labels.nth(i).bounding_box() for i in range(2)]
    assert all(b is not None for b in boxes)
    left, right = sorted((b for b in boxes if b is not None), key=lambda b: b["x"])
    assert left["x"] + left["width"] <= right["x"], f"the dice's labels overlap: {boxes}"
    movers = {"Anastasia Vel": pia, "Bartholomew Oz": oz, "Grue": gm}
    for name in order:
        for page in pages:
            expect(page.locator(".turn-order li.up .name")).to_have_text(name)
        mover = movers[name]
        for other in (page for page in (pia, oz) if page is not mover):
            expect(other.get_by_role("button", name=f"End {name}'s turn")).to_have_count(0)
        if mover is pia:
            shot(pia, "turn-order-player")
        mover.get_by_role("button", name=f"End {name}'s turn").click()
    for page in pages:
        expect(page.locator(".turns .round")).to_have_text("· round 2")
        expect(page.locator(".turn-order li.up .name")).to_have_text(order[0])
        expect(page.locator(".entry.kind-turn")).to_have_count(4)


def test_a_whisper_reaches_its_addressee_and_the_gm_and_no_one_else(
    table: Table, recorder: Recorder
) -> None:
    pia, oz, nel = (
        table.join("player", "Pia"),
        table.join("player", "Oz"),
        table.join("player", "Nel"),
    )
    obi = table.join("observer", "Obi")
    pia = _at_table(table, pia)  # its "To" list now names everyone seated
    to = pia.locator("#talk-to")
    # the lone game master is one choice, not also a whisper
    expect(to.locator("option", has_text="Gina")).to_have_text(["The game master (Gina)"])
    pia.locator("#talk-text").fill(SECRET)
    to.select_option(label="Oz")
    expect(pia.locator("#talk-text")).to_have_attribute("placeholder", "Heard by: Oz")
    pia.get_by_role("button", name="Send").click()
    for page in (table.gm, oz, pia):
        whisper = page.locator(".entry.privacy-whisper")
        expect(whisper.locator(".summary")).to_have_text(f"Pia: {SECRET}")
        expect(whisper.locator(".privacy")).to_have_text("Whisper to Oz")
    shot(oz, "whisper-addressee")
    expect(pia.locator("form.talk")).to_have_attribute("data-private", "")  # still Oz's
    pia.locator("#talk-to").select_option("public")
    expect(pia.locator("form.talk")).not_to_have_attribute("data-private", "")
    pia.locator("#talk-text").fill("/me ducks behind the crate")
    pia.get_by_role("button", name="Send").click()
    for page in (table.gm, oz, pia, nel, obi):  # everyone's feed is past the whisper
        expect(page.locator(".entry .summary.emote")).to_have_text("Pia ducks behind the crate")
    api = table.url.replace("/t/", "/api/tables/")
    for page, knows in ((table.gm, True), (pia, True), (oz, True), (nel, False), (obi, False)):
        assert (SECRET in page.locator("#feed").inner_text()) is knows
        feed = page.request.get(api + "/feed?follow=false").text()
        export = page.request.get(api + "/log/export?format=json").text()
        assert (SECRET in feed, SECRET in export) == (knows, knows)
        assert (SECRET in recorder.to(_session(page))) is knows  # every byte sent to them
