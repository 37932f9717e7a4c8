"""The plays' short path (``web/writepath.py``, issue 13): rolls, sheet actions and follow-ups
answered without the framework's per-request machinery, exactly as the routes answer them.

Pass criteria: a well-formed roll, push and sheet action take the short path (the route's
endpoint is not called), and each answer is byte for byte what the route gives for the same
entry (``GET /entries/ID``, the same response model) with the route's headers; every refusal
(another origin, no seat, an observer, someone else's character, a missing character or entry,
a bad form, a malformed body, a body past the size limit, a missing CSRF token, a result already
followed up, a spent rate limit) is the route's own answer: the same status, body and
``Retry-After``. A query string sends a request to the route, which ignores it: that is how
these tests ask the route.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from rulebound.web import api, writepath
from rulebound.web.app import create_app
from rulebound.web.auth import Viewer
from rulebound.web.hub import prepared
from rulebound.web.ratelimit import Rate
from rulebound.web.settings import Settings, registry_games
from rulebound.web.views import context_for

from .conftest import Dice, Party, bearer, games_for_tests, run_async, seat_party
from .test_api_rolls import PUSH_ROLL_SEED, PUSH_SEED, _ready

ROUTE = "?via=route"
"""Any query string: the short path leaves the request to the route (which ignores it)."""


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many plays the short path answered, and how many the routes did (each of their
    endpoints answers with ``api._written``; the short path never calls it). A play tried
    on the event loop that would wait is answered once, from the thread."""
    calls = {"short": 0, "route": 0}
    played, written = writepath._played, api._written

    def short(*args: Any) -> Any:
        answered = played(*args)  # a play postponed from the event loop to a thread raises
        calls["short"] += 1
        return answered

    def route(*args: Any) -> Any:
        calls["route"] += 1
        return written(*args)

    monkeypatch.setattr(writepath, "_played", short)
    monkeypatch.setattr(api, "_written", route)
    return calls


def _headers(answer: Any) -> list[tuple[str, str]]:
    return [(k, v) for k, v in answer.headers.items() if k not in ("content-length", "date")]


def test_plays_take_the_short_path_and_answer_as_the_route_does(
    party: Party, dice: Dice, counted: dict[str, int]
) -> None:
    cid = _ready(party)
    dice.seeds[:] = [PUSH_ROLL_SEED, PUSH_SEED]
    roll = {"form": {"skill": "Force"}, "privacy": "public"}
    plays: list[tuple[str, dict[str, Any]]] = [(f"/characters/{cid}/roll", roll)]
    rolled = party.client.post(party.url(plays[0][0]), json=roll, headers=party.player)
    plays.append((f"/entries/{rolled.json()['id']}/actions/push", {"params": {"reroll": [0]}}))
    plays.append((f"/characters/{cid}/actions/heal", {"params": {"health": 1}}))
    answers = [rolled] + [
        party.client.post(party.url(path), json=body, headers=party.player)
        for path, body in plays[1:]
    ]
    assert counted == {"short": 3, "route": 0}
    for answer in answers:
        assert answer.status_code == 201, answer.text
        entry = party.client.get(party.url(f"/entries/{answer.json()['id']}"), headers=party.player)
        if answer is not rolled:  # the roll is followed up by now: it can no longer act
            assert answer.content == entry.content
    assert rolled.json() | {"can_act": False} == party.client.get(
        party.url(f"/entries/{rolled.json()['id']}"), headers=party.player
    ).json() | {"can_act": False}
    routed = party.client.post(party.url(plays[0][0] + ROUTE), json=roll, headers=party.player)
    assert routed.status_code == 201
    assert counted == {"short": 3, "route": 1}
    assert _headers(routed) == _headers(rolled)
    assert list(routed.json()) == list(rolled.json())
    assert rolled.json()["kind"] == "roll"
    assert answers[1].json()["parent_id"] == rolled.json()["id"]


def test_a_fresh_roll_is_byte_for_byte_the_entry_the_route_shows(
    party: Party, counted: dict[str, int]
) -> None:
    cid = _ready(party)
    body = {"form": {"skill": "Force"}, "privacy": "self"}
    rolled = party.client.post(
        party.url(f"/characters/{cid}/roll"), json=body, headers=party.player
    )
    assert rolled.status_code == 201
    assert counted["short"] == 1
    shown = party.client.get(party.url(f"/entries/{rolled.json()['id']}"), headers=party.player)
    assert rolled.content == shown.content
    assert rolled.headers["content-type"] == shown.headers["content-type"] == "application/json"


