"""The story of the dice in Chromium: a player's page at 390 and 1280 px, light and dark, with
nothing wider than the screen and no serious accessibility violation, updated live as the
table rolls, and saying what the JSON API says. Screenshots in docs/web/story-*.png."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from rulebound.render.ledger_text import percent

from ..conftest import Dice
from .conftest import Table, shot
from .test_play_first import DESKTOP, PHONE, roll_once, seat
from .test_play_first import _violations as violations

pytestmark = pytest.mark.browser
WIDER_THAN_SCREEN = "() => document.documentElement.scrollWidth > innerWidth"
TABLE_CUT = """() => [...document.querySelectorAll('.story-table-wrap')]
  .some((wrap) => wrap.scrollWidth > wrap.clientWidth)"""
"""A table of figures wider than its place: its last columns are cut off until scrolled."""


def _story(page: Page, table: Table) -> None:
    page.goto(table.url + "/story")
    expect(page.locator(".story-you")).to_contain_text("You:")


def test_the_story_reads_at_both_sizes_light_and_dark_and_follows_the_table(
    table: Table, dice: Dice
) -> None:
    pia = seat(table, "Pia", "Ana", DESKTOP)
    for seed in range(5):
        dice.seeds[:] = [seed]
        roll_once(pia, seed)
    api = table.url.replace("/t/", "/api/tables/") + "/ledger"
    mine = pia.request.get(api).json()["members"][0]
    assert (mine["name"], mine["checks"]) == ("Pia", 5)
    _story(pia, table)
    said = f"5 checks: {mine['actual_successes']} success"
    expect(pia.locator(".story-you")).to_contain_text(said)
    luck = percent(Fraction(mine["luckier_than"]))
    expect(pia.locator(".story-you")).to_contain_text(f"luckier than {luck} of possible nights")
    expect(pia.locator(".story-chart svg")).to_have_count(3)  # places, calibration, session 1
    axe = Axe()
    schemes: tuple[Literal["light"], Literal["dark"]] = ("light", "dark")
    for scheme in schemes:
        pia.emulate_media(color_scheme=scheme)
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            pia.set_viewport_size(size)
            assert not pia.evaluate(WIDER_THAN_SCREEN), f"{name} {scheme}: wider than the screen"
            assert not pia.evaluate(TABLE_CUT), f"{name} {scheme}: the Members table is cut off"
            assert not violations(pia, axe), f"{name} {scheme}"
            shot(pia, f"story-{name}-{scheme}")
    # the table rolls on: the page follows the feed without a reload
    oz = seat(table, "Oz", "Bo", DESKTOP)
    roll_once(oz)
    expect(pia.locator(".story-whole")).to_contain_text("6 checks")
    expect(pia.locator(".story-table tbody tr")).to_have_count(2)
    expect(pia.locator(".story-you")).to_contain_text("5 checks")
