"""Linking, joining, /roll, /odds and /r through signed interactions: each answer in the
game's words with the exact chance, each roll a log entry of the linked table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest
from fastapi import FastAPI

from rulebound.discord.commands import MAX_COMMAND_TEXT, definitions, game_options
from rulebound.discord.embeds import EPHEMERAL
from rulebound.discord.interactions import REVOKED, UNLINKED, UNSEATED
from rulebound.store import SqlStore
from rulebound.web.settings import registry_games

from ..client import AppClient
from ..trust.conftest import Table, open_table
from .conftest import Discord, Linked, gm_invite, link, new_channel


def _log(linked: Linked) -> list[dict[str, Any]]:
    table = linked.table
    page = table.client.get(table.url("/log"), headers=table.seats["gm"]).json()
    return sorted(page["entries"], key=lambda e: int(e["seq"]))  # oldest first


def _chance(client: AppClient, linked: Linked, form: dict[str, Any]) -> Fraction:
    table = linked.table
    url = table.url(f"/characters/{linked.character}/chances")
    answer = client.post(url, json={"form": form}, headers=table.seats["gm"])
    assert answer.status_code == 200, answer.text
    return Fraction(answer.json()["success"]["p"])


@pytest.mark.parametrize(
    ("command", "sub", "options"),
    [
        ("roll", "empty-reach", {"skill": "Force"}),
        ("r", None, {"dice": "2d6"}),
        ("rulebound", "join", {}),
    ],
)
def test_an_unlinked_channel_says_how_to_link_it(
    discord: Discord, command: str, sub: str | None, options: dict[str, Any]
) -> None:
    answer = discord.command("player", command, sub, **options)
    assert answer["data"] == {"content": UNLINKED, "flags": EPHEMERAL}


def test_only_the_game_masters_invite_links_a_channel(client: AppClient, discord: Discord) -> None:
    table = open_table(client)
    invites = client.get(table.url(), headers=table.seats["gm"]).json()["invites"]
    refused = discord.command("gm", "rulebound", "link", invite=invites["player"])
    assert "player invite" in refused["data"]["content"]
    assert refused["data"]["flags"] == EPHEMERAL
    unknown = discord.command("gm", "rulebound", "link", invite="https://x.example/join/nope")
    assert "invite" in unknown["data"]["content"]
    assert "not found" in unknown["data"]["content"]
    linked = discord.command("gm", "rulebound", "link", invite=invites["gm"])
    assert "now plays at **Night run** (The Empty Reach)" in linked["data"]["content"]
    assert "flags" not in linked["data"]  # the channel sees it


def test_join_seats_each_discord_user_once_as_a_player(client: AppClient, discord: Discord) -> None:
    table = link(client, discord)
    again = discord.command("player", "rulebound", "join")
    assert "already have a seat" in again["data"]["content"]
    members = client.get(table.url(), headers=table.seats["gm"]).json()["members"]
    names = [(m["name"], m["role"]) for m in members]
    assert names.count(("Pia", "player")) == 2  # one seated on the web, one from Discord
    assert ("Gina", "gm") in names
    log = client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
    summaries = [e["summary"] for e in log]
    assert "Pia joined as player from Discord" in summaries
    assert "Gina joined as game master from Discord" in summaries


def test_a_user_without_a_seat_is_told_to_join(client: AppClient, discord: Discord) -> None:
    link(client, discord)
    answer = discord.command("other", "roll", "empty-reach", skill="Force")
    assert answer["data"] == {"content": UNSEATED, "flags": EPHEMERAL}


def test_roll_answers_with_dice_outcome_and_exact_chance_and_logs_the_roll(
    client: AppClient, linked: Linked
) -> None:
    answer = linked.discord.command("player", "roll", "empty-reach", skill="Force")
    assert answer["type"] == 4
    assert "flags" not in answer["data"]
    embed = answer["data"]["embeds"][0]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    chance = _chance(client, linked, {"skill": "Force"})
    assert f"P(success) = {chance.numerator}/{chance.denominator}" in fields["Exact chance"]
    entry = _log(linked)[-1]
    assert entry["kind"] == "roll"
    assert entry["card"]["outcome"] in embed["description"]
    for die in entry["card"]["dice"]:
        assert f"{die['label']}: **{die['face']}**" in fields["Dice"]
    proof = client.get(
        linked.table.url(f"/entries/{entry['id']}"), headers=linked.table.seats["gm"]
    ).json()
    assert proof["summary"].startswith("Ana: ")


def test_roll_with_the_other_games_subcommand_names_the_right_one(linked: Linked) -> None:
    answer = linked.discord.command("player", "roll", "rainwall", skill="x", dr=1)
    assert "plays The Empty Reach: use `/roll empty-reach`" in answer["data"]["content"]


def test_a_bad_option_value_is_named_with_what_is_accepted(linked: Linked) -> None:
    answer = linked.discord.command("player", "roll", "empty-reach", skill="Juggling")
    text = answer["data"]["content"]
    assert "skill" in text
    assert "'Juggling'" in text
    assert "Force" in text
    assert answer["data"]["flags"] == EPHEMERAL


def test_a_character_is_chosen_by_name_and_only_among_ones_own(
    client: AppClient, linked: Linked
) -> None:
    linked.table.character("gm", "Npc")  # the game master's, not the player's
    named = linked.discord.command("player", "roll", "empty-reach", skill="Force", character="ana")
    assert named["data"]["embeds"]
    refused = linked.discord.command(
        "player", "roll", "empty-reach", skill="Force", character="Npc"
    )
    assert "No character of yours is called 'Npc' (yours: Ana)" in refused["data"]["content"]


def test_odds_are_exact_and_for_the_asker_alone(client: AppClient, linked: Linked) -> None:
    before = len(_log(linked))
    answer = linked.discord.command("player", "odds", "empty-reach", skill="Force", helpers=1)
    assert answer["data"]["flags"] == EPHEMERAL
    text = answer["data"]["embeds"][0]["description"]
    chance = _chance(client, linked, {"skill": "Force", "helpers": 1})
    assert f"P(success) = {chance.numerator}/{chance.denominator}" in text
    assert len(_log(linked)) == before  # odds roll nothing


def test_free_roll_uses_the_dice_expression_and_is_logged(linked: Linked) -> None:
    answer = linked.discord.command("player", "r", dice="2d6 + 3")
    embed = answer["data"]["embeds"][0]
    assert embed["title"] == "/r 2d6+3"
    entry = _log(linked)[-1]
    assert entry["kind"] == "free-roll"
    faces = [d["face"] for d in entry["card"]["dice"]]
    assert len(faces) == 2
    assert f"Total {sum(faces) + 3}" in embed["description"]
    bad = linked.discord.command("player", "r", dice="2d6 +")
    assert "dice" in bad["data"]["content"]
    assert "at the end" in bad["data"]["content"]


@pytest.mark.parametrize("privacy", ["gm", "self"])
def test_game_master_only_and_self_rolls_are_ephemeral(linked: Linked, privacy: str) -> None:
    answer = linked.discord.command("player", "roll", "empty-reach", skill="Force", privacy=privacy)
    assert answer["data"]["flags"] == EPHEMERAL
    assert answer["data"]["embeds"]
    store: SqlStore = cast(FastAPI, linked.table.client.app).state.store
    stored = store.log(linked.table.id)[-1]
    assert (stored.kind, stored.privacy) == ("roll", privacy)


def test_a_blind_roll_says_only_that_a_roll_happened(linked: Linked) -> None:
    answer = linked.discord.command("player", "roll", "empty-reach", skill="Force", privacy="blind")
    assert answer["data"]["content"] == "Pia made a blind roll: the game master sees the result."
    assert "embeds" not in answer["data"]
    assert "flags" not in answer["data"]
    entry = _log(linked)[-1]
    assert entry["privacy"] == "blind"
    assert entry["card"]["outcome"]
    free = linked.discord.command("player", "r", dice="d20", privacy="blind")
    assert "embeds" not in free["data"]
    assert "blind roll" in free["data"]["content"]


def test_autocomplete_offers_the_members_characters_and_their_skills(linked: Linked) -> None:
    names = linked.discord.complete("player", "roll", "empty-reach", "character", character="")
    assert names == {
        "type": 8,
        "data": {"choices": [{"name": "Ana", "value": str(linked.character)}]},
    }
    skills = linked.discord.complete("player", "roll", "empty-reach", "skill", skill="for")
    assert skills["data"]["choices"] == [{"name": "Force (D8)", "value": "Force"}]
    everything = linked.discord.complete("player", "roll", "empty-reach", "skill", skill="")
    assert 1 < len(everything["data"]["choices"]) <= 25


def test_every_game_links_and_rolls_from_its_own_fields(client: AppClient) -> None:
    """For each registered game: a channel of its own, a character, and a roll with the
    required options filled from autocomplete (no per-game code in the test either)."""
    options = game_options(registry_games())
    for key, game in sorted(options.items()):
        discord = Discord(client, channel=new_channel())
        table = open_table(client, game.key)
        discord.command("gm", "rulebound", "link", invite=gm_invite(table))
        discord.command("player", "rulebound", "join")
        made = discord.command("player", "rulebound", "character", name="Ana")
        assert "created Ana" in made["data"]["content"], (key, made)
        _fill_sheet(client, table, game.key)
        given: dict[str, Any] = {}
        asked = [f for f in game.fields if f.required]
        odds: dict[str, Any] = {}
        for _ in range(6):  # as a user would: fill what is required, then what the answer names
            for field in asked:
                name = field.name.replace(".", "-").lower()
                if field.kind in ("select", "multiselect"):
                    offered = discord.complete("player", "roll", key, name, **{name: ""})
                    choices = offered["data"]["choices"]
                    assert choices, (key, name)
                    given[name] = choices[0]["value"]
                elif field.kind == "int":
                    given[name] = field.default if isinstance(field.default, int) else 1
                else:
                    given[name] = "1"  # a text field (a level): its lowest
            odds = discord.command("player", "odds", key, **given)
            if "embeds" in odds["data"]:
                break
            named = str(odds["data"]["content"]).removeprefix("Not done: ").split(":")[0]
            asked = [f for f in game.fields if f.name == named]
            assert asked, (key, odds)
        assert "embeds" in odds["data"], (key, given, odds)
        assert "P(" in odds["data"]["embeds"][0]["description"], (key, odds)
        rolled = discord.command("player", "roll", key, **given)
        assert rolled["data"].get("embeds"), (key, rolled)
        log = client.get(table.url("/log"), headers=table.seats["gm"]).json()["entries"]
        assert log[0]["kind"] == "roll", key  # the newest


def _fill_sheet(client: AppClient, table: Table, key: str) -> None:
    """The game master gives the blank sheet a middling value in each of its numbers (the
    sheet's own edit form, so that a game whose skills come from the sheet has one)."""
    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    row = next(r for r in rows if r["name"] == "Ana")
    rules = registry_games()[key].table
    view = rules.sheet_view(rules.new_sheet("Ana"))
    form = {
        f.name: (f.minimum + f.maximum) // 2
        for f in view.fields
        if f.kind == "int" and f.minimum is not None and f.maximum is not None
    }
    url = table.url(f"/characters/{row['id']}")
    patched = client.patch(url, json={"form": form}, headers=table.seats["gm"])
    assert patched.status_code == 200, (key, patched.text)


def test_the_definitions_follow_discords_rules() -> None:
    commands = definitions(registry_games())
    assert [c["name"] for c in commands] == [
        "rulebound",
        "roll",
        "odds",
        "r",
        "turn",
        "luck",
        "sheet",
    ]
    for command in commands:
        for sub in command.get("options", []):  # /luck has none
            opts = sub.get("options", [])
            assert len(opts) <= 25
            names = [o["name"] for o in opts]
            assert len(names) == len(set(names))
            required = [o.get("required", False) for o in opts]
            assert required == sorted(required, reverse=True), sub["name"]  # required first
            for o in opts:
                assert 1 <= len(o["description"]) <= 100
                assert o["name"] == o["name"].lower()
                assert len(o["name"]) <= 32
                assert not ("choices" in o and o.get("autocomplete"))
    for command in commands:
        assert len(command.get("options", [])) <= 25
        assert _text_size(command) <= MAX_COMMAND_TEXT, command["name"]
    roll = [sub["name"] for sub in commands[1]["options"]]
    assert roll == [sub["name"] for sub in commands[2]["options"]]
    assert set(registry_games()) <= set(roll)  # each game's first subcommand is its key


def _text_size(node: Any) -> int:
    """What Discord counts against a command's 8000: every name, description and value."""
    if isinstance(node, list):
        return sum(_text_size(item) for item in node)
    if not isinstance(node, dict):
        return 0
    own = sum(len(str(node[k])) for k in ("name", "description", "value") if k in node)
    return own + sum(_text_size(v) for k, v in node.items() if isinstance(v, list | dict))


def test_no_field_of_any_game_is_dropped() -> None:
    """Every roll field but dice (chosen on a result) is an option of a subcommand of its
    game; each subcommand has the required ones; the web's sheet pickers are there too."""
    games = registry_games()
    subs = game_options(games)
    for key, game in games.items():
        mine = [sub for sub in subs.values() if sub.key == key]
        assert mine[0].name == key
        offered = {f.name for sub in mine for f in sub.fields}
        wanted = {f.name for f in game.table.sheets.choice_fields if f.kind != "dice"}
        assert offered == wanted, (key, wanted - offered)
        required = {f.name for f in game.table.sheets.choice_fields if f.required}
        assert all(required <= {f.name for f in sub.fields} for sub in mine), key
    legacy = [sub.name for sub in subs.values() if sub.key == "legacy"]
    assert legacy == ["legacy", "legacy-opposed-check"]


def test_a_revoked_seat_cannot_act_from_discord(client: AppClient, linked: Linked) -> None:
    table = linked.table
    members = client.get(table.url(), headers=table.seats["gm"]).json()["members"]
    pia = max(m["id"] for m in members if m["name"] == "Pia")  # the seat taken from Discord
    revoked = client.patch(
        table.url(f"/members/{pia}"), json={"revoked": True}, headers=table.seats["gm"]
    )
    assert revoked.status_code == 200, revoked.text
    for command, sub, options in (
        ("roll", "empty-reach", {"skill": "Force"}),
        ("r", None, {"dice": "d6"}),
        ("rulebound", "character", {"name": "Bo"}),
    ):
        answer = linked.discord.command("player", command, sub, **options)
        assert answer["data"] == {"content": REVOKED, "flags": EPHEMERAL}, command


def test_linking_again_moves_the_channel_to_the_new_table(
    client: AppClient, discord: Discord
) -> None:
    link(client, discord)
    second = open_table(client, "rainwall")
    moved = discord.command("gm", "rulebound", "link", invite=gm_invite(second))
    assert "(Rainwall)" in moved["data"]["content"]
    answer = discord.command("player", "roll", "empty-reach", skill="Force")
    assert answer["data"] == {"content": UNSEATED, "flags": EPHEMERAL}  # a new table: join it


def test_autocomplete_in_an_unlinked_channel_offers_nothing(discord: Discord) -> None:
    answer = discord.complete("player", "roll", "empty-reach", "skill", skill="F")
    assert answer == {"type": 8, "data": {"choices": []}}
