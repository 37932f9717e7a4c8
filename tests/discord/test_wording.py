"""The words of the Discord messages (issue 40): the outcome said once, each mark of a die
once, "impossible" and "certain" for chances of 0 and 1, modal titles that keep their cost, a
blind spend's real reason for a refusal that tells nothing of the result, and a button's
cost. (Counts whose nouns agree, "1 success", and the opposed check naming the character,
"Kara wins", are the games' cards: tests/rainwall/test_card.py, tests/legacy/test_game.py;
a card records the version of its words, so verify holds older logs: docs/security.md.)"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from rulebound.core.canonical import to_jsonable
from rulebound.core.random_source import SeededSource
from rulebound.discord.embeds import buttons, card_embed, die_text, odds_embed
from rulebound.discord.forms import modal
from rulebound.rulesets.contract import Chances, Outcome
from rulebound.store import LogEntry, SqlStore
from rulebound.web.settings import registry_games

from ..client import AppClient
from ..trust.conftest import open_table
from .conftest import Discord, gm_invite
from .test_commands import _fill_sheet
from .test_embeds import FORMS, SEEDS, _sheet

MAX_TITLE = 45


def _text(embed: dict[str, Any], *, odds: bool = True) -> str:
    """Everything an embed shows, as one text (``odds`` False: but the exact chance, which
    names each outcome in the odds' words)."""
    parts = [str(embed.get("title") or ""), str(embed.get("description") or "")]
    parts += [
        f"{f['name']}\n{f['value']}"
        for f in embed.get("fields") or ()
        if odds or not f["name"].startswith("Exact chance")
    ]
    return "\n".join(parts)


# 1. the outcome once


@pytest.mark.parametrize("key", sorted(FORMS))
def test_a_result_embed_says_its_outcome_once(key: str) -> None:
    """As the log sums a roll up ("Ana: <outcome>"), the embed bolds the outcome there."""
    rules = registry_games()[key].table
    sheet = _sheet(key)
    chances = rules.chances(sheet, FORMS[key], {})
    for seed in SEEDS[:10]:
        play = rules.roll(sheet, FORMS[key], {}, SeededSource(seed))
        card = to_jsonable(play.card)
        outcome = card["outcome"]
        embed = card_embed(card, f"Ana: {play.summary}", chances)
        assert _text(embed, odds=False).count(outcome) == 1, (key, _text(embed))
        assert f"**{outcome}**" in embed["description"]
    other = card_embed({"outcome": "Success"}, "Pia kept the result")
    assert other["description"] == "**Success**\nPia kept the result"


# 2. each mark of a die once


def test_a_kept_advantage_die_is_marked_kept_once() -> None:
    rules = registry_games()["legacy"].table
    sheet = _sheet("legacy")
    seen = []
    for seed in SEEDS[:10]:
        play = rules.roll(
            sheet, {"characteristic": "REN", "advantage": True}, {}, SeededSource(seed)
        )
        seen += [die_text(d) for d in to_jsonable(play.card)["dice"]]
    assert any("kept" in text for text in seen), seen
    for text in seen:
        marks = text.rsplit("(", 1)[-1].rstrip(")").split(", ") if "(" in text else []
        assert len(marks) == len(set(marks)), text
    die = {"label": "d20 #1", "face": 5, "marks": ["kept"], "state": "kept"}
    assert die_text(die) == "d20 #1: **5** (kept)"


# 3. impossible and certain


def test_the_odds_say_impossible_and_certain_as_the_web_does() -> None:
    chances = Chances(
        (
            Outcome("hit", "Hit", Fraction(1), True),
            Outcome("miss", "Miss", Fraction(0), False),
        )
    )
    text = odds_embed("Ana", chances)["description"]
    assert "0/1" not in text, text
    assert "1/1" not in text, text
    assert "Miss: impossible" in text
    assert "Hit: certain" in text
    assert "P(success) = certain" in text


def test_an_odds_embed_of_a_real_game_names_no_zero_fraction() -> None:
    rules = registry_games()["rainwall"].table
    chances = rules.chances(_sheet("rainwall"), FORMS["rainwall"], {})
    assert any(o.probability == 0 for o in chances.outcomes)  # the case reported
    text = odds_embed("Ana", chances)["description"]
    assert "0/1 (0.00%)" not in text
    assert ": impossible" in text


# 5. modal titles keep their cost


def _actions() -> list[dict[str, Any]]:
    """Every follow-up the games offer: on the results of rolls (several seeds and forms),
    and their unseen follow-ups."""
    forms = {key: [form] for key, form in FORMS.items()}
    forms["legacy"].append({"characteristic": "REN", "advantage": True})
    forms["rainwall"].append({"skill": "Lockpicking", "dr": 3})
    found: dict[tuple[str, str], dict[str, Any]] = {}
    bonus = {"skills.Lockpicking.score": 5, "skills.Lockpicking.bonus": 3}  # to reallocate
    for key, given in forms.items():
        rules = registry_games()[key].table
        sheet = _sheet(key)
        if key == "rainwall":
            sheet = rules.apply_sheet_form(sheet, bonus)
        for form in given:
            for seed in SEEDS:
                card = to_jsonable(rules.roll(sheet, form, {}, SeededSource(seed)).card)
                for action in card["actions"]:
                    found.setdefault((key, action["key"]), action)
        for view in rules.game.unseen_follow_ups:
            found.setdefault((key, f"unseen {view.key}"), dict(to_jsonable(view)))
    return list(found.values())


def test_every_follow_up_modal_title_fits_and_keeps_its_cost() -> None:
    actions = _actions()
    assert any(a["key"] == "burn-fate" for a in actions)  # the one reported
    assert any(a["key"] == "reallocate" for a in actions)
    for action in actions:
        spends = str(action.get("spends") or "")
        form = modal(7, action["key"], action["label"], spends, list(action["fields"]))
        title = form["data"]["title"]
        assert len(title) <= MAX_TITLE, title
        assert spends in title, (title, spends)
        assert action["label"] in title or len(action["label"]) + len(spends) > MAX_TITLE - 3


def test_the_burn_fate_title_keeps_the_luck_it_costs() -> None:
    form = modal(7, "burn-fate", "Burn a fate point", "1 fate point and 10 LCK", [])
    assert form["data"]["title"] == "Burn a fate point (1 fate point and 10 LCK)"
    long = modal(7, "x", "A follow-up with a rather long name", "1 fate point and 10 LCK", [])
    assert len(long["data"]["title"]) <= MAX_TITLE
    assert "1 fate point and 10 LCK" in long["data"]["title"]


def _last(client: AppClient, table_id: int) -> LogEntry:
    store: SqlStore = client.app.state.store
    return store.log(table_id)[-1]


# 7. a blind Luck Point spend refused for the sheet's reason


def test_a_blind_luck_spend_without_luck_points_says_so(client: AppClient) -> None:
    discord = Discord(client)
    table = open_table(client, "ghostburn")
    discord.command("gm", "rulebound", "link", invite=gm_invite(table))
    discord.command("player", "rulebound", "join")
    discord.command("player", "rulebound", "character", name="Ana")
    _fill_sheet(client, table, "ghostburn")
    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    url = table.url(f"/characters/{rows[0]['id']}")
    emptied = client.patch(url, json={"form": {"luck_points": 0}}, headers=table.seats["gm"])
    assert emptied.status_code == 200, emptied.text
    discord.command("player", "roll", "ghostburn", trick="aimed-shot", privacy="blind")
    entry = _last(client, table.id)
    assert entry.privacy == "blind"
    pressed = discord.press("player", f"rb:f:{entry.id}:spend-luck")
    confirmed = discord.press("player", f"rb:c:{entry.id}:spend-luck:")
    for answer in (pressed, confirmed):
        said = answer["data"].get("content", "")
        assert "hidden result" not in said, said
        assert "no Luck Points left" in said, said
    assert _last(client, table.id).id == entry.id  # nothing logged


# 8. a button says what it costs, as the web table does


def test_a_follow_up_button_says_what_it_costs() -> None:
    actions = [{"key": "push", "label": "Push the roll", "spends": "damage"}]
    label = buttons(3, actions)[0]["components"][0]["label"]
    assert label == "Push the roll · costs damage"
    free = buttons(3, [{"key": "move", "label": "Move points"}])[0]["components"][0]["label"]
    assert free == "Move points"


def test_every_games_buttons_state_their_cost() -> None:
    for action in _actions():
        spends = action.get("spends")
        if not spends:
            continue
        shown = json.dumps(buttons(3, [action]))
        assert f"costs {spends}" in shown, (action["key"], shown)
