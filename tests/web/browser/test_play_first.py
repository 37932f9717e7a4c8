"""The table a group would choose, in Chromium on a 390x844 phone and a 1280x800 desktop: the
roller sees their new result without scrolling, six ordinary cards fit in the desktop log,
the GM's first screen is the log and the party once someone is seated, the log says each new
entry in words, and axe-core finds no serious or critical violation on the home, table,
sheet and GM pages, light and dark. Screenshots of each game's table at both sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

from ..conftest import Dice, LiveServer
from .conftest import Table, new_context, shot, wait_live

pytestmark = pytest.mark.browser
GAMES = ("empty-reach", "rainwall", "legacy", "ghostburn")
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
IN_VIEW = """(element) => {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.top >= -1 && box.bottom <= innerHeight + 1
    && box.left >= -1 && box.right <= innerWidth + 1;
}"""
"""Wholly inside the viewport (a pixel of rounding allowed)."""


def seat(table: Table, name: str, character: str, size: ViewportSize) -> Page:
    page = table.new_page()
    page.set_viewport_size(size)
    page.goto(table.invites["player"])
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Your character's name (optional)").fill(character)
    page.get_by_role("button", name="Take a seat").click()
    wait_live(page)
    return page


def fully_in_view(page: Page, target: Locator) -> None:
    """Waits (a smooth scroll takes a moment) until ``target`` is wholly on screen."""
    handle = target.element_handle()
    try:
        page.wait_for_function(IN_VIEW, arg=handle, timeout=5_000)
    except Exception as exc:
        box = target.bounding_box()
        raise AssertionError(f"not wholly on screen: {box} in {page.viewport_size}") from exc


def quick(page: Page) -> Locator:
    return page.locator("#characters li.mine .quick-roll button")


def roll_once(page: Page, nth: int = 0, before: int | None = None) -> Locator:
    """One quick roll. Where others roll too, ``before`` is the table's count of rolls so far:
    the page must show them all first, or a roll still on its way counts as this one."""
    rolls = page.locator("#feed .entry.kind-roll")
    if before is None:
        before = rolls.count()
    else:
        expect(rolls).to_have_count(before)
    buttons = quick(page)
    buttons.nth(nth % buttons.count()).click()
    expect(rolls).to_have_count(before + 1)
    return rolls.first


def roll_until_pushable(page: Page, dice: Dice) -> Locator:
    for seed in range(40):
        dice.seeds[:] = [seed]
        card = roll_once(page)
        if card.locator("details.follow[data-action=push]").count():
            return card
    raise AssertionError("no roll offered a push in 40 tries")


def talk(page: Page, table: Table, text: str) -> None:
    """A line of table talk, posted as the page's own form would post it."""
    csrf = page.locator("meta[name=csrf-token]").get_attribute("content") or ""
    answer = page.request.post(table.url + "/talk", form={"csrf": csrf, "text": text})
    assert answer.ok, answer.status


@pytest.mark.parametrize("size", SIZES)
def test_the_roller_sees_the_new_result_after_a_roll_and_after_a_follow_up(
    size: str, table: Table, dice: Dice
) -> None:
    pia = seat(table, "Pia", "Ana", SIZES[size])
    card = roll_until_pushable(pia, dice)
    fully_in_view(pia, card)  # after a one-click roll, where the buttons are
    # the roll waits lower on the page while others talk; Pia scrolls to it and pushes
    for n in range(16):
        talk(table.gm, table, f"The lights flicker ({n})")
    expect(pia.locator("#feed .entry.kind-talk")).to_have_count(16)
    card.scroll_into_view_if_needed()
    pia.evaluate("window.scrollBy(0, 300)")
    push = card.locator("details.follow[data-action=push]")
    push.locator("summary").click()
    push.locator("label.pick").first.click()
    confirm = push.get_by_role("button", name=re.compile("^Confirm"))
    confirm.scroll_into_view_if_needed()
    log_top = pia.locator("#feed").evaluate("(e) => e.getBoundingClientRect().top")
    assert log_top < 0, "the log's top is out of sight before the push"
    confirm.click()
    result = pia.locator("#feed .entry.kind-follow-up").first
    expect(result).to_be_attached()
    fully_in_view(pia, result)  # scrolled back up to it, not left above the viewport


