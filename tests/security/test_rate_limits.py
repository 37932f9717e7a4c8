"""Issue 8, security: rate limits per session, per table and per client address, answering
429 with Retry-After. The buckets' clock is the test's, so nothing here waits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI

from rulebound.core.errors import InvalidInput
from rulebound.web.app import create_app
from rulebound.web.ratelimit import Buckets, Rate, RateLimited
from rulebound.web.settings import Settings

from ..client import AppClient
from ..web.conftest import Dice, Party, games_for_tests


@dataclass
class Clock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(db_url: str, dice: Dice, clock: Clock) -> FastAPI:
    settings = Settings(
        database_url=db_url,
        source=dice.source,
        games=games_for_tests,
        session_rate=Rate(3, 1.0),
        table_rate=Rate(5, 1.0),
        anonymous_rate=Rate(6, 0.5),
    )
    made = create_app(settings)
    made.state.limiter.buckets = Buckets(clock=clock)
    return made


@pytest.fixture
def client(app: FastAPI) -> Iterator[AppClient]:
    with AppClient(app) as opened:
        yield opened


def _make(party: Party, who: dict[str, str]) -> Any:
    return party.client.post(party.url("/characters"), json={"name": "Bo"}, headers=who)


def test_a_session_past_its_burst_gets_429_with_retry_after(party: Party, clock: Clock) -> None:
    assert [_make(party, party.player).status_code for _ in range(3)] == [201] * 3
    refused = _make(party, party.player)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "1"
    assert refused.json()["error"] == "rate-limited"
    assert "session" in refused.json()["detail"]
    assert _make(party, party.other).status_code == 201
    clock.now += 1.0
    assert _make(party, party.player).status_code == 201


def test_a_table_has_one_budget_for_all_its_seats(party: Party, clock: Clock) -> None:
    codes = [_make(party, who).status_code for who in (party.player, party.other) * 3]
    assert codes == [201] * 5 + [429]
    refused = _make(party, party.gm)
    assert refused.status_code == 429
    assert "table" in refused.json()["detail"]
    clock.now += 2.0
    assert _make(party, party.gm).status_code == 201


def test_refused_writes_do_not_drain_the_tables_budget(party: Party) -> None:
    for _ in range(10):
        assert _make(party, party.observer).status_code == 403
    assert _make(party, party.player).status_code == 201


def test_pages_answer_429_too(party: Party) -> None:
    cookie = {"Cookie": f"rb_table_{party.table_id}={party.player['Authorization'][7:]}"}
    page = party.client.get(f"/t/{party.table_id}", headers=cookie).text
    csrf = page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    codes = [
        party.client.post(
            f"/t/{party.table_id}/characters",
            data={"name": "Bo", "csrf": csrf},
            headers=cookie,
            follow_redirects=False,
        )
        for _ in range(4)
    ]
    assert [c.status_code for c in codes] == [303, 303, 303, 429]
    assert codes[-1].headers["retry-after"] == "1"
    assert "Too many requests" in codes[-1].text


def test_opening_tables_is_limited_per_address(client: AppClient, clock: Clock) -> None:
    body = {"name": "T", "ruleset": "empty-reach", "gm_name": "G"}
    codes = [client.post("/api/tables", json=body).status_code for _ in range(7)]
    assert codes == [201] * 6 + [429]
    refused = client.post("/api/tables", json=body)
    assert refused.headers["retry-after"] == "2"
    clock.now += 2.0
    assert client.post("/api/tables", json=body).status_code == 201


def test_reads_are_not_limited(party: Party) -> None:
    for _ in range(20):
        assert party.client.get(party.url("/log"), headers=party.player).status_code == 200


def test_buckets_take_from_all_or_none() -> None:
    clock = Clock()
    buckets = Buckets(clock=clock)
    one, two = Rate(1, 0.25), Rate(2, 1.0)
    buckets.take([("a", "a", one), ("b", "b", two)])
    with pytest.raises(RateLimited) as refused:
        buckets.take([("a", "a", one), ("b", "b", two)])
    assert (refused.value.scope, refused.value.retry_after) == ("a", 4)
    buckets.take([("b", "b", two)])  # b kept its token: the refused take took none
    with pytest.raises(RateLimited):
        buckets.take([("b", "b", two)])


def test_buckets_forget_the_oldest_keys() -> None:
    buckets = Buckets(clock=Clock(), max_keys=2)
    rate = Rate(1, 0.001)
    for key in ("a", "b", "c"):
        buckets.take([("k", key, rate)])
    buckets.take([("k", "a", rate)])  # "a" was dropped: a full bucket again


def test_rates_come_from_settings_text() -> None:
    assert Rate.parse("30/5") == Rate(30, 5.0)
    assert Rate.parse("off") is None
    for bad in ("x", "30", "0/1", "3/0", "-1/2"):
        with pytest.raises(InvalidInput):
            Rate.parse(bad)
    env = {"RULEBOUND_RATE_SESSION": "2/0.5", "RULEBOUND_RATE_TABLE": "off"}
    settings = Settings.from_env(env | {"RULEBOUND_MAX_BODY_BYTES": "2048"})
    assert settings.session_rate == Rate(2, 0.5)
    assert settings.table_rate is None
    assert settings.anonymous_rate == Settings().anonymous_rate
    assert settings.max_body_bytes == 2048


def test_observers_asking_for_chances_do_not_use_up_the_players_budget(
    party: Party, clock: Clock
) -> None:
    """Issue 14, item 12: the observers of a table share a budget of their own."""
    cid = party.character(party.player, "Ana")
    clock.now += 10.0  # the table's budget is full again
    chances = party.url(f"/characters/{cid}/chances")
    force = {"form": {"skill": "Force"}}
    asked = [
        party.client.post(chances, json=force, headers=party.observer).status_code for _ in range(8)
    ]
    assert asked[:3] == [200, 200, 200]
    assert asked[-1] == 429
    rolled = [_make(party, who).status_code for who in (party.player, party.other, party.gm)]
    assert rolled == [201, 201, 201]
