"""A whole session in each of the four games: a game master and two players, from opening the
table to a follow-up that spends or risks something, a blind roll revealed and a roll voided;
screenshots of the play screen on desktop and on a 390 px phone, light and dark; and checks
from the accessibility tree (every control named, a sensible focus order)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from ..conftest import Dice, LiveServer
from .conftest import Table, new_context, shot, wait_live

pytestmark = pytest.mark.browser
GAMES = ("empty-reach", "rainwall", "legacy", "ghostburn")
CONTROLS = ("button", "link", "textbox", "combobox", "checkbox", "spinbutton", "radio")
UNNAMED = re.compile(rf"^\s*- ({'|'.join(CONTROLS)})(\s*\[[^\]]*\])*\s*:?\s*$", re.M)


class Clicks:
    """Counts what a player does with the mouse, from joining to a roll."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def click(self, target: Locator) -> None:
        self.count += 1
        target.click()


def seat(table: Table, name: str, character: str) -> Page:
    """Join as a player naming a character: one press of "Take a seat" (not counted as a
    click after joining)."""
    page = table.new_page()
    page.goto(table.invites["player"])
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Your character's name (optional)").fill(character)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#feed-h")).to_have_text("The Long Dark")
    wait_live(page)
    return page


SHEETS = {
    "rainwall": {
        "#s-skills-Lockpicking-score": "6",
        "#s-skills-Lockpicking-bonus": "2",
        "#s-traits-Dexterity": "4",
    },
    "ghostburn": {"#s-luck_points": "2", "#s-luck_bonus": "3"},
}
"""What a ready-made sheet needs before the session's follow-ups (Rainwall: bonus points
to reallocate; Ghostburn: Luck Points to spend); the others play as they are."""


def ready_sheet(page: Page, key: str) -> None:
    if key not in SHEETS:
        return
    page.locator("#characters li.mine a.name").first.click()
    for box, value in SHEETS[key].items():
        page.locator(box).fill(value)
    page.get_by_role("button", name="Save the sheet").click()
    page.get_by_role("link", name="Back to the table").click()


def quick_buttons(page: Page) -> Locator:
    return page.locator("#characters .quick-roll button")


def follow_up(page: Page, dice: Dice) -> str:
    """Take the newest roll's first follow-up that can change it: open it (its effect shows
    before anything is spent), choose a die where it asks, confirm. Rolls again when none
    is open. Returns the follow-up's label."""
    for seed in range(40):
        card = page.locator(".entry.kind-roll").first
        offer = card.locator("details.follow:not(.futile)")
        if offer.count():
            offer.first.locator("summary").click()
            expect(offer.first.locator(".effect")).to_contain_text("Costs:")
            label = offer.first.locator("summary").inner_text()
            pick = offer.first.locator("label.pick")
            if pick.count():
                pick.first.click()
            before = page.locator(".entry.kind-follow-up").count()
            offer.first.get_by_role("button", name=re.compile("^Confirm")).click()
            expect(page.locator(".entry.kind-follow-up")).to_have_count(before + 1)
            return label
        dice.seeds[:] = [seed]
        rolls = page.locator(".entry.kind-roll").count()
        quick_buttons(page).first.click()
        expect(page.locator(".entry.kind-roll")).to_have_count(rolls + 1)
    html = page.locator(".entry.kind-roll").first.inner_html()
    raise AssertionError(f"no roll offered a follow-up in 40 tries: {html[:1500]}")


def accessible(page: Page, where: str) -> None:
    """Every control in the accessibility tree has a name; Tab reaches the one-click rolls
    before the log, and never lands on something invisible."""
    tree = page.locator("body").aria_snapshot()
    unnamed = UNNAMED.findall(tree)
    assert not unnamed, f"{where}: controls without a name: {unnamed}\n{tree[:2000]}"
    order: list[str] = []
    for _ in range(12):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => { const e = document.activeElement; const r = e.getBoundingClientRect();"
            " return [e.closest('#characters') ? 'characters' : e.closest('#feed') ? 'feed'"
            " : e.closest('header') ? 'header' : 'other', r.width > 0 && r.height > 0] }"
        )
        assert focused[1], f"{where}: Tab reached an invisible element"
        order.append(focused[0])
    if "characters" in order and "feed" in order:
        assert order.index("characters") < order.index("feed"), f"{where}: {order}"


