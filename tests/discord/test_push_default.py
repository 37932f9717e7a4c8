"""The push in as few presses as the rules allow: a button that takes the rules' own choice
of dice (one press, and the confirmation its cost asks for), beside the one that opens the
menu of dice; and the result's message with the chance the push gave, not only the roll's."""

from __future__ import annotations

from typing import Any, cast

from fastapi import FastAPI

from rulebound.discord.embeds import buttons, percent
from rulebound.rulesets.plays import params_of, replay
from rulebound.store import LogEntry, SqlStore
from rulebound.web.settings import registry_games

from .conftest import Linked
from .test_buttons import _ids, _stored, pushable


def _default(entry: LogEntry) -> list[int]:
    push = next(a for a in (entry.card or {})["actions"] if a["key"] == "push")
    return [int(i) for i in push["fields"][0]["default"]]


def _labels(answer: dict[str, Any]) -> dict[str, str]:
    return {
        c["custom_id"]: c["label"]
        for row in answer["data"]["components"]
        for c in row["components"]
    }


def _rolled_with_a_default(linked: Linked) -> tuple[dict[str, Any], LogEntry]:
    for _ in range(20):
        answer, entry = pushable(linked)
        if _default(entry):
            return answer, entry
    raise AssertionError("no push with the rules' own dice")


def test_the_default_push_is_one_press_and_its_confirmation(linked: Linked) -> None:
    answer, entry = _rolled_with_a_default(linked)
    labels = _labels(answer)
    default = _default(entry)
    numbers = ", ".join(f"#{i + 1}" for i in default)
    one = f"rb:a:{entry.id}:push"
    assert labels[one].startswith(f"Push the roll: {'die' if len(default) == 1 else 'dice'} ")
    assert numbers in labels[one]
    spends = next(a for a in (entry.card or {})["actions"] if a["key"] == "push")["spends"]
    assert labels[one].endswith(f"· costs {spends}")  # as the web table words it
    assert labels[f"rb:f:{entry.id}:push"] == f"Push the roll: choose the dice · costs {spends}"
    before = len(_stored(linked))
    ask = linked.discord.press("player", one)
    confirm = ask["data"]["components"][0]["components"][0]
    dice = ".".join(map(str, default))
    assert confirm["custom_id"] == f"rb:c:{entry.id}:push:{dice}"
    assert f"spends {spends}" in confirm["label"]
    assert len(_stored(linked)) == before  # nothing before the confirmation
    done = linked.discord.press("player", confirm["custom_id"])
    assert done["type"] == 7
    pushed = _stored(linked)[-1]
    assert (pushed.kind, pushed.parent_id) == ("follow-up", entry.id)
    assert pushed.record["reroll"] == default


def test_the_choice_of_dice_stays(linked: Linked) -> None:
    _, entry = _rolled_with_a_default(linked)
    menu = linked.discord.press("player", f"rb:f:{entry.id}:push")
    assert menu["data"]["components"][0]["components"][0]["custom_id"] == f"rb:d:{entry.id}:push"


def test_a_pushed_result_shows_the_chance_the_push_gave(linked: Linked) -> None:
    answer, entry = _rolled_with_a_default(linked)
    assert f"rb:a:{entry.id}:push" in _ids(answer)
    linked.discord.press("player", f"rb:a:{entry.id}:push")
    dice = ".".join(map(str, _default(entry)))
    done = linked.discord.press("player", f"rb:c:{entry.id}:push:{dice}")
    fields = {f["name"]: f["value"] for f in done["data"]["embeds"][0]["fields"]}
    app = cast(FastAPI, linked.table.client.app)
    store: SqlStore = app.state.store
    records = [e.record for e in store.chain(linked.table.id, _stored(linked)[-1].id)]
    game = registry_games()["empty-reach"].table.game
    decision = game.decision(
        replay(game, records[:1]), "push", params_of(records[1]), replay(game, records)
    )
    assert decision is not None
    after = fields["Exact chance after the follow-up"]
    assert f"P(success) after push the roll: {percent(decision.after)}" in after
    assert f"Keeping the result instead: {percent(decision.before)}" in after
    assert "Exact chance" in fields  # the roll's own odds stay beside it


def test_a_follow_up_without_a_choice_of_dice_keeps_one_button() -> None:
    shown = buttons(3, [{"key": "spend", "label": "Spend", "spends": "1 point", "fields": []}], [])
    ids = [c["custom_id"] for row in shown for c in row["components"]]
    assert ids == ["rb:f:3:spend", "rb:k:3:"]
