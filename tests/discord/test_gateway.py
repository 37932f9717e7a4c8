"""Interactions over Discord's gateway (``discord.gateway``), against a local fake of Discord
(``fake_gateway``): each kind of interaction delivered as a dispatch and answered at its
callback, the session kept across Reconnect, Resume and Invalid Session, an interaction
answered once, the bot token in no log, and both transports giving the same answers.

The fake Discord and the bot run on an event loop in a thread of their own (an anyio
portal, as ``AppClient`` runs the app), so the tests drive them from plain functions, with
the same ``Discord`` helpers the HTTP tests use.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from click.testing import CliRunner
from fastapi import FastAPI

from rulebound.app import create_app
from rulebound.cli.app import app as cli_app
from rulebound.discord.embeds import EPHEMERAL
from rulebound.discord.gateway import Bot, Gateway, run
from rulebound.discord.interactions import UNLINKED, UNSEATED, Interactions
from rulebound.store import LogEntry, SqlStore

from ..client import AppClient
from ..trust.conftest import open_table, trust_settings
from .conftest import Discord, Linked, gm_invite, link, new_channel
from .fake_gateway import SECRET, TOKEN, FakeDiscord, snowflake

GATEWAY_LOG = "rulebound.discord.gateway"


@dataclass
class OverGateway(Discord):
    """Sends interactions as Discord's gateway delivers them: a dispatch on the bot's
    websocket; the answer is the body the bot posts to the interaction's callback."""

    portal: BlockingPortal = field(kw_only=True)
    fake: FakeDiscord = field(kw_only=True)

    def base(self, who: str, kind: int) -> dict[str, Any]:
        return super().base(who, kind) | {"id": snowflake()}  # made now: older ones are refused

    def answer(self, payload: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = self.portal.call(self.fake.interact, payload)
        return answer


async def _connected(handler: Interactions, fake: FakeDiscord, token: str = TOKEN) -> Gateway:
    gateway = Gateway(handler, Bot(token, fake.api))
    await gateway.start()
    return gateway


@contextmanager
def fake_discord() -> Iterator[tuple[BlockingPortal, FakeDiscord]]:
    with start_blocking_portal(backend="asyncio") as portal:
        fake = FakeDiscord()
        portal.call(fake.start)
        try:
            yield portal, fake
        finally:
            portal.call(fake.stop)


@contextmanager
def hosted(client: AppClient, channel: str) -> Iterator[OverGateway]:
    """The app's handler behind a bot connected to a fake Discord."""
    handler: Interactions = client.app.state.discord
    with fake_discord() as (portal, fake):
        gateway = portal.call(_connected, handler, fake)
        try:
            yield OverGateway(client, channel, portal=portal, fake=fake)
        finally:
            portal.call(gateway.stop)


@pytest.fixture
def bot(client: AppClient, discord: Discord) -> Iterator[OverGateway]:
    """Over the gateway, in the HTTP helper's channel (so both reach the same table)."""
    with hosted(client, discord.channel) as over:
        yield over


def _seated(client: AppClient, bot: OverGateway, ruleset: str = "empty-reach") -> Linked:
    """A table linked, joined and given a character, every step over the gateway."""
    table = link(client, bot, ruleset)
    made = bot.command("player", "rulebound", "character", name="Ana")
    assert "created Ana" in made["data"]["content"], made
    rows = client.get(table.url("/characters"), headers=table.seats["gm"]).json()
    return Linked(table, bot, int(rows[0]["id"]))


def _last(client: AppClient, table_id: int) -> LogEntry:
    store: SqlStore = client.app.state.store
    return store.log(table_id)[-1]


def _roll(base: dict[str, Any]) -> dict[str, Any]:
    force = {"name": "skill", "type": 3, "value": "Force"}
    roll = {"type": 1, "name": "empty-reach", "options": [force]}
    return base | {"data": {"name": "roll", "type": 1, "options": [roll]}}


def _until(test: Callable[[], bool], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


# each kind of interaction


def test_a_command_is_answered_at_its_callback(client: AppClient, bot: OverGateway) -> None:
    seated = _seated(client, bot)
    payload = _roll(bot.base("player", 2))
    answer = bot.answer(payload)
    assert answer["type"] == 4
    assert answer["data"]["embeds"]
    assert "flags" not in answer["data"]  # public: in the channel
    assert (_last(client, seated.table.id).kind, _last(client, seated.table.id).privacy) == (
        "roll",
        "public",
    )
    [sent] = [c for c in bot.fake.callbacks if c.interaction == payload["id"]]
    assert sent.token == payload["token"]
    assert sent.authorization is None  # the interaction's token is the authority, not the bot's
    [identified] = bot.fake.identified
    assert identified["intents"] == 0  # no intents: interactions come to every bot
    callbacks = "/api/v10/interactions/{id}/{token}/callback"
    paths = {(m, callbacks if "/interactions/" in p else p) for m, p, _ in bot.fake.requests}
    assert paths == {("GET", "/api/v10/gateway/bot"), ("POST", callbacks)}  # nothing else
    assert bot.fake.requests[0][2] == f"Bot {TOKEN}"


def test_buttons_and_a_select_menu_update_the_message(client: AppClient, bot: OverGateway) -> None:
    """Push: the button opens a select menu of the dice, choosing asks to confirm, confirming
    pushes; keep closes the roll (the dice are the table's: roll until a push is offered)."""
    seated = _seated(client, bot)
    for _ in range(40):
        bot.command("player", "roll", "empty-reach", skill="Force")
        entry = _last(client, seated.table.id)
        card = entry.card or {}
        dice = [str(n) for n, die in enumerate(card["dice"]) if die["selectable"]]
        if dice and any(a["key"] == "push" and a["available"] for a in card["actions"]):
            break
    else:
        raise AssertionError("no pushable result in 40 rolls")
    menu = bot.press("player", f"rb:f:{entry.id}:push")
    [select] = [
        c for row in menu["data"]["components"] for c in row["components"] if c["type"] == 3
    ]
    assert (menu["type"], select["custom_id"]) == (7, f"rb:d:{entry.id}:push")
    ask = bot.press("player", select["custom_id"], dice[:1])
    confirm = f"rb:c:{entry.id}:push:{dice[0]}"
    assert confirm in [
        c["custom_id"] for row in ask["data"]["components"] for c in row["components"]
    ]
    pushed = bot.press("player", confirm)
    assert pushed["type"] == 7
    followed = _last(client, seated.table.id)
    assert (followed.kind, followed.parent_id) == ("follow-up", entry.id)
    kept = bot.press("player", f"rb:k:{followed.id}:")
    assert (kept["type"], kept["data"]["components"]) == (7, [])
    stranger = bot.press("other", f"rb:k:{entry.id}:")
    assert stranger["data"] == {"content": UNSEATED, "flags": EPHEMERAL}


def test_a_modal_is_opened_and_its_submission_is_the_follow_up(
    client: AppClient, bot: OverGateway
) -> None:
    seated = _seated(client, bot, "rainwall")
    form = {"skills.Lockpicking.score": 5, "skills.Lockpicking.bonus": 3}
    url = seated.table.url(f"/characters/{seated.character}")
    assert (
        client.patch(url, json={"form": form}, headers=seated.table.seats["gm"]).status_code == 200
    )
    rolled = bot.command("player", "roll", "rainwall", skill="Lockpicking", dr=1)
    ids = [c["custom_id"] for r in rolled["data"]["components"] for c in r["components"]]
    button = next(i for i in ids if i.endswith(":reallocate"))
    entry = int(button.split(":")[2])
    asked = bot.press("player", button)
    assert asked["type"] == 9
    inputs = [c for row in asked["data"]["components"] for c in row["components"]]
    answer = bot.submit("player", asked, {i["custom_id"]: "0" for i in inputs})
    assert answer["type"] == 7
    followed = _last(client, seated.table.id)
    assert (followed.kind, followed.parent_id) == ("follow-up", entry)


def test_autocomplete_answers_choices(client: AppClient, bot: OverGateway) -> None:
    seated = _seated(client, bot)
    names = bot.complete("player", "roll", "empty-reach", "character", character="")
    assert names == {
        "type": 8,
        "data": {"choices": [{"name": "Ana", "value": str(seated.character)}]},
    }
    skills = bot.complete("player", "roll", "empty-reach", "skill", skill="for")
    assert skills["data"]["choices"] == [{"name": "Force (D8)", "value": "Force"}]


def test_a_user_without_a_seat_is_refused(client: AppClient, bot: OverGateway) -> None:
    assert bot.command("player", "roll", "empty-reach", skill="Force")["data"] == {
        "content": UNLINKED,
        "flags": EPHEMERAL,
    }
    _seated(client, bot)
    refused = bot.command("other", "roll", "empty-reach", skill="Force")
    assert refused["data"] == {"content": UNSEATED, "flags": EPHEMERAL}


@pytest.mark.parametrize("privacy", ["gm", "self"])
def test_game_master_only_and_self_rolls_are_ephemeral(
    client: AppClient, bot: OverGateway, privacy: str
) -> None:
    seated = _seated(client, bot)
    answer = bot.command("player", "roll", "empty-reach", skill="Force", privacy=privacy)
    assert answer["data"]["flags"] == EPHEMERAL
    assert answer["data"]["embeds"]
    stored = _last(client, seated.table.id)
    assert (stored.kind, stored.privacy) == ("roll", privacy)


# the session


def test_a_reconnect_mid_session_resumes_it(client: AppClient, bot: OverGateway) -> None:
    _seated(client, bot)
    fake = bot.fake
    bot.portal.call(fake.reconnect)
    bot.portal.call(fake.until, lambda: fake.handshakes == ["READY", "RESUMED"])
    answer = bot.command("player", "roll", "empty-reach", skill="Force")
    assert answer["type"] == 4
    assert answer["data"]["embeds"]
    assert len(fake.identified) == 1
    [resumed] = fake.resumed
    assert fake.session is not None
    assert resumed["session_id"] == fake.session.id
    assert fake.connections[1].startswith("/resume?")  # READY's resume_gateway_url
    assert fake.heartbeats >= 2  # one as each connection opens


def test_a_resumed_session_gets_what_it_missed(client: AppClient, bot: OverGateway) -> None:
    """Delivered while the bot was away: Discord sends it again on the resume."""
    _seated(client, bot)
    fake = bot.fake
    bot.portal.call(fake.reconnect)
    answer = bot.command("player", "roll", "empty-reach", skill="Force")  # dispatched at once
    assert answer["data"]["embeds"]
    assert fake.handshakes == ["READY", "RESUMED"]
    assert fake.replayed == ["INTERACTION_CREATE"]  # sent once, after the resume


@pytest.mark.parametrize(("resumable", "second"), [(False, "READY"), (True, "RESUMED")])
def test_an_invalid_session_is_started_again_or_resumed(
    client: AppClient, bot: OverGateway, resumable: bool, second: str
) -> None:
    _seated(client, bot)
    fake = bot.fake
    bot.portal.call(fake.invalidate, resumable)
    bot.portal.call(fake.until, lambda: len(fake.handshakes) == 2)
    assert fake.handshakes == ["READY", second]
    assert len(fake.identified) == (1 if resumable else 2)
    answer = bot.command("player", "roll", "empty-reach", skill="Force")
    assert answer["data"]["embeds"]


# answered once


def test_an_interaction_delivered_twice_is_answered_once(
    client: AppClient,
    discord: Discord,
    bot: OverGateway,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger=GATEWAY_LOG)
    seated = _seated(client, bot)
    before = len(client.app.state.store.log(seated.table.id))
    payload = _roll(bot.base("player", 2))
    bot.answer(payload)
    bot.portal.call(bot.fake.dispatch, "INTERACTION_CREATE", payload)
    # and one the interactions URL answered, delivered over the gateway as well
    by_url = discord.base("player", 2) | {"id": snowflake(), "data": payload["data"]}
    assert discord.send(by_url).status_code == 200
    bot.portal.call(bot.fake.dispatch, "INTERACTION_CREATE", by_url)
    _until(lambda: sum("answered before" in r.getMessage() for r in caplog.records) == 2)
    answered = [c.interaction for c in bot.fake.callbacks]
    assert answered.count(payload["id"]) == 1
    assert by_url["id"] not in answered
    assert len(client.app.state.store.log(seated.table.id)) == before + 2


def test_an_interaction_older_than_the_window_is_not_answered(
    client: AppClient, bot: OverGateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=GATEWAY_LOG)
    _seated(client, bot)
    old = bot.base("player", 2) | {"id": snowflake(time.time() - 600), "data": {"name": "luck"}}
    bot.portal.call(bot.fake.dispatch, "INTERACTION_CREATE", old)
    _until(lambda: any("old: not answered" in r.getMessage() for r in caplog.records))
    assert old["id"] not in [c.interaction for c in bot.fake.callbacks]


# the token


def test_the_bot_token_is_in_no_log_and_no_output(
    client: AppClient, discord: Discord, caplog: pytest.LogCaptureFixture, db_url: str
) -> None:
    caplog.set_level(1)  # everything, hikari's TRACE (its payloads and requests) too
    with hosted(client, discord.channel) as over:
        _seated(client, over)
        over.portal.call(over.fake.reconnect)  # the resume sends the token again
        over.portal.call(over.fake.until, lambda: len(over.fake.handshakes) == 2)
        over.command("player", "roll", "empty-reach", skill="Force")
        assert over.fake.identified[0]["token"] == TOKEN
        assert over.fake.resumed[0]["token"] == TOKEN
    assert "identifying with new session" in caplog.text  # the log was on
    assert "REDACTED" in caplog.text  # hikari logged the frames, with the token taken out
    for record in caplog.records:
        text = record.getMessage() + str(record.args) + str(record.exc_info)
        assert TOKEN not in text
        assert SECRET not in text
    assert TOKEN not in repr(Bot(TOKEN))
    with fake_discord() as (_portal, fake):
        env = {"RULEBOUND_DISCORD_TOKEN": TOKEN.replace("t0p", "b4d")}
        args = ["discord", "run", "--database", db_url, "--api", fake.api]
        # in a thread of its own: after the browser tests, a loop runs in this one (its
        # asyncio.run would refuse to start)
        with ThreadPoolExecutor(1) as pool:
            done = pool.submit(CliRunner().invoke, cli_app, args, env=env).result()
    assert done.exit_code == 1, done.output
    assert "Discord refused the bot token (401)" in done.output
    assert "b4d" not in done.output
    assert SECRET not in caplog.text


# the app's lifespan: `serve --discord` and `discord run`


def test_the_servers_lifespan_keeps_the_connection(db_url: str) -> None:
    """``serve --discord``: connected while the app runs, closed with it."""
    with fake_discord() as (portal, fake):
        app = create_app(trust_settings(db_url), Bot(TOKEN, fake.api))
        with AppClient(app) as client:
            assert fake.handshakes == ["READY"]
            over = OverGateway(client, new_channel(), portal=portal, fake=fake)
            answer = over.command("player", "roll", "empty-reach", skill="Force")
            assert answer["data"]["content"] == UNLINKED
            assert client.get("/api/rulesets").status_code == 200
            assert client.post("/discord/interactions").status_code == 404  # no public key
        portal.call(fake.until, lambda: fake.link is None)


def test_discord_run_keeps_the_connection_until_stopped(db_url: str) -> None:
    """``rulebound discord run``: the app's lifespan without its HTTP server, until its task
    is cancelled (as ``asyncio.run`` cancels it on Ctrl+C)."""
    with fake_discord() as (portal, fake):
        app = create_app(trust_settings(db_url), Bot(TOKEN, fake.api))
        running = portal.call(_started, app)
        portal.call(fake.until, lambda: fake.handshakes == ["READY"])
        over = OverGateway(cast(AppClient, None), new_channel(), portal=portal, fake=fake)
        answer = over.command("player", "luck")
        assert answer["data"]["content"] == UNLINKED
        portal.call(_cancelled, running)
        portal.call(fake.until, lambda: fake.link is None)  # the bot closed its connection
        assert app.state.gateway.session is None


async def _started(app: FastAPI) -> asyncio.Task[None]:
    return asyncio.get_running_loop().create_task(run(app))


async def _cancelled(task: asyncio.Task[None]) -> None:
    task.cancel()
    with suppress(asyncio.CancelledError):
        await task


def test_discord_without_its_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "rulebound.discord.gateway")
    monkeypatch.setitem(sys.modules, "hikari", None)  # `import hikari` now fails
    env = {"RULEBOUND_DISCORD_TOKEN": TOKEN}
    for args in (["serve", "--discord", "--port", "1"], ["discord", "run"]):
        answer = CliRunner().invoke(cli_app, args, env=env)
        assert answer.exit_code == 1, answer.output
        assert "needs the discord extra" in answer.output
        assert "pip install 'rulebound[discord]'" in answer.output


def test_serve_refuses_discord_with_several_workers_or_no_token(tmp_path: Path) -> None:
    runner = CliRunner()
    workers = runner.invoke(
        cli_app, ["serve", "--discord", "--workers", "2", "--redis", "redis://x"], env={}
    )
    assert workers.exit_code == 2
    assert "rulebound discord run" in workers.output
    no_token = runner.invoke(cli_app, ["serve", "--discord"], env={"RULEBOUND_DISCORD_TOKEN": ""})
    assert no_token.exit_code == 2
    assert "no bot token" in no_token.output
    empty = tmp_path / "token"
    empty.write_text("\n", encoding="utf-8")
    no_file = runner.invoke(cli_app, ["discord", "run", "--token-file", str(empty)])
    assert (no_file.exit_code, "holds no token" in no_file.output) == (2, True)
    alone = runner.invoke(cli_app, ["serve", "--discord-token-file", str(empty)])
    assert (alone.exit_code, "add --discord" in alone.output) == (2, True)


# the two transports


@dataclass(frozen=True)
class Case:
    name: str
    send: Callable[[Discord, int], dict[str, Any]]


def _stranger(d: Discord) -> dict[str, Any]:
    """A roll by someone the table never seated."""
    user = {"id": "100000000000000009", "username": "sam", "global_name": "Sam"}
    roll = {"type": 1, "name": "empty-reach", "options": []}
    return d.answer(
        d.base("player", 2)
        | {"member": {"user": user, "nick": None, "roles": []}}
        | {"data": {"name": "roll", "type": 1, "options": [roll]}}
    )


CASES = [
    Case("command", lambda d, _: d.command("player", "odds", "empty-reach", skill="Force")),
    Case("command, no seat", lambda d, _: _stranger(d)),
    Case("command, turns", lambda d, _: d.command("player", "turn", "show")),
    Case(
        "autocomplete", lambda d, _: d.complete("player", "roll", "empty-reach", "skill", skill="")
    ),
    Case("button", lambda d, e: d.press("player", f"rb:x:{e}:")),
    Case("button, not theirs", lambda d, e: d.press("other", f"rb:k:{e}:")),
    Case("select menu, not theirs", lambda d, e: d.press("other", f"rb:d:{e}:push", ["1"])),
    Case(
        "modal submit, not theirs",
        lambda d, e: d.answer(
            d.base("other", 5) | {"data": {"custom_id": f"rb:m:{e}:push", "components": []}}
        ),
    ),
    Case(
        "unlinked channel",
        lambda d, _: replace(d, channel="900000000000000009").command("player", "luck"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_both_transports_answer_alike(
    client: AppClient, linked: Linked, bot: OverGateway, case: Case
) -> None:
    """The same interaction, signed to the interactions URL and delivered over the gateway
    (each with an id of its own: an id is answered once, by either), answered alike."""
    linked.discord.command("other", "rulebound", "join")
    linked.discord.command("player", "roll", "empty-reach", skill="Force")
    entry = _last(client, linked.table.id).id
    by_url = case.send(linked.discord, entry)
    by_gateway = case.send(bot, entry)
    assert by_gateway == by_url
    if case.name.endswith("not theirs"):
        assert by_url["data"]["content"].startswith("Only the player who rolled")


def test_the_gateway_needs_a_token_shaped_as_discords() -> None:
    with pytest.raises(ValueError, match="bot token") as raised:
        Gateway(cast(Interactions, None), Bot("not a token"))
    assert "not a token" not in str(raised.value)


def test_gm_invite_is_not_echoed_over_the_gateway(client: AppClient, bot: OverGateway) -> None:
    table = open_table(client)
    invite = gm_invite(table)
    linked = bot.command("gm", "rulebound", "link", invite=invite)
    assert invite not in str(linked)
