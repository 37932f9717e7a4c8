"""``/rulebound new``: a group starts from nothing in its channel. The table is opened with
the game chosen, linked to the channel, and the one who asked is its game master; then the
players join and play as at any linked table, and the web table shows the same table."""

from __future__ import annotations

from typing import Any, cast

import pytest

from rulebound.store import SqlStore

from ..client import AppClient
from .conftest import Discord


def _store(client: AppClient) -> SqlStore:
    return cast(SqlStore, client.app.state.store)


def test_the_command_offers_every_game(client: AppClient, discord: Discord) -> None:
    from rulebound.discord.commands import definitions

    games = client.app.state.service.games
    (rulebound,) = [c for c in definitions(games) if c["name"] == "rulebound"]
    (new,) = [o for o in rulebound["options"] if o["name"] == "new"]
    offered = {c["value"] for c in new["options"][0]["choices"]}
    assert offered == set(games)


@pytest.mark.parametrize("game", ["rainwall", "legacy"])
def test_a_table_opened_from_discord_is_played_there(
    client: AppClient, discord: Discord, game: str
) -> None:
    before = discord.command("player", "roll", "empty-reach", skill="Force")
    assert "/rulebound new" in before["data"]["content"]  # the unlinked channel says how
    opened = discord.command("gm", "rulebound", "new", game=game, name="Night run")
    text: str = opened["data"]["content"]
    assert "Night run" in text
    assert "as game master" in text
    table = _store(client).channel_table(discord.channel)
    assert table is not None
    assert (table.name, table.ruleset) == ("Night run", game)
    joined = discord.command("player", "rulebound", "join")
    assert "takes a seat at Night run" in joined["data"]["content"]
    made = discord.command("player", "sheet", "create", name="Ana")
    assert made["type"] == 4
    members = {m.name: m.role for m in _store(client).members(table.id)}
    assert "gm" in members.values()
    assert "player" in members.values()


def test_an_unknown_game_is_refused_naming_the_field(client: AppClient, discord: Discord) -> None:
    refused: dict[str, Any] = discord.command("gm", "rulebound", "new", game="chess", name="T")
    assert "Not done" in refused["data"]["content"]
    assert "chess" in refused["data"]["content"]
    assert _store(client).channel_table(discord.channel) is None
