"""Ghostburn's options completed from the game's own data, through the contract
(``Game.suggestions``): the DL offers the ladder's levels, a target's trait the levels of
the trait the trick reads; a trick whose DL comes from the target says what to type."""

from __future__ import annotations

from rulebound.discord.commands import definitions
from rulebound.web.settings import registry_games

from ..client import AppClient
from ..trust.conftest import Table
from .conftest import Discord, link
from .test_commands import _fill_sheet

LEVELS = ["Easy", "Moderate", "Hard", "Daunting", "Extreme"]


def _ghostburn(client: AppClient) -> tuple[Discord, Table]:
    discord = Discord(client)
    table = link(client, discord, "ghostburn")
    discord.command("player", "rulebound", "character", name="Ana")
    _fill_sheet(client, table, "ghostburn")
    return discord, table


def test_the_dl_and_trait_options_autocomplete() -> None:
    commands = {c["name"]: c for c in definitions(registry_games())}
    for verb in ("roll", "odds"):
        sub = next(s for s in commands[verb]["options"] if s["name"] == "ghostburn")
        options = {o["name"]: o for o in sub["options"]}
        assert options["dl"].get("autocomplete") is True
        assert options["trait"].get("autocomplete") is True


def test_dl_offers_the_games_difficulty_levels(client: AppClient) -> None:
    discord, _ = _ghostburn(client)
    offered = discord.complete("player", "roll", "ghostburn", "dl", dl="")
    assert [c["value"] for c in offered["data"]["choices"]] == LEVELS
    assert offered["data"]["choices"][1]["name"] == "Moderate (14)"
    typed = discord.complete("player", "roll", "ghostburn", "dl", dl="ha")
    assert [c["value"] for c in typed["data"]["choices"]] == ["Hard"]


def test_trait_offers_the_trait_the_trick_reads(client: AppClient) -> None:
    discord, _ = _ghostburn(client)
    stare = discord.complete("player", "roll", "ghostburn", "trait", trick="stare-down", trait="")
    assert [c["value"] for c in stare["data"]["choices"]] == [f"resolve={n}" for n in LEVELS]
    jump = discord.complete("player", "odds", "ghostburn", "trait", trick="running-jump", trait="")
    assert all(c["value"].startswith("gap=") for c in jump["data"]["choices"])
    every = discord.complete("player", "roll", "ghostburn", "trait", trait="")
    assert {c["value"].split("=")[0] for c in every["data"]["choices"]} == {"gap", "resolve"}


def test_a_trick_reading_the_targets_trait_says_what_to_type(client: AppClient) -> None:
    discord, table = _ghostburn(client)
    for verb in ("roll", "odds"):
        refused = discord.command("player", verb, "ghostburn", trick="stare-down")
        text = refused["data"]["content"]
        assert "traits.resolve" in text
        assert "Tip: on Discord, give it as `trait:resolve=Easy`" in text, text
        assert "resolve=Moderate" in text
    entries = client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    assert all(e["kind"] != "roll" for e in entries)  # nothing rolled
    rolled = discord.command(
        "player", "roll", "ghostburn", trick="stare-down", trait="resolve=Hard"
    )
    assert rolled["data"].get("embeds"), rolled
    entries = client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    assert entries[0]["kind"] == "roll"
    assert entries[0]["record"]["request"]["traits"] == {"resolve": "Hard"}
