"""``rulebound discord register`` against a local fake of Discord's API: the request it
sends (method, path, bot token, the command definitions), and what it says on errors."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app as cli_app
from rulebound.discord.commands import definitions
from rulebound.web.settings import registry_games

APP_ID = "700000000000000001"
TOKEN = "test-bot-token"


class FakeDiscord(ThreadingHTTPServer):
    received: list[dict[str, Any]]
    status: int = 200


class Handler(BaseHTTPRequestHandler):
    server: FakeDiscord

    def do_PUT(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append(
            {
                "path": self.path,
                "authorization": self.headers["Authorization"],
                "content_type": self.headers["Content-Type"],
                "body": json.loads(body),
            }
        )
        status = self.server.status
        answer = body if status == 200 else b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(("127.0.0.1", 0), Handler)
    server.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def _run(fake: FakeDiscord, *args: str, token: str = TOKEN) -> Any:
    api = f"http://127.0.0.1:{fake.server_address[1]}/api/v10"
    env = {"DISCORD_APPLICATION_ID": APP_ID, "DISCORD_BOT_TOKEN": token, "DISCORD_API_URL": api}
    return CliRunner().invoke(cli_app, ["discord", "register", *args], env=env)


def test_register_overwrites_the_global_commands_with_every_games_fields(
    fake: FakeDiscord,
) -> None:
    done = _run(fake)
    assert done.exit_code == 0, done.output
    assert (
        "registered 7 commands: /rulebound, /roll, /odds, /r, /turn, /luck, /sheet" in done.output
    )
    [sent] = fake.received
    assert sent["path"] == f"/api/v10/applications/{APP_ID}/commands"
    assert sent["authorization"] == f"Bot {TOKEN}"
    assert sent["content_type"] == "application/json"
    assert sent["body"] == definitions(registry_games())


def test_every_command_is_offered_only_in_a_servers_channels(fake: FakeDiscord) -> None:
    """A command answers only in a channel linked to a table: Discord offers none of them in
    the bot's direct messages or group DMs, nor to a user who installed the app alone."""
    assert _run(fake).exit_code == 0
    [sent] = fake.received
    for command in sent["body"]:
        assert command["contexts"] == [GUILD], command["name"]
        assert command["integration_types"] == [GUILD_INSTALL], command["name"]


GUILD = 0
"""Discord's interaction context of a server's channel (1: the bot's DMs, 2: group DMs)."""
GUILD_INSTALL = 0
"""Discord's installation context of an app added to a server (1: installed by a user)."""


def test_discords_refusal_is_shown_with_its_status(fake: FakeDiscord) -> None:
    fake.status = 401
    done = _run(fake, token="wrong")
    assert done.exit_code == 2
    assert "Discord answered 401" in done.output
    assert "Unauthorized" in done.output


@pytest.mark.parametrize(
    ("args", "named"),
    [(["--application-id", "abc"], "application id"), (["--api", "file:///etc/passwd"], "api")],
)
def test_bad_settings_are_named_before_anything_is_sent(
    fake: FakeDiscord, args: list[str], named: str
) -> None:
    done = _run(fake, *args)
    assert done.exit_code == 2
    assert named in done.output
    assert fake.received == []


def test_an_unreachable_api_is_said_plainly() -> None:
    env = {
        "DISCORD_APPLICATION_ID": APP_ID,
        "DISCORD_BOT_TOKEN": TOKEN,
        "DISCORD_API_URL": "http://127.0.0.1:9/api",
    }
    done = CliRunner().invoke(cli_app, ["discord", "register"], env=env)
    assert done.exit_code == 2
    assert "could not reach http://127.0.0.1:9/api" in done.output.lower()  # any capitals
