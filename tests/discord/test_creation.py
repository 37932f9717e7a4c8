"""Legacy's guided creation from Discord: each step a message with its notes and a form,
through the web's creation code (the same signed state, single-use steps and dice)."""

from __future__ import annotations

from typing import Any

from rulebound.discord.creation import STATE
from rulebound.discord.embeds import EPHEMERAL, MAX_TITLE

from ..client import AppClient
from ..trust.conftest import Table
from .conftest import Discord, link


def _button(answer: dict[str, Any]) -> str:
    return str(answer["data"]["components"][0]["components"][0]["custom_id"])


def _inputs(modal: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["custom_id"]: c for row in modal["data"]["components"] for c in row["components"]}


def _step(discord: Discord, shown: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """Open the step's form with its button, fill it in, submit it: the next message."""
    message = shown["data"]
    asked = discord.press("player", _button(shown), message=message)
    if asked["type"] != 9:
        return asked  # a step that asks nothing is taken by its button
    assert len(asked["data"]["title"]) <= MAX_TITLE
    return discord.submit("player", asked, values, message=message)


def _legacy(client: AppClient) -> tuple[Discord, Table]:
    discord = Discord(client)
    return discord, link(client, discord, "legacy")


def test_guided_creation_step_by_step_makes_the_character(client: AppClient) -> None:
    discord, table = _legacy(client)
    first = discord.command("player", "sheet", "create")
    assert first["data"]["flags"] == EPHEMERAL
    assert first["data"]["embeds"][0]["title"] == "Name, race, origin and soul"
    assert "human (Human)" in first["data"]["embeds"][0]["description"]  # the choices named
    assert _button(first) == "rb:cs:0:0"
    asked = discord.press("player", _button(first), message=first["data"])
    assert set(_inputs(asked)) == {"name", "race", "origin", "soul", "char_class"}
    identity = {"name": "Bea", "race": "human", "origin": "surface", "soul": "human"}
    assign = discord.submit("player", asked, identity, message=first["data"])
    assert assign["type"] == 7, assign
    assert assign["data"]["embeds"][0]["title"] == "Assign the primary characteristics"
    assert assign["data"]["embeds"][1]["title"] == STATE
    secondaries = _step(discord, assign, {})  # the rolled order, as filled in
    assert secondaries["data"]["embeds"][0]["title"] == "Secondary characteristics"
    luck = _step(discord, secondaries, {"reroll": ""})
    assert luck["data"]["embeds"][0]["title"] == "Luck, fate and renown"
    asked = discord.press("player", _button(luck), message=luck["data"])
    offered = _inputs(asked)["affinities"]["placeholder"].split(": ", 1)[1].split(", ")
    made = discord.submit(
        "player", asked, {"affinities": ",".join(offered[:2])}, message=luck["data"]
    )
    assert made["type"] == 7, made
    assert "Pia created Bea" in made["data"]["embeds"][0]["description"]
    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    bea = next(r for r in rows if r["name"] == "Bea")
    assert (bea["sheet"]["race"], bea["sheet"]["origin"]) == ("human", "surface")
    log = client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    assert log[0]["summary"] == "Pia created Bea"
    again = discord.submit("player", asked, {"affinities": ",".join(offered[:2])}, luck["data"])
    assert "Not done" in again["data"]["content"]  # a step is taken once
    assert [r["name"] for r in rows].count("Bea") == 1


def test_a_bad_choice_names_the_field_and_the_choices(client: AppClient) -> None:
    discord, _ = _legacy(client)
    first = discord.command("player", "sheet", "create")
    asked = discord.press("player", _button(first), message=first["data"])
    refused = discord.submit("player", asked, {"name": "Bea", "race": "starfish"}, first["data"])
    text = refused["data"]["content"]
    assert "race" in text
    assert "'starfish'" in text
    assert "human" in text


def test_a_changed_state_is_refused(client: AppClient) -> None:
    discord, _ = _legacy(client)
    first = discord.command("player", "sheet", "create")
    asked = discord.press("player", _button(first), message=first["data"])
    identity = {"name": "Bea", "race": "human", "origin": "surface", "soul": "human"}
    assign = discord.submit("player", asked, identity, message=first["data"])
    forged = dict(assign["data"])
    state = forged["embeds"][1]["description"]
    forged["embeds"] = [forged["embeds"][0], {"title": STATE, "description": "e30" + state[3:]}]
    refused = discord.press("player", _button(assign), message=forged)
    assert "tampered" in refused["data"]["content"]
    elsewhere = discord.press("gm", _button(assign), message=assign["data"])
    assert "tampered" in elsewhere["data"]["content"]  # bound to the member who started it
