"""The interactions endpoint checks Discord's Ed25519 signature and timestamp on the raw
bytes before it parses anything, answers PING, and exists only when a key is configured."""

from __future__ import annotations

import json
import time

import pytest
from nacl.signing import SigningKey

from rulebound.app import create_app
from rulebound.core.errors import InvalidInput
from rulebound.discord.interactions import PATH
from rulebound.discord.signature import MAX_AGE_SECONDS, Verifier
from rulebound.store import SqlStore

from ..client import AppClient
from ..trust.conftest import trust_settings
from .conftest import PUBLIC_KEY, Discord, Linked, discord_app, new_interaction, signed


@pytest.fixture
def ping() -> bytes:
    """A PING of its own (a fresh interaction id: the same one twice is a replay)."""
    body = {"type": 1, "id": new_interaction(), "application_id": "7", "token": "t"}
    return json.dumps(body).encode()


def test_ping_is_answered_with_pong(client: AppClient, ping: bytes) -> None:
    answer = client.post(PATH, content=ping, headers=signed(ping))
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"type": 1}


def test_a_signature_by_another_key_is_refused_with_401(client: AppClient, ping: bytes) -> None:
    other = SigningKey(bytes(range(1, 33)))
    answer = client.post(PATH, content=ping, headers=signed(ping, key=other))
    assert answer.status_code == 401
    assert answer.json() == {"detail": "invalid request signature"}


@pytest.mark.parametrize("age", [MAX_AGE_SECONDS + 5, 3600, -(MAX_AGE_SECONDS + 30)])
def test_an_old_or_future_timestamp_is_refused_even_when_signed(
    client: AppClient, age: int, ping: bytes
) -> None:
    replayed = signed(ping, timestamp=int(time.time()) - age)
    assert client.post(PATH, content=ping, headers=replayed).status_code == 401


def test_a_recent_timestamp_within_the_window_is_accepted(client: AppClient, ping: bytes) -> None:
    recent = signed(ping, timestamp=int(time.time()) - MAX_AGE_SECONDS + 30)
    assert client.post(PATH, content=ping, headers=recent).status_code == 200


def test_a_body_changed_after_signing_is_refused(client: AppClient, ping: bytes) -> None:
    headers = signed(ping)
    changed = ping.replace(b'"type": 1', b'"type": 2')
    assert changed != ping
    assert client.post(PATH, content=changed, headers=headers).status_code == 401
    # a byte of whitespace is a change too: the check is on the raw bytes, not the JSON
    assert client.post(PATH, content=ping + b" ", headers=headers).status_code == 401


def test_a_changed_timestamp_header_is_refused(client: AppClient, ping: bytes) -> None:
    headers = signed(ping)
    headers["X-Signature-Timestamp"] = str(int(headers["X-Signature-Timestamp"]) - 1)
    assert client.post(PATH, content=ping, headers=headers).status_code == 401


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-Signature-Timestamp": "1"},
        {"X-Signature-Ed25519": "00" * 64},
        {"X-Signature-Ed25519": "zz", "X-Signature-Timestamp": "1"},
        {"X-Signature-Ed25519": "00" * 64, "X-Signature-Timestamp": "\u00b9".encode("latin-1")},
    ],
)
def test_missing_or_malformed_signature_headers_are_401(
    client: AppClient, headers: dict[str, str | bytes], ping: bytes
) -> None:
    # the last case's header is bytes that are not ASCII, on purpose (httpx2 sends them as is)
    assert client.post(PATH, content=ping, headers=headers).status_code == 401  # type: ignore[arg-type]


def test_a_body_that_is_not_json_is_refused_only_after_its_signature_checks(
    client: AppClient,
) -> None:
    body = b"not json"
    assert client.post(PATH, content=body, headers=signed(body)).status_code == 400
    assert client.post(PATH, content=body, headers=signed(b"other")).status_code == 401


def test_without_a_public_key_there_is_no_endpoint(db_url: str, ping: bytes) -> None:
    with AppClient(create_app(trust_settings(db_url))) as plain:
        answer = plain.post(PATH, content=ping, headers=signed(ping))
    assert answer.status_code in (404, 405)