def test_a_panel_is_rebuilt_only_when_it_changed_and_never_under_a_pressed_button(
    table: Table,
) -> None:
    """Table talk fetches no panel. Another player's roll changes no sheet here: the
    characters panel is fetched and keeps its very elements (what its user has half-typed
    in a roll dialog stays). A player joining changes it; a button pressed at that moment
    is not swapped out from under the pointer, so the press and release make one click,
    and the panel catches up once the button is released."""
    pia = seat(table, "Pia", "Ana", DESKTOP)
    oz = seat(table, "Oz", "Bo", DESKTOP)
    panel = pia.locator("#characters")
    expect(panel).to_contain_text("Bo")  # the panel has seen Oz join
    fetched: list[str] = []
    pia.on("request", lambda r: fetched.append(r.url) if "/fragments/" in r.url else None)
    talk(table.gm, table, "Rain on the roof")
    expect(pia.locator("#feed .entry.kind-talk")).to_have_count(1)
    pia.wait_for_timeout(400)  # a refresh starts 150 ms after an entry
    assert fetched == [], fetched
    button = quick(pia).first
    button.evaluate("(b) => { b.dataset.kept = 'yes'; }")  # a rebuilt panel's has no mark
    with pia.expect_response(re.compile(r"/fragments/characters$")):
        roll_once(oz)
    pia.wait_for_timeout(300)  # a changed panel would be swapped in meanwhile
    expect(panel.locator("[data-kept]")).to_have_count(1)
    box = button.bounding_box()
    assert box is not None
    pia.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    pia.mouse.down()
    with pia.expect_response(re.compile(r"/fragments/characters$")):
        seat(table, "Uma", "Cy", DESKTOP)
    pia.wait_for_timeout(300)  # the fetched panel would be swapped in meanwhile
    expect(panel).not_to_contain_text("Cy")
    pia.mouse.up()
    expect(pia.locator("#feed .entry.kind-roll")).to_have_count(2)  # Oz's, then Pia's
    expect(panel).to_contain_text("Cy")  # rebuilt once released
    expect(panel.locator("[data-kept]")).to_have_count(0)


def test_others_get_a_cue_and_keep_their_scroll_position(table: Table) -> None:
    gm = table.gm
    gm.set_viewport_size(DESKTOP)
    pia = seat(table, "Pia", "Ana", DESKTOP)
    for n in range(12):
        talk(gm, table, f"Rain on the roof ({n})")
    expect(gm.locator("#feed .entry.kind-talk")).to_have_count(12)
    gm.set_viewport_size({"width": 1280, "height": 500})  # a page taller than the screen
    gm.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    gm.wait_for_timeout(300)
    top = gm.locator("#feed").evaluate("(e) => e.getBoundingClientRect().top")
    assert top < 0, f"the log's top is on screen ({top}): nothing to cue"
    before = gm.evaluate("window.scrollY")
    roll_once(pia)
    newest = gm.locator("#feed .entry.kind-roll").first
    expect(newest).to_have_attribute("data-arrived", "")
    arrivals = gm.locator("[data-arrivals]")
    expect(arrivals).to_be_visible()
    expect(arrivals).to_contain_text("Pia")
    assert abs(gm.evaluate("window.scrollY") - before) < 2, "the GM's page moved"
    arrivals.click()
    fully_in_view(gm, newest)
    expect(arrivals).to_be_hidden()