def test_a_card_answered_again_is_taken_validated_and_still_the_routes_bytes(
    party: Party, counted: dict[str, int]
) -> None:
    """The same dice (a fixed seed) give the same card: the second answer takes the card
    validated for the first (``writepath.CARDS``) and is still what the route shows."""
    cid = _ready(party)
    path = party.url(f"/characters/{cid}/roll")
    body = {"form": {"skill": "Force"}, "privacy": "public"}
    hits = writepath.CARDS.hits
    answers = [party.client.post(path, json=body, headers=party.player) for _ in range(2)]
    assert counted["short"] == 2
    assert writepath.CARDS.hits > hits
    for rolled in answers:
        assert rolled.status_code == 201
        shown = party.client.get(party.url(f"/entries/{rolled.json()['id']}"), headers=party.player)
        assert rolled.content == shown.content
    assert answers[0].json()["card"] == answers[1].json()["card"]


@pytest.mark.parametrize("key", sorted(registry_games()))
def test_every_games_quick_rolls_answer_as_the_route_shows_them(
    client: TestClient, counted: dict[str, int], key: str
) -> None:
    """Each game's quick rolls from its starter sheet, answered by the short path (the
    card dumped once per card and put in place, ``writepath.NO_CARD``), are byte for byte
    the entries the route shows, twice over (the second answer takes the card kept)."""
    rules = registry_games()[key].table
    made = client.post("/api/tables", json={"name": "T", "ruleset": key, "gm_name": "G"})
    table, gm = made.json()["table"]["id"], bearer(made.json()["session_token"])
    sheet = rules.sheets.starter("Ana")
    created = client.post(f"/api/tables/{table}/characters", json={"sheet": sheet}, headers=gm)
    assert created.status_code == 201, created.text
    path = f"/api/tables/{table}/characters/{created.json()['id']}/roll"
    defaults = rules.sheets.dialog_values(sheet)
    answered = 0
    for quick in rules.sheets.quick_rolls(sheet)[:3]:
        for _ in range(2):
            rolled = client.post(path, json={"form": defaults | dict(quick.values)}, headers=gm)
            if rolled.status_code != 201:
                continue
            shown = client.get(f"/api/tables/{table}/entries/{rolled.json()['id']}", headers=gm)
            assert rolled.content == shown.content, (key, quick.values)
            answered += 1
    assert answered, f"{key}: no quick roll was answered"
    assert counted["short"] == answered


def test_a_card_logged_again_is_one_value_that_showing_it_never_changes(
    party: Party, counted: dict[str, int]
) -> None:
    """Entries of the same card hold the one value (``store.sql._written``): the answer, the
    feed's rendering for each member and the table page read it, and it stays the text the
    append wrote."""
    app: Any = party.client.app
    store, logged = app.state.store, []
    store.committed.append(logged.append)
    cid = _ready(party)
    body = {"form": {"skill": "Force"}, "privacy": "public"}
    for _ in range(2):
        rolled = party.client.post(
            party.url(f"/characters/{cid}/roll"), json=body, headers=party.player
        )
        assert rolled.status_code == 201
    first, second = logged[-2:]
    assert counted["short"] == 2
    assert second.card is first.card
    assert second.card_text == first.card_text
    table = store.table(party.table_id)
    for member in store.members(party.table_id):
        viewer = Viewer(table, member, "csrf", via_cookie=True)
        ctx = context_for(store, viewer, [first, second], set())
        for entry in (first, second):
            prepared(entry, ctx, app.state.hub.render_html)
    assert party.client.get(f"/t/{party.table_id}", headers=party.gm).status_code == 200
    assert second.card == json.loads(second.card_text)


