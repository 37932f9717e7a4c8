"""In Chromium: a roll made in Discord shows live in the web table's feed, and each kind of
message the app sends, rendered as Discord shows it (the pictures in docs/discord.md)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from ...web.browser.conftest import Table, new_context
from ..conftest import Discord
from .conftest import SHOTS
from .render import message, page

pytestmark = pytest.mark.browser


def _seat(remote: Discord, table: Table) -> None:
    invite = table.gm.locator("#inv-gm").input_value()
    linked = remote.command("gm", "rulebound", "link", invite=invite)
    assert "now plays at" in linked["data"]["content"], linked
    remote.command("player", "rulebound", "join")
    remote.command("player", "rulebound", "character", name="Ana")


def test_a_discord_roll_shows_live_on_the_web_table(table: Table, remote: Discord) -> None:
    _seat(remote, table)
    rolled = remote.command("player", "roll", "empty-reach", skill="Force")
    outcome = rolled["data"]["embeds"][0]["description"].split("**")[1]
    entry = table.gm.locator(".entry.kind-roll")
    expect(entry.locator(".card .outcome")).to_have_text(outcome)
    expect(entry.locator(".meta")).to_contain_text("Pia")
    freed = remote.command("player", "r", dice="2d6+3")
    total = freed["data"]["embeds"][0]["description"].split("**")[1]
    expect(table.gm.locator(".entry.kind-free-roll .card .outcome")).to_have_text(total)
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.gm.wait_for_timeout(400)
    table.gm.screenshot(path=str(SHOTS / "web-table-feed.png"), full_page=True)


def _pushable(remote: Discord) -> dict[str, Any]:
    for _ in range(40):
        answer = remote.command("player", "roll", "empty-reach", skill="Force")
        ids = [c["custom_id"] for r in answer["data"]["components"] for c in r["components"]]
        if any(i.endswith(":push") for i in ids):
            return answer
    raise AssertionError("no result offered a push in 40 rolls")


def test_each_message_rendered_as_in_discord(
    table: Table, remote: Discord, browser: Browser
) -> None:
    """Every answer the app gives, from real interactions, drawn as Discord draws them."""
    shown: dict[str, list[str]] = {}
    unlinked = Discord(remote.client).command("player", "roll", "empty-reach", skill="Force")
    shown["unlinked"] = [message(unlinked["data"], "Pia used /roll empty-reach")]
    invite = table.gm.locator("#inv-gm").input_value()
    linked = remote.command("gm", "rulebound", "link", invite=invite)
    joined = remote.command("player", "rulebound", "join")
    shown["link-and-join"] = [
        message(linked["data"], "Gina used /rulebound link"),
        message(joined["data"], "Pia used /rulebound join"),
    ]
    remote.command("player", "rulebound", "character", name="Ana")
    odds = remote.command("player", "odds", "empty-reach", skill="Force", helpers=1)
    shown["odds"] = [message(odds["data"], "Pia used /odds empty-reach skill:Force helpers:1")]
    rolled = _pushable(remote)
    entry = next(
        c["custom_id"].split(":")[2] for r in rolled["data"]["components"] for c in r["components"]
    )
    menu = remote.press("player", f"rb:f:{entry}:push")
    menu_data = {**rolled["data"], "components": menu["data"]["components"]}
    chosen = menu["data"]["components"][0]["components"][0]["options"][0]["value"]
    ask = remote.press("player", f"rb:d:{entry}:push", [chosen])
    ask_data = {**rolled["data"], "components": ask["data"]["components"]}
    pushed = remote.press("player", f"rb:c:{entry}:push:{chosen}")
    shown["roll"] = [message(rolled["data"], "Pia used /roll empty-reach skill:Force")]
    shown["push"] = [
        message(menu_data, "Pia pressed Push: the dice to reroll"),
        message(ask_data, "Pia chose a die: confirm first"),
        message(pushed["data"], "Pia confirmed: the pushed result"),
    ]
    again = _pushable(remote)
    kept_id = again["data"]["components"][0]["components"][-1]["custom_id"]
    kept = remote.press("player", kept_id)
    refused = remote.press("other", kept_id)
    shown["keep"] = [
        message(kept["data"], "Pia pressed Keep"),
        message(refused["data"], "Oz pressed a button of Pia's roll"),
    ]
    free = remote.command("player", "r", dice="2d6+3")
    shown["free-roll"] = [message(free["data"], "Pia used /r dice:2d6+3")]
    private = remote.command("player", "roll", "empty-reach", skill="Force", privacy="gm")
    blind = remote.command("player", "roll", "empty-reach", skill="Force", privacy="blind")
    shown["privacy"] = [
        message(private["data"], "Pia used /roll empty-reach skill:Force privacy:gm"),
        message(blind["data"], "Pia used /roll empty-reach skill:Force privacy:blind"),
    ]
    shown["blind-push"] = _blind_push(remote)
    context = new_context(browser, viewport={"width": 680, "height": 400})
    view = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, parts in shown.items():
        view.set_content(page(parts))
        expect(view.locator(".msg")).to_have_count(len(parts))
        view.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    context.close()
    assert len(shown) == 9


def _blind_push(remote: Discord) -> list[str]:
    """A blind roll pushed by its roller: confirmed first, and nothing of it shown."""
    for _ in range(40):
        blind = remote.command("player", "roll", "empty-reach", skill="Force", privacy="blind")
        entry = blind["data"]["components"][0]["components"][0]["custom_id"].split(":")[2]
        ask = remote.press("player", f"rb:f:{entry}:push")
        done = remote.press("player", f"rb:c:{entry}:push:")
        if done["type"] == 7:
            return [
                message(
                    {**blind["data"], "components": ask["data"]["components"]},
                    "Pia pressed Push on her blind roll: confirm first",
                ),
                message(done["data"], "Pia confirmed: the push is logged, its result unseen"),
            ]
    raise AssertionError("no blind roll could be pushed in 40 rolls")
