"""The interactions endpoint checks Discord's Ed25519 signature and timestamp on the raw
bytes before it parses anything, answers PING, and exists only when a key is configured."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient
from nacl.signing import SigningKey

from rulebound.core.errors import InvalidInput
from rulebound.discord.interactions import PATH
from rulebound.discord.signature import MAX_AGE_SECONDS, Verifier
from rulebound.web.app import create_app

from ..trust.conftest import trust_settings
from .conftest import PUBLIC_KEY, Discord, signed

PING = json.dumps({"type": 1, "id": "1", "application_id": "7", "token": "t"}).encode()


def test_ping_is_answered_with_pong(client: TestClient) -> None:
    answer = client.post(PATH, content=PING, headers=signed(PING))
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"type": 1}


def test_a_signature_by_another_key_is_refused_with_401(client: TestClient) -> None:
    other = SigningKey(bytes(range(1, 33)))
    answer = client.post(PATH, content=PING, headers=signed(PING, key=other))
    assert answer.status_code == 401
    assert answer.json() == {"detail": "invalid request signature"}


@pytest.mark.parametrize("age", [MAX_AGE_SECONDS + 5, 3600, -(MAX_AGE_SECONDS + 30)])
def test_an_old_or_future_timestamp_is_refused_even_when_signed(
    client: TestClient, age: int
) -> None:
    replayed = signed(PING, timestamp=int(time.time()) - age)
    assert client.post(PATH, content=PING, headers=replayed).status_code == 401


def test_a_recent_timestamp_within_the_window_is_accepted(client: TestClient) -> None:
    recent = signed(PING, timestamp=int(time.time()) - MAX_AGE_SECONDS + 30)
    assert client.post(PATH, content=PING, headers=recent).status_code == 200


def test_a_body_changed_after_signing_is_refused(client: TestClient) -> None:
    headers = signed(PING)
    changed = PING.replace(b'"type": 1', b'"type": 2')
    assert changed != PING
    assert client.post(PATH, content=changed, headers=headers).status_code == 401
    # a byte of whitespace is a change too: the check is on the raw bytes, not the JSON
    assert client.post(PATH, content=PING + b" ", headers=headers).status_code == 401


def test_a_changed_timestamp_header_is_refused(client: TestClient) -> None:
    headers = signed(PING)
    headers["X-Signature-Timestamp"] = str(int(headers["X-Signature-Timestamp"]) - 1)
    assert client.post(PATH, content=PING, headers=headers).status_code == 401


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
    client: TestClient, headers: dict[str, str | bytes]
) -> None:
    assert client.post(PATH, content=PING, headers=headers).status_code == 401


def test_a_body_that_is_not_json_is_refused_only_after_its_signature_checks(
    client: TestClient,
) -> None:
    body = b"not json"
    assert client.post(PATH, content=body, headers=signed(body)).status_code == 400
    assert client.post(PATH, content=body, headers=signed(b"other")).status_code == 401


def test_without_a_public_key_there_is_no_endpoint(db_url: str) -> None:
    with TestClient(create_app(trust_settings(db_url))) as plain:
        answer = plain.post(PATH, content=PING, headers=signed(PING))
    assert answer.status_code in (404, 405)


def test_a_public_key_that_is_not_hex_is_named() -> None:
    with pytest.raises(InvalidInput) as error:
        Verifier("not-a-key")
    assert error.value.field == "discord public key"
    assert Verifier(PUBLIC_KEY).valid(None, None, b"", time.time()) is False


def test_an_unknown_interaction_type_gets_a_clear_answer(discord: Discord) -> None:
    answer = discord.answer(discord.base("gm", 9))
    assert "does not answer interactions of type 9" in answer["data"]["content"]


def test_a_signed_body_of_the_wrong_shape_is_a_400(client: TestClient) -> None:
    odd_options = {"type": 2, "channel_id": "1", "data": {"name": "r", "options": "oops"}}
    nested = {"name": "roll", "options": [{"type": 1, "name": "x", "options": [1]}]}
    for odd in (b"[1, 2]", odd_options, {"type": 2, "channel_id": "1", "data": nested}):
        body = odd if isinstance(odd, bytes) else json.dumps(odd).encode()
        sent = client.post(PATH, content=body, headers=signed(body))
        assert sent.status_code == 400, (odd, sent.text)