def test_a_summary_that_spells_the_cards_place_does_not_move_the_card(
    party: Party, counted: dict[str, int]
) -> None:
    """The answer's card is put where the answer dumped without it has ``"card":null``
    (``writepath.NO_CARD``): a character whose name spells those bytes, and so a summary
    that does, still gets the route's answer, its card where the model puts it."""
    cid = party.character(party.player, name='x","card":null,"record":{"a":1},"y":"')
    party.client.patch(
        party.url(f"/characters/{cid}"), json={"form": {"skills.Force": "D6"}}, headers=party.player
    )
    body = {"form": {"skill": "Force"}, "privacy": "public"}
    rolled = party.client.post(
        party.url(f"/characters/{cid}/roll"), json=body, headers=party.player
    )
    assert rolled.status_code == 201, rolled.text
    assert counted["short"] == 1
    shown = party.client.get(party.url(f"/entries/{rolled.json()['id']}"), headers=party.player)
    assert rolled.content == shown.content
    assert rolled.json()["card"]["title"].startswith("Force")
    assert rolled.json()["summary"].startswith('x","card":null')


def _refusals(party: Party, cid: int, ocid: int, followed: int) -> list[tuple[Any, ...]]:
    """(path, body, headers) of requests every one of which the table refuses."""
    roll = f"/characters/{cid}/roll"
    good = {"form": {"skill": "Force"}, "privacy": "public"}
    cookie = {"Cookie": f"rb_table_{party.table_id}={party.player['Authorization'][7:]}"}
    return [
        (roll, good, party.player | {"Sec-Fetch-Site": "cross-site"}),
        (roll, good, party.player | {"Origin": "http://elsewhere.example"}),
        (roll, good, {}),
        (roll, good, {"Authorization": "Bearer not-a-session"}),
        (roll, good, party.observer),
        (f"/characters/{ocid}/roll", good, party.player),
        ("/characters/999999/roll", good, party.player),
        ("/characters/99999999999/roll", good, party.player),
        (roll, {"form": {"skill": "Flying"}}, party.player),
        (roll, {"form": {"skill": "Force", "bonus": 10**16}}, party.player),
        (roll, {"form": {"skill": "Force"}, "privacy": "loud"}, party.player),
        (roll, {"form": ["Force"]}, party.player),
        (roll, {"form": None}, party.player),
        (roll, ["form"], party.player),
        (roll, b"{not json", party.player),
        (roll, b'{"form": {"skill": NaN}}', party.player),
        (roll, {"form": {}, "dice": {"contribution": "xyz", "commitment": "0" * 64}}, party.player),
        (roll, {"form": {}, "dice": "fresh"}, party.player),
        (roll, {"form": {"notes": "x" * 70_000}}, party.player),
        (roll, good, cookie),
        (f"/entries/{followed}/actions/push", {"params": {}}, party.player),
        ("/entries/999999/actions/push", {}, party.player),
        (f"/characters/{cid}/actions/fly", {}, party.player),
        (f"/characters/{cid}/actions/heal", {"params": {}, "privacy": 3}, party.player),
    ]


def _post(party: Party, path: str, body: Any, headers: dict[str, str]) -> Any:
    url = party.url(path)
    if isinstance(body, bytes):
        sent = headers | {"Content-Type": "application/json"}
        return party.client.post(url, content=body, headers=sent)
    return party.client.post(url, json=body, headers=headers)


def test_every_refusal_is_the_routes_own_answer(
    party: Party, dice: Dice, counted: dict[str, int]
) -> None:
    cid, ocid = _ready(party), party.character(party.other, "Oz's")
    dice.seeds[:] = [PUSH_ROLL_SEED, PUSH_SEED]
    root = party.client.post(
        party.url(f"/characters/{cid}/roll"),
        json={"form": {"skill": "Force"}},
        headers=party.player,
    ).json()
    push = party.url(f"/entries/{root['id']}/actions/push")
    assert party.client.post(push, json={}, headers=party.player).status_code == 201
    store = party.client.app.state.store  # type: ignore[attr-defined]
    last = store.last_seq(party.table_id)
    for path, body, headers in _refusals(party, cid, ocid, root["id"]):
        short = _post(party, path, body, headers)
        routed = _post(party, path + ROUTE, body, headers)
        assert short.status_code >= 400, (path, body, short.text)
        assert (short.status_code, short.json()) == (routed.status_code, routed.json()), body
        assert short.headers.get("retry-after") == routed.headers.get("retry-after")
        assert _headers(short) == _headers(routed), body
    assert store.last_seq(party.table_id) == last
    assert counted["short"] > 0  # the well-formed ones reached the service by the short path


