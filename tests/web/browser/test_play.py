"""A player rolls and the GM sees it live; pushing by clicking dice puts the damage on the sheet."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..conftest import Dice
from .conftest import Table, new_character, roll, shot

pytestmark = pytest.mark.browser


def test_a_players_roll_appears_live_on_the_gms_page(table: Table, dice: Dice) -> None:
    player = table.join("player", "Pia")
    new_character(player, "Ana")
    expect(player.locator("[data-chances-output]")).to_contain_text("success")
    player.locator("#d-helpers").fill("2")
    expect(player.locator("[data-chances-output] tr").first).not_to_contain_text("37.5%")
    shot(player, "roll-dialog")
    dice.seeds[:] = [0]
    roll(player)
    card = table.gm.locator(".entry.kind-roll .card")
    expect(card.locator(".outcome")).to_have_text("2 successes")
    expect(card.locator(".dice.big .die")).to_have_count(2)
    expect(table.gm.locator(".entry.kind-roll .meta")).to_contain_text("Pia")
    shot(table.gm, "gm-sees-roll-live")


def test_the_player_pushes_by_clicking_dice_and_the_damage_lands(table: Table, dice: Dice) -> None:
    player = table.join("player", "Pia")
    new_character(player, "Ana")
    dice.seeds[:] = [0, 2]  # rolls 7 and 4; the push rerolls both to 1 and 1
    roll(player)
    card = player.locator(".entry.kind-roll .card")
    card.locator("details.follow summary", has_text="Push the roll").click()
    picker = card.locator(".picker")
    expect(picker.locator("input:checked")).to_have_count(0)  # nothing chosen for the player
    picker.locator("label.pick").nth(0).click()
    picker.locator("label.pick").nth(1).click()
    expect(picker.locator("input:checked")).to_have_count(2)
    confirm = card.get_by_role("button", name=re.compile("^Confirm"))
    expect(confirm).to_have_text("Confirm: Push the roll (#1, #2)")  # counted as the advice counts
    expect(picker.locator("label.pick").nth(0)).to_contain_text("die #1 (")
    shot(player, "push-picking-dice")
    confirm.click()
    follow = player.locator(".entry.kind-follow-up").first
    expect(follow.locator(".die .face")).to_have_text(["1", "1"])
    expect(player.locator("#characters")).to_contain_text("Health2 / 4")
    expect(player.locator(".entry.kind-roll form.action")).to_have_count(0)
    expect(table.gm.locator("#characters")).to_contain_text("Health2 / 4")
    expect(table.gm.locator(".entry.kind-follow-up .outcome")).to_contain_text("Failure")
    shot(player, "push-result")