def test_six_ordinary_cards_fit_in_the_desktop_log(table: Table) -> None:
    gm = table.gm
    gm.set_viewport_size(DESKTOP)
    pia = seat(table, "Pia", "Ana", DESKTOP)
    for n in range(7):
        roll_once(pia, n)
    newest = pia.locator("#feed .entry.kind-roll").first
    keep = newest.get_by_role("button", name="Keep the result")
    if keep.count():
        keep.click()  # the newest roll closed too: every card an ordinary one
        expect(pia.locator("#feed .entry.kind-keep")).to_have_count(1)
    for page in (pia, gm):
        page.reload()
        wait_live(page)
        expect(page.locator("#feed .entry.kind-roll")).to_have_count(7)
        seen = page.locator("#feed .entry.kind-roll .card").evaluate_all(
            "(cards) => cards.filter((c) => { const b = c.getBoundingClientRect();"
            " return b.top >= 0 && b.bottom <= innerHeight; }).length"
        )
        assert seen >= 6, f"{seen} cards on a 1280x800 screen"
    # nothing lost: one control unfolds the rest (here the GM's voiding; the contribution,
    # modifiers, steps and details where a card has them)
    card = gm.locator("#feed .entry.kind-roll .card").first
    card.locator("details.more > summary").first.click()
    expect(card.get_by_text("Void this roll")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_the_gm_first_screen_is_the_log_and_the_party(
    size: str, server: LiveServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    table = Table(server, browser, contexts, ruleset="legacy")
    gm = table.gm
    gm.set_viewport_size(SIZES[size])
    invites = gm.locator("#invites details.invites-fold")
    expect(invites).to_have_attribute("open", "")  # an empty table: the links, open
    pia = seat(table, "Pia", "Ana", DESKTOP)
    roll_once(pia)
    gm.reload()
    wait_live(gm)
    expect(invites).not_to_have_attribute("open", "")  # someone is seated: folded
    fully_in_view(gm, gm.locator("#log-h"))
    fully_in_view(gm, gm.locator("#feed .entry").first.locator(".card-head, .meta").first)
    party = gm.locator("#characters li.character").first
    fully_in_view(gm, party.locator(".name"))
    fully_in_view(gm, party.locator(".tracks div").first)
    expect(party.locator(".tracks")).to_contain_text("Fate")
    # the links stay one click away
    gm.locator("#invites summary").first.click()
    expect(gm.get_by_role("button", name="Copy the players link")).to_be_visible()
    # the party follows the table live
    pia.get_by_text("New character").click()
    pia.get_by_label("Name", exact=True).fill("Bo")
    pia.get_by_role("button", name="Create a blank sheet").click()
    expect(gm.locator("#characters li.character")).to_have_count(2)
    shot(gm, f"gm-first-screen-{size}")


def test_the_log_says_each_new_entry_in_words(table: Table, dice: Dice) -> None:
    pia = seat(table, "Pia", "Ana", DESKTOP)
    said = table.gm.locator("[role=log]")
    expect(said).to_have_attribute("aria-live", "polite")
    dice.seeds[:] = [0]
    card = roll_once(pia)
    title = card.locator(".title").inner_text()
    outcome = card.locator(".outcome").inner_text()
    chance = card.locator(".chance").get_attribute("data-said") or ""
    assert re.fullmatch(r"\d+% chance of .+", chance), chance
    line = said.locator("p").last
    expect(line).to_contain_text(f"Pia for Ana rolled: {title}. {outcome}.")
    expect(line).to_contain_text(f"It had {chance}.")
    talk(pia, table, "Ana ducks behind the crate")
    expect(said.locator("p").last).to_have_text("Pia: Ana ducks behind the crate")


FITS = """(box) => {
  const style = getComputedStyle(box);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [pen.measureText(box.placeholder).width, room];
}"""
"""How wide the box's placeholder is written, and the room the box gives it."""


def test_on_a_phone_the_talk_box_is_wide_enough_to_say_who_hears_it(table: Table) -> None:
    """The box was squeezed beside its two controls: "Heard by: The ga", cut off. Then a
    long name in the list of who hears it pushed Send onto a line of its own."""
    seat(table, "Bartholomew Featherstonehaugh", "Bo", PHONE)
    pia = seat(table, "Pia", "Ana", PHONE)
    box = pia.locator("#talk-text")
    pia.locator("#talk-to").select_option("gm")
    expect(box).to_have_attribute("placeholder", "Heard by: The game master (Gina)")
    written, room = box.evaluate(FITS)
    assert written <= room, f"the placeholder needs {written:.0f} px; the box has {room:.0f}"
    to = pia.locator("#talk-to").bounding_box()
    send = pia.locator("form.talk button[type=submit]").bounding_box()
    assert to is not None
    assert send is not None
    assert send["x"] + send["width"] <= PHONE["width"]
    assert abs(send["y"] - to["y"]) < to["height"], "Send is not beside who hears it"


SPILT = """() => [...document.querySelectorAll('.quick-roll button')].flatMap((button) => {
  const edge = button.getBoundingClientRect(), chance = button.querySelector('.q-p');
  const label = button.querySelector('.q-label').getBoundingClientRect();
  const p = chance.getBoundingClientRect();
  const apart = label.right <= p.left || label.bottom <= p.top;
  return p.right <= edge.right && p.bottom <= edge.bottom && apart ? [] : [button.innerText];
})"""
"""The one-click buttons whose chance spills out of them or over their label."""


def test_on_a_phone_every_one_click_chance_stays_inside_its_button(
    server: LiveServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    """The Empty Reach's "Marksmanship (D8)" pushed its "38%" past the button's edge."""
    table = Table(server, browser, contexts, ruleset="empty-reach")
    pia = seat(table, "Pia", "Ana", PHONE)
    expect(quick(pia).first).to_be_visible()
    assert pia.evaluate(SPILT) == []


@pytest.mark.parametrize("size", SIZES)
def test_the_talk_boxs_own_hint_is_read_whole(table: Table, size: str) -> None:
    """ "Say something, /me acts, /r 2d6+3 rolls, [[1d20]] rolls inline" was cut off at every
    width; inline rolls are told in the box's tooltip and label."""
    pia = seat(table, "Pia", "Ana", SIZES[size])
    box = pia.locator("#talk-text")
    written, room = box.evaluate(FITS)
    assert written <= room, f"the hint needs {written:.0f} px; the box has {room:.0f}"
    assert "[[" in (box.get_attribute("title") or "")


def test_on_a_phone_a_revealed_seed_wraps_inside_the_page(table: Table) -> None:
    """The seed's 64 hex digits, with no place to break, made the page 655 px wide."""
    pia = seat(table, "Pia", "Ana", PHONE)
    csrf = table.gm.locator("meta[name=csrf-token]").get_attribute("content") or ""
    answer = table.gm.request.post(table.url + "/dice/reveal", form={"csrf": csrf})
    assert answer.ok, answer.status
    expect(pia.locator("#feed .entry.kind-seed")).to_have_count(1)
    pia.reload()  # the dice panel lists the revealed seed too
    pia.locator("#dice details").last.evaluate("(d) => { d.open = true; }")
    expect(pia.locator("#dice ul.seeds code").first).to_be_visible()
    wide = pia.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"the page scrolls sideways on a phone ({wide} px)"


def _violations(page: Page, axe: Axe) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = axe.run(page).response["violations"]
    return [v for v in found if v.get("impact") in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(
    scheme: str, table: Table, dice: Dice, browser: Browser, contexts: list[BrowserContext]
) -> None:
    axe = Axe()
    gm = table.gm
    gm.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    pia = seat(table, "Pia", "Ana", DESKTOP)
    pia.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    card = roll_until_pushable(pia, dice)
    card.locator("details.follow[data-action=push] summary").click()  # a follow-up, opened
    home = new_context(browser, viewport=DESKTOP, color_scheme=scheme)
    contexts.append(home)
    visitor = home.new_page()
    visitor.goto(table.server.url + "/")
    gm.reload()
    wait_live(gm)
    gm.locator("#invites summary").first.click()
    gm.locator("#feed .card details.more > summary").first.click()  # a card's details, open
    pages = {"home": visitor, "table": pia, "gm": gm}
    found = {where: _violations(page, axe) for where, page in pages.items()}
    pia.locator("#characters li.mine a.name").click()
    expect(pia.locator("#c-h")).to_have_text("Ana")
    found["sheet"] = _violations(pia, axe)
    shown = {
        where: [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in bad]
        for where, bad in found.items()
        if bad
    }
    assert not shown, f"{scheme}: {shown}"


def test_every_page_has_our_icon_and_nothing_is_missing(table: Table) -> None:
    missing: list[str] = []
    pia = table.new_page()
    pia.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    pia.goto(table.invites["player"])
    pia.get_by_label("Your name").fill("Pia")
    pia.get_by_label("Your character's name (optional)").fill("Ana")
    pia.get_by_role("button", name="Take a seat").click()
    wait_live(pia)
    icon = pia.locator("link[rel=icon]")
    expect(icon).to_have_attribute("href", "/static/favicon.svg")
    drawn = pia.request.get(table.server.url + "/static/favicon.svg")
    assert drawn.ok
    assert drawn.headers["content-type"].startswith("image/svg+xml")
    assert pia.request.get(table.server.url + "/favicon.ico").ok  # asked for unprompted
    roll_once(pia)
    pia.locator("#characters li.mine a.name").click()
    expect(pia.locator("#c-h")).to_have_text("Ana")
    assert not missing, missing


@pytest.mark.parametrize("key", GAMES)
def test_each_games_table_at_both_sizes(
    key: str, server: LiveServer, browser: Browser, contexts: list[BrowserContext], dice: Dice
) -> None:
    """The pictures in docs/web.md: a player's and the GM's table after a few rolls."""
    table = Table(server, browser, contexts, ruleset=key)
    pia = seat(table, "Pia", "Ana", DESKTOP)
    oli = seat(table, "Oli", "Bo", DESKTOP)
    for n in range(3):
        dice.seeds[:] = [n]
        roll_once(oli, n, before=2 * n)
        roll_once(pia, n + 1, before=2 * n + 1)
    talk(table.gm, table, "The door gives way.")
    expect(pia.locator("#feed .entry.kind-talk")).to_have_count(1)
    table.gm.reload()
    wait_live(table.gm)
    for size, viewport in SIZES.items():
        for who, page in (("player", pia), ("gm", table.gm)):
            page.set_viewport_size(viewport)
            page.evaluate("window.scrollTo(0, 0)")
            if who == "player":
                roll_once(page)  # the result where the roller looks
                fully_in_view(page, page.locator("#feed .entry.kind-roll").first)
            page.wait_for_timeout(400)
            page.screenshot(path=str(_shots() / f"table-{key}-{who}-{size}.png"))


def _shots() -> Any:
    from .conftest import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