def test_a_spent_rate_limit_is_the_routes_answer_too(dice: Dice, db_url: str) -> None:
    settings = Settings(
        database_url=db_url,
        source=dice.source,
        games=games_for_tests,
        session_rate=Rate(3, 0.0001),
        table_rate=None,
    )
    with TestClient(create_app(settings)) as client:
        party = seat_party(client)
        cid = party.character(party.player)  # the first of the seat's 3
        path = party.url(f"/characters/{cid}/roll")
        body = {"form": {"skill": "Force"}}
        assert client.post(path, json=body, headers=party.player).status_code == 201
        assert client.post(path + ROUTE, json=body, headers=party.player).status_code == 201
        short = client.post(path, json=body, headers=party.player)
        routed = client.post(path + ROUTE, json=body, headers=party.player)
    assert short.status_code == routed.status_code == 429
    assert short.json() == routed.json()
    assert short.headers["retry-after"] == routed.headers["retry-after"]


def test_a_body_past_the_limit_is_refused_by_the_route(party: Party) -> None:
    app = party.client.app
    limit = app.state.settings.max_body_bytes  # type: ignore[attr-defined]
    cid = party.character(party.player)
    big = b'{"form": {"skill": "Force", "notes": "' + b"x" * limit + b'"}}'
    path = party.url(f"/characters/{cid}/roll")
    sent = party.player | {"Content-Type": "application/json"}
    assert party.client.post(path, content=big, headers=sent).status_code == 413

    def chunks() -> Any:  # no Content-Length: the size is known only as the body arrives
        yield big[: limit // 2]
        yield big[limit // 2 :]

    assert party.client.post(path, content=chunks(), headers=sent).status_code == 413


def test_one_lane_takes_plays_one_at_a_time_in_the_order_they_came() -> None:
    """On SQLite the short path runs one play at a time (``writepath.Lanes``), first come
    first served; without a bound (PostgreSQL) they overlap; each event loop gets its own."""

    async def plays(lanes: writepath.Lanes) -> tuple[list[str], int]:
        log: list[str] = []
        running = most = 0

        async def play(name: str) -> None:
            nonlocal running, most
            async with lanes.turn():
                running += 1
                most = max(most, running)
                log.append(f"start {name}")
                await asyncio.sleep(0.01)
                log.append(f"end {name}")
                running -= 1

        await asyncio.gather(*(play(str(i)) for i in range(4)))
        return log, most

    log, most = run_async(plays(one := writepath.Lanes(1)))
    assert most == 1
    assert log == [f"{what} {i}" for i in range(4) for what in ("start", "end")]
    assert run_async(plays(one))[1] == 1  # a second event loop: a semaphore of its own
    assert run_async(plays(writepath.Lanes(None)))[1] == 4


def test_a_roll_at_a_crowded_table_reads_its_author_alone_once_the_seats_are_forgotten(
    party: Party, counted: dict[str, int]
) -> None:
    """A roll's answer names its author. Once the table's seats are no longer trusted (their
    5 seconds ran out, or another process's notice dropped them) it reads that one seat,
    not every seat of the table: at a table of 1,000 observers, reading them all again took
    10 ms on the event loop every 5 seconds, and held up that roll and its feed."""
    app: Any = party.client.app
    store = app.state.store
    for number in range(30):
        store.add_member(party.table_id, "observer", f"Obs {number}", "joined")
    cid = _ready(party)
    body = {"form": {"skill": "Force"}, "privacy": "public"}
    url = party.url(f"/characters/{cid}/roll")
    assert party.client.post(url, json=body, headers=party.player).status_code == 201
    store.cache.drop(party.table_id, "members")
    seen: list[str] = []
    listen = (store.engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    event.listen(*listen)
    try:
        rolled = party.client.post(url, json=body, headers=party.player)
    finally:
        event.remove(*listen)
    assert rolled.status_code == 201
    author = rolled.json()["actor_id"]
    assert rolled.json()["actor"] == store.member(party.table_id, author).name
    assert counted["short"] == 2
    reads = [s for s in seen if "FROM members" in s]
    assert reads, "the seats were forgotten: the author is read again"
    assert all("members.session_hash = " in s or "members.id IN (" in s for s in reads), reads