def test_a_public_key_that_is_not_hex_is_named() -> None:
    with pytest.raises(InvalidInput) as error:
        Verifier("not-a-key")
    assert error.value.field == "discord public key"
    assert Verifier(PUBLIC_KEY).valid(None, None, b"", time.time()) is False


def test_an_unknown_interaction_type_gets_a_clear_answer(discord: Discord) -> None:
    answer = discord.answer(discord.base("gm", 9))
    assert "does not answer interactions of type 9" in answer["data"]["content"]


def test_a_signed_body_of_the_wrong_shape_is_a_400(client: AppClient) -> None:
    odd_options = {
        "type": 2,
        "id": "2",
        "channel_id": "1",
        "data": {"name": "r", "options": "oops"},
    }
    nested = {"name": "roll", "options": [{"type": 1, "name": "x", "options": [1]}]}
    nested_body = {"type": 2, "id": new_interaction(), "channel_id": "1", "data": nested}
    odd_options["id"] = new_interaction()
    for odd in (b"[1, 2]", odd_options, nested_body):
        body = odd if isinstance(odd, bytes) else json.dumps(odd).encode()
        sent = client.post(PATH, content=body, headers=signed(body))
        assert sent.status_code == 400, (odd, sent.text)


def test_a_replayed_request_within_the_window_is_refused(linked: Linked) -> None:
    """The same signed bytes again (same id, same valid timestamp): refused, nothing rolled."""
    discord = linked.discord
    store: SqlStore = discord.client.app.state.store
    body = json.dumps(discord.base("player", 2) | {"data": _roll_data()}).encode()
    headers = signed(body)
    first = discord.client.post(PATH, content=body, headers=headers)
    assert first.status_code == 200, first.text
    assert first.json()["data"]["embeds"]
    rolled = len(store.log(linked.table.id))
    again = discord.client.post(PATH, content=body, headers=headers)
    assert again.status_code == 409
    assert "replayed" in again.json()["detail"]
    assert len(store.log(linked.table.id)) == rolled
    # signed anew (a later timestamp) yet the same interaction: still a replay
    later = signed(body, timestamp=int(headers["X-Signature-Timestamp"]) + 1)
    assert discord.client.post(PATH, content=body, headers=later).status_code == 409
    assert len(store.log(linked.table.id)) == rolled


def test_a_replay_is_refused_by_another_process_on_the_same_database(
    db_url: str, ping: bytes
) -> None:
    """Two servers of one table (two app instances, as two processes, on one database)."""
    with AppClient(discord_app(db_url)) as one, AppClient(discord_app(db_url)) as two:
        headers = signed(ping)
        assert one.post(PATH, content=ping, headers=headers).status_code == 200
        assert two.post(PATH, content=ping, headers=headers).status_code == 409
        assert one.post(PATH, content=ping, headers=headers).status_code == 409


def test_ids_older_than_the_window_are_forgotten(linked: Linked) -> None:
    store: SqlStore = linked.discord.client.app.state.store
    now = int(time.time())
    window = now - MAX_AGE_SECONDS - 1
    recent, older = new_interaction(), new_interaction()
    assert store.first_interaction(recent, now, window)
    assert not store.first_interaction(recent, now, window)
    assert store.first_interaction(older, now - 200, window)
    assert not store.first_interaction(older, now - 200, window)
    # later, the window has passed ``older`` (its timestamp is refused now): its row goes
    later = now - 100
    assert store.first_interaction(new_interaction(), now, later)
    assert store.first_interaction(older, now - 200, window)
    assert not store.first_interaction(recent, now, later)


def test_a_request_without_an_interaction_id_is_a_400(client: AppClient) -> None:
    for body in (b'{"type": 1}', b'{"type": 1, "id": 5}', b'{"type": 1, "id": "x"}'):
        sent = client.post(PATH, content=body, headers=signed(body))
        assert sent.status_code == 400, body
        assert sent.json() == {"detail": "the interaction has no id"}


def _roll_data() -> dict[str, object]:
    skill = {"name": "skill", "type": 3, "value": "Force"}
    return {
        "id": "5",
        "name": "roll",
        "type": 1,
        "options": [{"type": 1, "name": "empty-reach", "options": [skill]}],
    }
