"""A whole session in each game from Discord interactions alone: a character made (Legacy's
guided creation, or a blank sheet filled in forms), rolls, a follow-up, the state a session
changes (health, luck, fate) set from ``/sheet``; then the web table's API shows the same
sheet, the same tracks and the same log, and the table's export verifies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..client import AppClient
from ..trust.conftest import Table, verify
from .conftest import Discord, link
from .test_creation import _step

ROLLS: dict[str, dict[str, Any]] = {
    "empty-reach": {"skill": "Force"},
    "rainwall": {"skill": "Lockpicking", "dr": 1},
    "legacy": {"characteristic": "REN"},
    "ghostburn": {"trick": "aimed-shot"},
}
PAGES: dict[str, dict[str, dict[str, str]]] = {  # filled in forms, by their buttons' labels
    "empty-reach": {"Skills 1/3": {"skills.Force": "D8"}},
    "rainwall": {"Skills 1/": {"skills.Lockpicking.score": "6", "skills.Lockpicking.bonus": "3"}},
    "legacy": {},
    "ghostburn": {
        "Abilities": {"abilities.agility": "3"},
        "Skills 1/": {"skills.firearms.bonus": "2"},
        "Luck": {"luck_points": "3", "luck_bonus": "2"},
    },
}
SESSION: dict[str, dict[str, str]] = {  # set with ``/sheet set``, as the API then shows them
    "empty-reach": {"damage": "1", "stress": "2"},
    "rainwall": {"traits.Dexterity": "7"},
    "legacy": {"wounds": "20", "fate": "1", "lck": "15"},
    "ghostburn": {"luck_points": "1"},
}
MAX_ROLLS = 40


def _buttons(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in answer["data"].get("components") or () for c in row["components"]]


def _log(table: Table) -> list[dict[str, Any]]:
    page = table.client.get(table.url("/log?limit=200"), headers=table.seats["gm"]).json()
    return sorted(page["entries"], key=lambda e: int(e["seq"]))


def _made(discord: Discord, key: str) -> None:
    """Ana, by the game's own creation: Legacy's guided steps, else a blank sheet."""
    first = discord.command("player", "sheet", "create", name="Ana")
    if key != "legacy":
        assert "Pia created Ana" in first["data"]["embeds"][0]["description"], first
        return
    identity = {"name": "Ana", "race": "human", "origin": "surface", "soul": "human"}
    shown = _step(discord, first, identity)
    shown = _step(discord, shown, {})
    shown = _step(discord, shown, {"reroll": ""})
    asked = discord.press("player", _buttons(shown)[0]["custom_id"], message=shown["data"])
    inputs = {c["custom_id"]: c for row in asked["data"]["components"] for c in row["components"]}
    offered = inputs["affinities"]["placeholder"].split(": ", 1)[1].split(", ")
    done = discord.submit("player", asked, {"affinities": ",".join(offered[:2])}, shown["data"])
    assert "Pia created Ana" in done["data"]["embeds"][0]["description"], done


def _filled(discord: Discord, key: str) -> None:
    shown = discord.command("player", "sheet", "show")
    for label, values in PAGES[key].items():
        button = next(b for b in _buttons(shown) if b["label"].startswith(f"Edit: {label}"))
        asked = discord.press("player", button["custom_id"])
        shown = discord.submit("player", asked, values)
        assert shown["type"] == 7, (key, label, shown)


def _follow_up(discord: Discord, answer: dict[str, Any]) -> dict[str, Any] | None:
    """Take the result's first follow-up (the rules' own choice where there is one), and
    whatever it asks: its form as filled in, the first die, the confirmation."""
    offered = [b for b in _buttons(answer) if not b.get("disabled")]
    ids = [b["custom_id"] for b in offered]
    first = next((i for i in ids if i.startswith("rb:a:")), None) or next(
        (i for i in ids if i.startswith("rb:f:")), None
    )
    if first is None:
        return None
    step = discord.press("player", first)
    for _ in range(3):
        if step["type"] == 9:
            step = discord.submit("player", step)
            continue
        parts = _buttons(step)
        if parts and parts[0]["type"] == 3:
            step = discord.press("player", parts[0]["custom_id"], [parts[0]["options"][0]["value"]])
        elif parts and parts[0]["custom_id"].startswith("rb:c:"):
            step = discord.press("player", parts[0]["custom_id"])
        else:
            break
    return step if step["type"] == 7 and step["data"].get("embeds") else None


def _rolled_and_followed(discord: Discord, table: Table, key: str) -> dict[str, Any]:
    for _ in range(MAX_ROLLS):
        rolled = discord.command("player", "roll", key, **ROLLS[key])
        assert rolled["data"].get("embeds"), (key, rolled)
        roll = _log(table)[-1]
        assert roll["kind"] == "roll"
        assert roll["card"]["outcome"] in rolled["data"]["embeds"][0]["description"]
        done = _follow_up(discord, rolled)
        if done is not None:
            entry = _log(table)[-1]
            assert (entry["kind"], entry["parent_id"]) == ("follow-up", roll["id"])
            assert entry["card"]["outcome"] in done["data"]["embeds"][0]["description"]
            return entry
    raise AssertionError(f"{key}: no follow-up taken in {MAX_ROLLS} rolls")


def _values(client: AppClient, table: Table) -> dict[str, Any]:
    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    ana = next(r for r in rows if r["name"] == "Ana")
    found = client.get(table.url(f"/characters/{ana['id']}"), headers=table.seats["gm"]).json()
    values: dict[str, Any] = found["values"]
    return values


@pytest.mark.parametrize("key", sorted(ROLLS))
def test_a_whole_session_from_discord_alone(client: AppClient, key: str, tmp_path: Path) -> None:
    discord = Discord(client)
    table = link(client, discord, key)
    _made(discord, key)
    _filled(discord, key)
    followed = _rolled_and_followed(discord, table, key)
    changes = 0  # a set to the value the sheet holds already changes nothing, and logs nothing
    for field, value in SESSION[key].items():
        changes += str(_values(client, table)[field]) != value
        said = discord.command("player", "sheet", "set", field=field, value=value)
        assert said["data"]["content"].startswith("Pia edited Ana."), (key, field, said)
    blind = discord.command("player", "roll", key, privacy="blind", **ROLLS[key])
    assert "embeds" not in blind["data"]
    kept = discord.press("player", f"rb:k:{_log(table)[-1]['id']}:")
    assert "kept the result" in kept["data"]["content"]

    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    ana = next(r for r in rows if r["name"] == "Ana")
    api = client.get(table.url(f"/characters/{ana['id']}"), headers=table.seats["gm"]).json()
    wanted = {f: v for page in PAGES[key].values() for f, v in page.items()}
    wanted |= SESSION[key]
    for field, value in wanted.items():
        assert str(api["values"][field]) == value, (key, field, api["values"][field])
    shown = discord.command("player", "sheet", "show")["data"]["embeds"][0]["description"]
    assert shown == "\n".join(f"**{label}**: {value}" for label, value in api["tracks"])

    log = _log(table)
    kinds = [e["kind"] for e in log if e["character_id"] == ana["id"]]
    assert kinds[0] == "character", kinds  # its creation, then the session
    assert {"roll", "follow-up", "keep", "sheet"} <= set(kinds), kinds
    assert any(e["id"] == followed["id"] for e in log)
    edits = [e["summary"] for e in log if e["kind"] == "sheet"]
    assert edits.count("Pia edited Ana") == len(PAGES[key]) + changes
    assert all(e["dice"] is None or e["dice"]["server_chosen"] for e in log)
    table.reveal()
    assert verify(table.export(), tmp_path).code == 0
