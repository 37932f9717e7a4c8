"""``/luck``: the member's own line of the story of the dice, to them alone, the same as
the ledger of their export."""

from __future__ import annotations

from rulebound.discord.embeds import EPHEMERAL
from rulebound.ledger import ledger
from rulebound.render.ledger_text import headline

from .conftest import Discord, Linked


def test_luck_answers_the_member_alone_with_their_line(linked: Linked) -> None:
    discord: Discord = linked.discord
    before = discord.command("player", "luck")
    assert "no checks of yours yet" in before["data"]["content"]
    for _ in range(5):
        discord.command("player", "roll", "empty-reach", skill="Force", character="Ana")
    answer = discord.command("player", "luck")
    assert answer["data"]["flags"] == EPHEMERAL
    found = ledger(linked.table.export("gm"))
    (pia,) = [line for _, line in found.members if line.name == "Pia"]
    assert pia.checks == 5
    assert headline(pia) in answer["data"]["content"]
    assert f"The whole table: {headline(found.whole)}" in answer["data"]["content"]
