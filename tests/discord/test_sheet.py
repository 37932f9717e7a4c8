"""``/sheet`` from Discord: a character's sheet shown to its player, its pages edited in
forms within Discord's limits, one field set, all through the web sheet's service (its
validation, its log entry, its version check), for every game."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.discord.embeds import EPHEMERAL, MAX_TITLE
from rulebound.web.settings import registry_games

from ..client import AppClient
from ..trust.conftest import Table, open_table
from .conftest import Discord, Linked, gm_invite, new_channel


def _ids(answer: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in answer["data"]["components"] for c in row["components"]]


def _api(linked: Linked, who: str = "gm") -> dict[str, Any]:
    table = linked.table
    url = table.url(f"/characters/{linked.character}")
    found: dict[str, Any] = table.client.get(url, headers=table.seats[who]).json()
    return found


def _log(table: Table) -> list[dict[str, Any]]:
    page = table.client.get(table.url("/log"), headers=table.seats["gm"]).json()
    return sorted(page["entries"], key=lambda e: int(e["seq"]))


def _page(answer: dict[str, Any], label: str) -> str:
    buttons = [c for row in answer["data"]["components"] for c in row["components"]]
    return str(next(b["custom_id"] for b in buttons if b["label"].startswith(f"Edit: {label}")))


def test_show_answers_the_player_alone_with_tracks_values_and_pages(linked: Linked) -> None:
    shown = linked.discord.command("player", "sheet", "show")
    data = shown["data"]
    assert data["flags"] == EPHEMERAL
    embed = data["embeds"][0]
    assert embed["title"] == "Ana (The Empty Reach)"
    assert "**Health**: 4 / 4" in embed["description"]
    assert any(f["name"].startswith("Skills") for f in embed["fields"])
    ids = _ids(shown)
    assert ids
    assert all(i.startswith(f"rb:se:{linked.character}:") for i in ids)
    assert len(ids) <= 25


def test_a_page_opens_a_form_of_its_fields_filled_with_the_sheet(linked: Linked) -> None:
    shown = linked.discord.command("player", "sheet", "show")
    asked = linked.discord.press("player", _page(shown, "State"))
    assert asked["type"] == 9
    version = _api(linked)["version"]
    page = _page(shown, "State").split(":")[3]
    assert asked["data"]["custom_id"] == f"rb:sm:{linked.character}:{page}:{version}"
    inputs = {c["custom_id"]: c for row in asked["data"]["components"] for c in row["components"]}
    assert set(inputs) == {"base_health", "base_resolve", "damage", "stress"}
    assert inputs["damage"]["value"] == "0"
    assert inputs["damage"]["placeholder"] == "a whole number of at least 0"


def test_a_submitted_page_edits_the_sheet_as_the_web_sheet_does(linked: Linked) -> None:
    shown = linked.discord.command("player", "sheet", "show")
    asked = linked.discord.press("player", _page(shown, "State"))
    before = len(_log(linked.table))
    done = linked.discord.submit("player", asked, {"damage": "2"})
    assert done["type"] == 7
    assert "Damage: 0 → 2" in done["data"]["embeds"][0]["description"]
    assert "**Health**: 2 / 4" in done["data"]["embeds"][0]["description"]
    assert _api(linked)["values"]["damage"] == 2
    log = _log(linked.table)
    assert len(log) == before + 1
    assert (log[-1]["kind"], log[-1]["summary"]) == ("sheet", "Pia edited Ana")
    assert log[-1]["character_id"] == linked.character


def test_a_bad_value_names_the_field_the_value_and_what_it_takes(linked: Linked) -> None:
    shown = linked.discord.command("player", "sheet", "show")
    asked = linked.discord.press("player", _page(shown, "State"))
    before = len(_log(linked.table))
    refused = linked.discord.submit("player", asked, {"damage": "lots"})
    text = refused["data"]["content"]
    assert refused["data"]["flags"] == EPHEMERAL
    assert "damage" in text
    assert "'lots'" in text
    assert "a whole number of at least 0" in text
    bad = linked.discord.command("player", "sheet", "set", field="skills.Force", value="D7")
    assert "skills.Force" in bad["data"]["content"]
    assert "'D7'" in bad["data"]["content"]
    assert "D8" in bad["data"]["content"]
    assert len(_log(linked.table)) == before


def test_a_form_opened_before_another_edit_is_refused_not_lost(linked: Linked) -> None:
    shown = linked.discord.command("player", "sheet", "show")
    asked = linked.discord.press("player", _page(shown, "State"))
    linked.discord.command("gm", "sheet", "set", field="stress", value="1", character="Ana")
    late = linked.discord.submit("player", asked, {"damage": "3"})
    assert "version" in late["data"]["content"]
    assert _api(linked)["values"]["damage"] == 0
    assert _api(linked)["values"]["stress"] == 1


def test_set_changes_one_field_and_says_so_in_the_channel(linked: Linked) -> None:
    done = linked.discord.command("player", "sheet", "set", field="Damage", value="1")
    assert "flags" not in done["data"]
    assert done["data"]["content"] == "Pia edited Ana. Damage: 0 → 1"
    assert _api(linked)["values"]["damage"] == 1
    skill = linked.discord.command("player", "sheet", "set", field="skills.Force", value="D10")
    assert "Force (Strength): — → D10" in skill["data"]["content"]
    assert _api(linked, "player")["sheet"]["skills"]["Force"] == "D10"


def test_set_autocompletes_the_sheets_fields_and_a_fields_values(linked: Linked) -> None:
    fields = linked.discord.complete("player", "sheet", "set", "field", field="dam")
    assert fields["data"]["choices"] == [{"name": "Damage (damage)", "value": "damage"}]
    values = linked.discord.complete(
        "player", "sheet", "set", "value", field="skills.Force", value=""
    )
    assert [c["value"] for c in values["data"]["choices"]] == ["D6", "D8", "D10", "D12"]
    unknown = linked.discord.command("player", "sheet", "set", field="hair", value="red")
    assert "no field 'hair'" in unknown["data"]["content"]
    assert "damage" in unknown["data"]["content"]


def test_the_game_master_sees_any_sheet_and_a_player_only_their_own(linked: Linked) -> None:
    gm = linked.discord.command("gm", "sheet", "show", character="Ana")
    assert gm["data"]["embeds"][0]["title"].startswith("Ana")
    linked.discord.command("other", "rulebound", "join")
    linked.discord.command("other", "rulebound", "character", name="Oli")
    refused = linked.discord.command("other", "sheet", "show", character="Ana")
    assert "No character of yours is called 'Ana' (yours: Oli)" in refused["data"]["content"]
    pressed = linked.discord.press("other", f"rb:se:{linked.character}:0")
    assert "your own characters" in pressed["data"]["content"]


def test_create_makes_a_blank_sheet_in_a_game_without_guided_creation(linked: Linked) -> None:
    made = linked.discord.command("player", "sheet", "create", name="Bea")
    assert made["data"]["embeds"][0]["title"] == "Bea (The Empty Reach)"
    assert "Pia created Bea" in made["data"]["embeds"][0]["description"]
    rows = linked.table.client.get(
        linked.table.url("/characters"), headers=linked.table.seats["gm"]
    ).json()
    assert "Bea" in [r["name"] for r in rows]
    nameless = linked.discord.command("player", "sheet", "create")
    assert "/sheet create name:" in nameless["data"]["content"]


@pytest.mark.parametrize("key", sorted(registry_games()))
def test_every_page_of_every_games_sheet_fits_discords_forms(client: AppClient, key: str) -> None:
    discord = Discord(client, channel=new_channel())
    table = open_table(client, key)
    discord.command("gm", "rulebound", "link", invite=gm_invite(table))
    discord.command("player", "rulebound", "join")
    discord.command("player", "rulebound", "character", name="Ana")
    shown = discord.command("player", "sheet", "show")
    assert len(str(shown)) < 12000
    embed = shown["data"]["embeds"][0]
    size = len(embed["title"]) + len(embed["description"])
    size += sum(len(f["name"]) + len(f["value"]) for f in embed["fields"])
    assert size <= 6000
    assert all(len(f["value"]) <= 1024 for f in embed["fields"])
    rows = shown["data"]["components"]
    assert len(rows) <= 5
    assert all(len(r["components"]) <= 5 for r in rows)
    edited: set[str] = set()
    for custom_id in _ids(shown):
        asked = discord.press("player", custom_id)
        assert asked["type"] == 9, (key, custom_id, asked)
        data = asked["data"]
        assert len(data["title"]) <= MAX_TITLE
        assert len(data["custom_id"]) <= 100
        inputs = [c for row in data["components"] for c in row["components"]]
        assert 1 <= len(inputs) <= 5
        for i in inputs:
            assert len(i["label"]) <= MAX_TITLE, i
            assert len(i.get("placeholder", "")) <= 100, i
            assert len(i.get("value", "")) <= i["max_length"]
        edited |= {i["custom_id"] for i in inputs}
        saved = discord.submit("player", asked)  # as filled in: the sheet as it is
        assert saved["type"] == 7, (key, custom_id, saved)
    rules = registry_games()[key].table
    every = {f.name for f in rules.sheet_view(rules.new_sheet("Ana")).fields}
    assert edited == every, every - edited
