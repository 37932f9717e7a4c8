"""Discord holds the table's promises: a channel moves only by its game master's hand, a
button shows only what its presser may see, names obey the web's rules, and a crafted body
is refused, never a server error."""

from __future__ import annotations

import json
from typing import Any

from rulebound.discord.interactions import PATH

from ..client import AppClient
from ..trust.conftest import open_table
from .conftest import Discord, Linked, gm_invite, signed

MANAGE_CHANNELS = 1 << 4


def _content(answer: dict[str, Any]) -> str:
    return str(answer.get("data", {}).get("content") or "")


def test_a_player_cannot_move_the_channel_to_a_table_of_their_own(linked: Linked) -> None:
    """The channel's players include one who opens a table of their own: their GM link does
    not take the channel over, and the real game master's table keeps it."""
    discord = linked.discord
    theirs = open_table(discord.client, "empty-reach")
    refused = discord.command("other", "rulebound", "link", invite=gm_invite(theirs))
    assert "now plays at" not in _content(refused), refused
    assert "game master" in _content(refused)
    # the channel still plays at the first table: a roll there lands in its log
    rolled = discord.command("player", "roll", "empty-reach", skill="Force")
    assert rolled["type"] == 4, rolled
    log = linked.table.client.get(
        linked.table.url("/log"), headers=linked.table.seats["gm"]
    ).json()["entries"]
    assert any(e["kind"] == "roll" for e in log)


def test_a_member_who_may_manage_channels_may_move_it_and_the_old_table_is_told(
    linked: Linked,
) -> None:
    discord = linked.discord
    theirs = open_table(discord.client, "empty-reach")
    payload = discord.base("other", 2)
    payload["member"]["permissions"] = str(MANAGE_CHANNELS)
    invite = gm_invite(theirs)
    sub = [{"type": 1, "name": "link", "options": [{"name": "invite", "type": 3, "value": invite}]}]
    payload["data"] = {"id": "5", "name": "rulebound", "type": 1, "options": sub}
    moved = discord.answer(payload)
    assert "now plays at" in _content(moved), moved
    old = linked.table.client.get(
        linked.table.url("/log"), headers=linked.table.seats["gm"]
    ).json()["entries"]
    assert any("Discord channel" in e["summary"] and "moved" in e["summary"] for e in old), [
        e["summary"] for e in old
    ]


def test_the_tables_game_master_may_move_the_channel(linked: Linked) -> None:
    discord = linked.discord
    other = open_table(discord.client, "rainwall")
    moved = discord.command("gm", "rulebound", "link", invite=gm_invite(other))
    assert "now plays at" in _content(moved), moved


def test_a_button_shows_nothing_its_presser_may_not_see(linked: Linked) -> None:
    """A game master cannot read a player's self roll by crafting its button's id."""
    discord = linked.discord
    rolled = discord.command("player", "roll", "empty-reach", skill="Force", privacy="self")
    assert rolled["data"].get("flags") == 64  # answered to the roller alone
    store = discord.client.app.state.store
    own = next(e for e in store.log(linked.table.id) if e.privacy == "self")
    assert own.card is not None
    pressed = discord.press("gm", f"rb:x:{own.id}:-")
    assert own.card["outcome"] not in json.dumps(pressed)
    assert "embeds" not in pressed.get("data", {})
    mine = discord.press("player", f"rb:x:{own.id}:-")  # its roller still sees it
    assert own.card["outcome"] in json.dumps(mine)


def test_discord_names_obey_the_webs_name_rules(client: AppClient, discord: Discord) -> None:
    """A display name the web would refuse (a bidi override, invisible-only, NUL, ESC) is
    never seated as it is: the user's plain username stands in for it."""
    table = open_table(client, "empty-reach")
    linked = discord.command("gm", "rulebound", "link", invite=gm_invite(table))
    assert "now plays at" in _content(linked)
    for n, bad in enumerate(("\u202eevil", "\u200b\u200b", "nul\x00name", "esc\x1b[31m")):
        payload = discord.base("player", 2)
        payload["member"]["user"] = {
            "id": str(2 * 10**17 + n),
            "username": "plain",
            "global_name": bad,
        }
        sub = [{"type": 1, "name": "join", "options": []}]
        payload["data"] = {"id": "5", "name": "rulebound", "type": 1, "options": sub}
        discord.answer(payload)
    members = client.get(table.url("/members"), headers=table.seats["gm"]).json()["members"]
    names = [m["name"] for m in members]
    assert all(not any(ch in name for ch in "\u202e\u200b\x00\x1b") for name in names), names
    assert names.count("plain") == 4, names


def test_a_deeply_nested_signed_body_is_a_400(client: AppClient) -> None:
    body = ("[" * 5000 + "]" * 5000).encode()
    answer = client.post(PATH, content=body, headers=signed(body))
    assert answer.status_code == 400, answer.text