@pytest.mark.parametrize("key", GAMES)
def test_a_whole_session(
    key: str, server: LiveServer, browser: Browser, contexts: list[BrowserContext], dice: Dice
) -> None:
    table = Table(server, browser, contexts, ruleset=key)
    gm = table.gm
    pia = seat(table, "Pia", "Ana")
    oli = seat(table, "Oli", "Bo")
    expect(gm.locator("#counters")).to_contain_text("2 players")
    for page in (pia, oli):
        ready_sheet(page, key)
    # the first roll: one click after joining (after the sheet edit Rainwall needs)
    clicks = Clicks(pia)
    first = quick_buttons(pia).first
    expect(first).to_contain_text("%")  # the chances, before the click
    dice.seeds[:] = [0]
    clicks.click(first)
    expect(pia.locator(".entry.kind-roll")).to_have_count(1)
    assert clicks.count == 1
    expect(gm.locator(".entry.kind-roll .card")).to_have_count(1)  # live at the GM's
    many = quick_buttons(pia).count() > 1
    second = quick_buttons(pia).nth(1 if many else 0)
    expect(second).to_contain_text("%")
    clicks.click(second)  # the next roll: one more click
    expect(pia.locator(".entry.kind-roll")).to_have_count(2)
    assert clicks.count == 2
    # a follow-up that spends or risks something, shown first, confirmed once
    label = follow_up(pia, dice)
    assert label
    shot(pia, f"session-{key}-player")
    # Oli rolls blind from the dialog in place; the GM reveals it to the table
    oli.locator("#characters details.roll-more summary").first.click()
    dialog = oli.locator("#characters form.dialog").first
    expect(dialog.locator("[data-chances-output]")).to_contain_text("%")
    dialog.locator("select[name=privacy]").select_option("blind")
    dialog.get_by_role("button", name="Roll", exact=True).click()
    expect(oli.locator(".entry.hidden-roll")).to_have_count(1)
    expect(pia.locator(".entry.hidden-roll")).to_have_count(0)  # Pia does not know of it
    blind = gm.locator(".entry.privacy-blind").first
    expect(blind.locator(".card")).to_be_visible()
    blind.get_by_role("button", name="Reveal to the table").click()
    for page in (pia, oli):
        expect(page.locator(".entry.kind-reveal .card")).to_have_count(1)
    # the GM voids Pia's first roll: it stays in the log, marked void
    voided = gm.locator(".entry.kind-roll.privacy-public").last
    voided.locator(".card > details.more > summary").click()  # voiding sits under Details
    voided.locator("details.void-move summary").click()
    voided.get_by_role("button", name="Confirm: void it").click()
    for page in (pia, oli, gm):
        expect(page.locator(".entry.voided")).to_have_count(1)
    # table talk: the GM rolls for an NPC with /r, its exact odds shown before it is sent
    gm.get_by_label("Say something", exact=False).fill("/r 2d6+3")
    expect(gm.locator("[data-odds-output]")).to_have_text(
        re.compile(r"^2d6\+3: average 10\.00, 5 to 15; P\(total ≥ 10\) = ")
    )
    gm.locator("form.talk").get_by_role("button", name="Send").click()
    for page in (pia, oli):
        expect(page.locator(".entry.kind-free-roll .outcome")).to_contain_text("Total")
    pia.get_by_label("Say something", exact=False).fill("Ana ducks behind the crate")
    pia.get_by_label("Say something", exact=False).press("Enter")
    expect(gm.locator(".entry.kind-talk")).to_contain_text("Pia: Ana ducks behind the crate")
    shot(gm, f"session-{key}-gm")
    accessible(pia, f"{key} player")
    accessible(gm, f"{key} game master")


def test_the_play_screen_on_a_phone_and_in_the_dark(
    server: LiveServer, browser: Browser, contexts: list[BrowserContext], dice: Dice
) -> None:
    table = Table(server, browser, contexts)
    phone = new_context(
        browser, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
    )
    contexts.append(phone)
    page = phone.new_page()
    page.goto(table.invites["player"])
    page.get_by_label("Your name").fill("Pia")
    page.get_by_label("Your character's name (optional)").fill("Ana")
    page.get_by_role("button", name="Take a seat").click()
    wait_live(page)
    dice.seeds[:] = [0]
    button = quick_buttons(page).first
    box = button.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] < 844, "the first roll is on screen"
    button.click()
    expect(page.locator(".entry.kind-roll")).to_have_count(1)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    shot(page, "phone-player")
    page.emulate_media(color_scheme="dark")
    shot(page, "phone-player-dark")
    table.gm.emulate_media(color_scheme="dark")
    table.gm.reload()
    shot(table.gm, "gm-dark")
    accessible(page, "phone")
