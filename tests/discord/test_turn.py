"""``/turn`` on Discord: the web table's turn tracker, its moves logged alike.

Pass criteria: ``/turn show`` answers the user alone with the order, whose turn and the
round; ``/turn next`` by the player whose character it is (or the game master) ends that
turn for the whole channel and logs it; anyone else is refused and nothing is logged.
"""

from __future__ import annotations

from rulebound.discord.embeds import EPHEMERAL

from ..client import AppClient
from .conftest import Linked


def test_turn_shows_the_order_and_ends_a_turn(client: AppClient, linked: Linked) -> None:
    table, discord = linked.table, linked.discord
    none = discord.command("player", "turn", "show")
    assert none["data"] == {"content": "No turn order is under way.", "flags": EPHEMERAL}
    params = {"characters": [linked.character], "others": "Grue", "method": "set"}
    table.post("gm", "/turns/start", {"params": params})
    shown = discord.command("player", "turn", "show")["data"]
    assert shown["content"].splitlines() == ["Round 1: Ana's turn.", "▶ 1. Ana", "2. Grue"]
    ended = discord.command("player", "turn", "next")["data"]
    assert "flags" not in ended  # the channel sees it
    assert ended["content"].splitlines() == [
        "Pia ended Ana's turn. Round 1: Grue's turn",
        "1. Ana",
        "▶ 2. Grue",
    ]
    refused = discord.command("player", "turn", "next")["data"]
    assert refused["content"].startswith("Not done: only the game master")
    discord.command("gm", "turn", "next")
    state = client.get(table.url("/turns"), headers=table.seats["other"]).json()
    assert (state["round"], state["up"]) == (2, f"c{linked.character}")
    log = client.get(table.url("/log"), headers=table.seats["observer"]).json()["entries"]
    assert [e["kind"] for e in log[:3]] == ["turn", "turn", "turn"]
