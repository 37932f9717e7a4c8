"""Follow-ups as buttons: push with its dice chosen in a select menu and confirmed first,
keep, cancel; only the roller or the game master may press; every step is logged and the
table's export still verifies."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from fastapi import FastAPI

from rulebound.discord.embeds import EPHEMERAL, marked
from rulebound.discord.followups import NOT_YOURS
from rulebound.discord.interactions import UNSEATED, Interactions
from rulebound.rulesets.contract import Chances
from rulebound.store import Conflict, LogEntry, NotFound, SqlStore

from ..client import AppClient
from ..trust.conftest import open_table, verify
from .conftest import Discord, Linked, gm_invite, new_channel

MAX_TRIES = 40
MARK = "← this roll"


def _stored(linked: Linked) -> list[LogEntry]:
    store: SqlStore = cast(FastAPI, linked.table.client.app).state.store
    return list(store.log(linked.table.id))


def _ids(answer: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in answer["data"]["components"] for c in row["components"]]


def pushable(linked: Linked) -> tuple[dict[str, Any], LogEntry]:
    """Roll until the result offers a push with dice to choose (the dice are the table's
    committed ones, so the test cannot pick them)."""
    for _ in range(MAX_TRIES):
        answer = linked.discord.command("player", "roll", "empty-reach", skill="Force")
        entry = _stored(linked)[-1]
        card = entry.card or {}
        offers = any(a["key"] == "push" and a["available"] for a in card["actions"])
        if offers and any(d["selectable"] for d in card["dice"]):
            return answer, entry
    raise AssertionError(f"no pushable result in {MAX_TRIES} rolls")


def test_push_picks_dice_in_a_select_menu_and_asks_before_it_spends(linked: Linked) -> None:
    answer, entry = pushable(linked)
    assert f"rb:f:{entry.id}:push" in _ids(answer)
    assert f"rb:k:{entry.id}:" in _ids(answer)
    before = len(_stored(linked))
    menu = linked.discord.press("player", f"rb:f:{entry.id}:push")
    assert menu["type"] == 7  # the message itself changes
    select = menu["data"]["components"][0]["components"][0]
    assert select["type"] == 3
    assert select["custom_id"] == f"rb:d:{entry.id}:push"
    selectable = [n for n, d in enumerate((entry.card or {})["dice"]) if d["selectable"]]
    assert [int(o["value"]) for o in select["options"]] == selectable
    chosen = str(selectable[0])
    ask = linked.discord.press("player", f"rb:d:{entry.id}:push", [chosen])
    confirm = ask["data"]["components"][0]["components"][0]
    assert confirm["custom_id"] == f"rb:c:{entry.id}:push:{chosen}"
    assert "spends" in confirm["label"]
    assert len(_stored(linked)) == before  # nothing happens before the confirmation
    done = linked.discord.press("player", confirm["custom_id"])
    assert done["type"] == 7
    pushed = _stored(linked)[-1]
    assert (pushed.kind, pushed.parent_id, pushed.server_chosen) == ("follow-up", entry.id, True)
    assert (pushed.card or {})["outcome"] in done["data"]["embeds"][0]["description"]
    assert pushed.record["reroll"] == [int(chosen)]
    again = linked.discord.press("player", confirm["custom_id"])
    assert "already followed up" in again["data"]["content"]
    assert again["data"]["flags"] == EPHEMERAL


def test_keep_closes_the_roll_and_removes_its_buttons(linked: Linked) -> None:
    _, entry = pushable(linked)
    kept = linked.discord.press("player", f"rb:k:{entry.id}:")
    assert kept["type"] == 7
    assert kept["data"]["components"] == []
    assert "kept the result" in kept["data"]["embeds"][0]["description"]
    last = _stored(linked)[-1]
    assert (last.kind, last.parent_id) == ("keep", entry.id)
    late = linked.discord.press("player", f"rb:f:{entry.id}:push")
    assert "already followed up or kept" in late["data"]["content"]


def test_cancel_puts_the_follow_up_buttons_back(linked: Linked) -> None:
    answer, entry = pushable(linked)
    linked.discord.press("player", f"rb:f:{entry.id}:push")
    back = linked.discord.press("player", f"rb:x:{entry.id}:")
    assert back["type"] == 7
    assert _ids(back) == _ids(answer)
    assert _stored(linked)[-1].id == entry.id


def test_only_the_roller_or_the_game_master_may_press(linked: Linked) -> None:
    _, entry = pushable(linked)
    before = len(_stored(linked))
    stranger = linked.discord.press("other", f"rb:k:{entry.id}:")
    assert stranger["data"] == {"content": UNSEATED, "flags": EPHEMERAL}
    linked.discord.command("other", "rulebound", "join")
    seated = len(_stored(linked))
    assert seated == before + 1  # the join itself
    for button in (f"rb:k:{entry.id}:", f"rb:f:{entry.id}:push", f"rb:c:{entry.id}:push:0"):
        refused = linked.discord.press("other", button)
        assert refused["data"] == {"content": NOT_YOURS, "flags": EPHEMERAL}, button
    assert len(_stored(linked)) == seated
    kept = linked.discord.press("gm", f"rb:k:{entry.id}:")
    assert kept["type"] == 7
    assert _stored(linked)[-1].kind == "keep"


def test_a_button_of_another_tables_roll_is_not_found_here(
    client: AppClient, linked: Linked
) -> None:
    _, entry = pushable(linked)
    elsewhere = Discord(client, channel=new_channel())
    other = open_table(client)
    elsewhere.command("gm", "rulebound", "link", invite=gm_invite(other))
    answer = elsewhere.press("gm", f"rb:k:{entry.id}:")
    assert "not found" in answer["data"]["content"]
    assert _stored(linked)[-1].id == entry.id


def test_a_button_that_is_not_ours_is_refused(linked: Linked) -> None:
    for custom_id in ("something", "rb:f:x:push", "rb:z:1:push", "rb:f:\u00b9:push"):
        answer = linked.discord.press("player", custom_id)
        assert answer["data"]["flags"] == EPHEMERAL, custom_id


def test_the_tables_export_verifies_after_discord_play(linked: Linked, tmp_path: Path) -> None:
    _, entry = pushable(linked)
    ask = linked.discord.press("player", f"rb:f:{entry.id}:push")
    chosen = ask["data"]["components"][0]["components"][0]["options"][0]["value"]
    linked.discord.press("player", f"rb:c:{entry.id}:push:{chosen}")
    linked.discord.command("player", "r", dice="3d6-1")
    linked.discord.command("player", "roll", "empty-reach", skill="Force", privacy="blind")
    drawn = [e for e in _stored(linked) if e.commitment is not None]
    assert len(drawn) >= 4
    assert all(e.server_chosen for e in drawn)  # Discord holds no secret of the player's
    linked.table.reveal()
    assert verify(linked.table.export(), tmp_path).code == 0


def test_a_follow_up_with_inputs_asks_for_them_in_a_form(client: AppClient) -> None:
    """Rainwall's reallocation takes a number per die: the button opens a modal with one
    input each, and submitting it is the follow-up (logged under the roll)."""
    discord = Discord(client)
    table = open_table(client, "rainwall")
    discord.command("gm", "rulebound", "link", invite=gm_invite(table))
    discord.command("player", "rulebound", "join")
    discord.command("player", "rulebound", "character", name="Ana")
    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    form = {"skills.Lockpicking.score": 5, "skills.Lockpicking.bonus": 3}
    url = table.url(f"/characters/{rows[0]['id']}")
    assert client.patch(url, json={"form": form}, headers=table.seats["gm"]).status_code == 200
    rolled = discord.command("player", "roll", "rainwall", skill="Lockpicking", dr=1)
    ids = [c["custom_id"] for r in rolled["data"]["components"] for c in r["components"]]
    button = next(i for i in ids if i.endswith(":reallocate"))
    entry = int(button.split(":")[2])
    asked = discord.press("player", button)
    assert asked["type"] == 9
    assert asked["data"]["custom_id"] == f"rb:m:{entry}:reallocate"
    inputs = [c for row in asked["data"]["components"] for c in row["components"]]
    assert inputs
    assert all(i["type"] == 4 and i["custom_id"].startswith("allocation.") for i in inputs)
    store: SqlStore = client.app.state.store
    assert store.log(table.id)[-1].id == entry  # nothing logged by opening the form
    submitted = {
        "custom_id": f"rb:m:{entry}:reallocate",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": i["custom_id"], "value": "0"}]}
            for i in inputs
        ],
    }
    answer = discord.answer(discord.base("player", 5) | {"data": submitted})
    assert answer["type"] == 7
    followed = store.log(table.id)[-1]
    assert (followed.kind, followed.parent_id) == ("follow-up", entry)
    assert followed.card is not None
    assert followed.card["outcome"] in answer["data"]["embeds"][0]["description"]
    refused = discord.answer(discord.base("other", 5) | {"data": submitted})
    assert refused["data"]["content"] == UNSEATED


def _chance_field(answer: dict[str, Any]) -> str:
    fields = {f["name"]: f["value"] for f in answer["data"]["embeds"][0]["fields"]}
    return str(fields["Exact chance"])


def test_a_follow_ups_message_shows_the_exact_chance_its_roll_had(linked: Linked) -> None:
    """After a push (and a cancel, and a keep) the embed has the first embed's odds, with the
    outcome the result stands at now marked."""
    answer, entry = pushable(linked)
    first = _chance_field(answer)
    unmarked = first.replace(f" {MARK}", "")
    menu = linked.discord.press("player", f"rb:f:{entry.id}:push")
    chosen = menu["data"]["components"][0]["components"][0]["options"][0]["value"]
    done = linked.discord.press("player", f"rb:c:{entry.id}:push:{chosen}")
    pushed = _stored(linked)[-1]
    after = _chance_field(done)
    assert after.replace(f" {MARK}", "") == unmarked
    assert after.count(MARK) == 1
    chances = _odds(linked, pushed)
    landed = next(o for o in chances.outcomes if o.key == marked(chances, pushed.card or {}))
    assert next(line for line in after.splitlines() if MARK in line).startswith(landed.label)
    back = linked.discord.press("player", f"rb:x:{pushed.id}:")
    assert _chance_field(back) == after
    kept = linked.discord.press("player", f"rb:k:{pushed.id}:")
    assert _chance_field(kept) == after


def _odds(linked: Linked, entry: LogEntry) -> Chances:
    app = cast(FastAPI, linked.table.client.app)
    handler: Interactions = app.state.discord
    store: SqlStore = app.state.store
    chances = handler.followups.odds_of(store.table(linked.table.id), entry)[0]
    assert chances is not None
    return chances


def _blind(linked: Linked) -> tuple[dict[str, Any], LogEntry]:
    answer = linked.discord.command("player", "roll", "empty-reach", skill="Force", privacy="blind")
    return answer, _stored(linked)[-1]


def _shows_no_result(answer: dict[str, Any], entry: LogEntry) -> None:
    data = answer["data"]
    assert "embeds" not in data
    assert (entry.card or {})["outcome"] not in data["content"]
    assert "the game master sees the result" in data["content"].lower()


def test_a_blind_roll_offers_its_roller_the_games_unseen_follow_ups(linked: Linked) -> None:
    """As on the web table: the follow-ups that are the same whatever the result (Empty
    Reach's push), confirmed first, the rules choosing the dice; nothing of the result shows."""
    for _ in range(MAX_TRIES):
        answer, entry = _blind(linked)
        assert entry.privacy == "blind"
        _shows_no_result(answer, entry)
        assert _ids(answer) == [f"rb:f:{entry.id}:push", f"rb:k:{entry.id}:"]
        ask = linked.discord.press("player", f"rb:f:{entry.id}:push")
        assert ask["type"] == 7
        confirm = ask["data"]["components"][0]["components"][0]
        assert confirm["custom_id"] == f"rb:c:{entry.id}:push:"
        assert "blind" in confirm["label"]
        assert "spends damage or stress" in confirm["label"]
        assert _stored(linked)[-1].id == entry.id  # nothing before the confirmation
        done = linked.discord.press("player", confirm["custom_id"])
        if "hidden result does not allow it" in done["data"].get("content", ""):
            assert _stored(linked)[-1].id == entry.id  # a result no push can take: try again
            continue
        pushed = _stored(linked)[-1]
        assert (pushed.kind, pushed.parent_id, pushed.privacy) == ("follow-up", entry.id, "blind")
        assert done["type"] == 7
        _shows_no_result(done, pushed)
        assert "Push the roll" in done["data"]["content"]
        assert done["data"]["components"] == []
        return
    raise AssertionError(f"no blind roll could be pushed in {MAX_TRIES} rolls")


def test_a_blind_roll_is_kept_or_cancelled_without_showing_it(linked: Linked) -> None:
    answer, entry = _blind(linked)
    linked.discord.press("player", f"rb:f:{entry.id}:push")
    back = linked.discord.press("player", f"rb:x:{entry.id}:")
    assert back["data"] == answer["data"] | {"components": back["data"]["components"]}
    assert _ids(back) == _ids(answer)
    refused = linked.discord.press("other", f"rb:k:{entry.id}:")
    assert refused["data"]["flags"] == EPHEMERAL
    kept = linked.discord.press("player", f"rb:k:{entry.id}:")
    last = _stored(linked)[-1]
    assert (last.kind, last.parent_id) == ("keep", entry.id)
    _shows_no_result(kept, entry)
    assert "kept the result" in kept["data"]["content"]


def test_the_game_master_pressing_a_blind_rolls_button_shows_nothing_in_the_channel(
    linked: Linked,
) -> None:
    """The message is the channel's: even the game master's press keeps it blind."""
    _answer, entry = _blind(linked)
    kept = linked.discord.press("gm", f"rb:k:{entry.id}:")
    _shows_no_result(kept, entry)
    assert "Gina: kept the result" in kept["data"]["content"]


def test_open_chain_says_what_a_follow_up_would_refuse(linked: Linked) -> None:
    """The service's public check, as Discord asks it before a menu or a confirmation."""
    app = linked.table.client.app
    _, entry = pushable(linked)
    viewer = app.state.discord.viewer(linked.discord.base("player", 3))
    assert app.state.service.open_chain(viewer, entry.id).id == entry.id
    linked.discord.press("player", f"rb:k:{entry.id}:")
    with pytest.raises(Conflict, match="already followed up or kept"):
        app.state.service.open_chain(viewer, entry.id)
    _, blind = _blind(linked)
    linked.discord.command("other", "rulebound", "join")
    other = app.state.discord.viewer(linked.discord.base("other", 3))
    with pytest.raises(NotFound):
        app.state.service.open_chain(other, blind.id)  # a blind roll is not the others'
