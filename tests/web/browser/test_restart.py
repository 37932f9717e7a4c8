"""The feed recovers after the server restarts, and nothing written meanwhile is lost."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rulebound.store import NewEntry, SqlStore

from ..conftest import Dice, LiveServer
from .conftest import Table, new_character, roll, shot, wait_live

pytestmark = pytest.mark.browser


def test_the_feed_resumes_after_a_restart_with_nothing_lost(
    table: Table, server: LiveServer, dice: Dice, db_url: str
) -> None:
    player = table.join("player", "Pia")
    sheet = new_character(player, "Ana")
    server.stop()
    expect(table.gm.locator("[data-live-status]")).to_have_text("Live feed: reconnecting…")
    elsewhere = SqlStore(db_url)  # another server process keeps writing while this one is down
    table_id = int(table.url.rsplit("/", 1)[1])
    for i in range(3):
        elsewhere.append(NewEntry(table_id, "note", "public", None, f"written while down {i}"))
    elsewhere.close()
    server.start()
    wait_live(table.gm)
    expect(table.gm.locator(".entry.kind-note .summary")).to_have_text(
        [f"written while down {i}" for i in (2, 1, 0)]
    )
    player.goto(sheet.split("#")[0])
    dice.seeds[:] = [0]
    roll(player)
    expect(table.gm.locator(".entry.kind-roll .outcome")).to_have_text("1 success")
    seqs = [int(s.removeprefix("#")) for s in table.gm.locator(".entry .seq").all_inner_texts()]
    assert seqs == list(range(max(seqs), 0, -1)), "every entry once, newest first, no gaps"
    shot(table.gm, "feed-after-restart")
