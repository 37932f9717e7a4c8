"""Issue 14, item 9: one user action is one transaction, and a database that cannot be
written answers 503 without leaking what the statement carried.

Pass criteria, on SQLite and PostgreSQL:

- when the log entry of an action cannot be written (a trigger refuses it), no part of
  the action is saved: opening a table, joining, a new character, a revoke, an import, a
  roll, a reveal and the last step of guided creation each leave every table of the
  database exactly as it was;
- a full database (SQLite filled up to its page limit; PostgreSQL's SQLSTATE 53100, as a
  full disk raises it) and a read-only one answer 503 with a message that says nothing
  was saved, on the API and on pages;
- the server's log names the failure but no SQL parameter (no token, no "[parameters"):
  the engines hide them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError

from rulebound.store import SqlStore
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..client import AppClient
from ..web.conftest import Party, games_for_tests, seat_party

TABLES = ("game_tables", "members", "characters", "log_entries", "table_seeds", "used_nonces")


@pytest.fixture
def client(db_url: str) -> Iterator[AppClient]:
    settings = Settings(
        database_url=db_url,
        games=games_for_tests,
        session_rate=None,
        table_rate=None,
        anonymous_rate=None,
    )
    with AppClient(create_app(settings), raise_server_exceptions=False) as opened:
        yield opened


@pytest.fixture
def party(client: AppClient) -> Iterator[Party]:
    seated = seat_party(client)
    yield seated
    store = _store(seated)
    if not store.sqlite:  # the PostgreSQL database is shared by the tests that follow
        store.engine.dispose()
        clean = SqlStore(store.url, migrate=False)
        with clean.engine.begin() as conn:
            conn.execute(text("DROP TRIGGER IF EXISTS refuse_log ON log_entries"))
            conn.execute(text("DROP FUNCTION IF EXISTS refuse_log()"))
        clean.close()


def _store(party: Party) -> SqlStore:
    store: SqlStore = party.client.app.state.store
    return store


def _snapshot(store: SqlStore) -> dict[str, list[Any]]:
    with store.engine.connect() as conn:
        return {
            name: [tuple(row) for row in conn.execute(text(f"SELECT * FROM {name} ORDER BY 1"))]
            for name in TABLES
        }


def _raw(store: SqlStore, *statements: str) -> None:
    with store.engine.connect().execution_options(rulebound_write=True) as conn, conn.begin():
        for statement in statements:
            conn.execute(text(statement))


def _refuse_log_entries(store: SqlStore) -> None:
    """Every new log entry fails (on PostgreSQL with a full disk's own SQLSTATE)."""
    if store.sqlite:
        _raw(
            store,
            "CREATE TRIGGER refuse_log BEFORE INSERT ON log_entries"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
        )
        return
    _raw(
        store,
        "CREATE OR REPLACE FUNCTION refuse_log() RETURNS trigger AS"
        " $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = '53100'; END $$"
        " LANGUAGE plpgsql",
        "CREATE TRIGGER refuse_log BEFORE INSERT ON log_entries"
        " FOR EACH ROW EXECUTE FUNCTION refuse_log()",
    )


def _on_connect(store: SqlStore, statement: str) -> None:
    def run(dbapi: Any, _record: Any) -> None:
        cursor = dbapi.cursor()
        cursor.execute(statement)
        cursor.close()
        if not store.sqlite:
            dbapi.commit()

    event.listen(store.engine, "connect", run)
    store.engine.dispose()


def _fill_up(store: SqlStore) -> None:
    """A full disk: on SQLite the file may not grow and its log's last page is full; on
    PostgreSQL a log entry fails as a full disk makes it fail."""
    if not store.sqlite:
        _refuse_log_entries(store)
        return
    with store.engine.connect() as conn:
        pages = int(conn.exec_driver_sql("PRAGMA page_count").scalar_one())
    _on_connect(store, f"PRAGMA max_page_count = {pages + 2}")
    _raw(
        store,
        "INSERT INTO game_tables (name, ruleset, variants, gm_token, player_token,"
        " created_at) VALUES ('junk', 'x', '{}', 'junk-gm', 'junk-player', '2026-01-01')",
    )
    for seq in range(1, 5000):
        try:
            _raw(
                store,
                "INSERT INTO log_entries (table_id, seq, kind, privacy, record, summary,"
                f" changed, created_at) SELECT max(id), {seq}, 'j', 'public', '{{}}', '', '[]',"
                " '2026-01-01' FROM game_tables",
            )
        except DBAPIError as exc:
            if "full" not in str(exc):
                raise
            return
    raise AssertionError("the database never filled up")


def _read_only(store: SqlStore) -> None:
    if store.sqlite:
        _on_connect(store, "PRAGMA query_only = ON")
    else:
        _on_connect(store, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")


Action = Callable[[Party, int], Any]


def _post(path: str, body: dict[str, Any], *, seated: bool = True) -> Action:
    def act(party: Party, cid: int) -> Any:
        url = path.format(t=party.table_id, c=cid, player=_token(party))
        return party.client.post(url, json=body, headers=party.gm if seated else {})

    return act


def _token(party: Party) -> str:
    return str(party.invites["player"]).rsplit("/", 1)[1]


def _revoke(party: Party, cid: int) -> Any:
    url = party.url(f"/members/{party.ids['other']}")
    return party.client.patch(url, json={"revoked": True}, headers=party.gm)


def _import(party: Party, cid: int) -> Any:
    url = party.url(f"/characters/{cid}/sheet")
    sheet = party.client.get(party.url(f"/characters/{cid}"), headers=party.gm).json()["sheet"]
    return party.client.put(url, json={"sheet": dict(sheet, name="Renamed")}, headers=party.gm)


ACTIONS: dict[str, Action] = {
    "open a table": _post(
        "/api/tables", {"name": "T", "ruleset": "empty-reach", "gm_name": "G"}, seated=False
    ),
    "join": _post("/api/join/{player}", {"name": "Joe"}, seated=False),
    "new character": _post("/api/tables/{t}/characters", {"name": "Bo"}),
    "revoke": _revoke,
    "import a sheet": _import,
    "roll": _post("/api/tables/{t}/characters/{c}/roll", {"form": {"skill": "Force"}}),
    "reveal": _post("/api/tables/{t}/dice/reveal", {}),
}


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_an_action_whose_log_entry_fails_saves_nothing(party: Party, name: str) -> None:
    cid = party.character(party.gm, "Ana")
    store = _store(party)
    _refuse_log_entries(store)
    before = _snapshot(store)
    answer = ACTIONS[name](party, cid)
    assert answer.status_code in (409, 503), (answer.status_code, answer.text)
    assert _snapshot(store) == before


def test_guided_creations_last_step_whose_log_entry_fails_saves_nothing(party: Party) -> None:
    guided = seat_party(party.client, "guided-test")
    state = None
    for form in ({}, {}, {"kin": "human"}):
        answer = guided.client.post(
            guided.url("/creation"), json={"state": state, "form": form}, headers=guided.gm
        )
        state = answer.json()["state"]
    store = _store(party)
    _refuse_log_entries(store)
    before = _snapshot(store)
    body = {"state": state, "form": {"name": "Hild"}}
    answer = guided.client.post(guided.url("/creation"), json=body, headers=guided.gm)
    assert answer.status_code in (409, 503), answer.text
    assert _snapshot(store) == before


@pytest.mark.parametrize("how", ["full", "read-only"])
def test_a_database_that_cannot_be_written_answers_503(
    party: Party, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    cid = party.character(party.gm, "Ana")
    store = _store(party)
    (_fill_up if how == "full" else _read_only)(store)
    before = _snapshot(store)
    with caplog.at_level(logging.INFO):
        answers = [
            ACTIONS["join"](party, cid),
            ACTIONS["roll"](party, cid),
            party.client.post(
                f"/t/{party.table_id}/c/{cid}/roll",
                data={"skill": "Force"},
                headers=party.gm | {"Sec-Fetch-Site": "same-origin"},
            ),
        ]
        if how == "read-only":
            answers.append(
                party.client.post(party.url("/invites/player/rotate"), json={}, headers=party.gm)
            )
    for answer in answers:
        assert answer.status_code == 503, answer.text
        assert "nothing of this action was saved" in answer.text
    assert answers[0].json()["error"] == "unavailable"
    assert "<html" in answers[2].text
    assert _snapshot(store) == before
    logged = "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith("http"))
    assert "database unavailable" in logged
    assert "[parameters" not in logged
    secrets = [_token(party), party.gm["Authorization"].removeprefix("Bearer ")]
    secrets += [str(v).rsplit("/", 1)[1] for v in party.invites.values() if v]
    assert not [s for s in secrets if s in logged]


def test_the_engines_hide_sql_parameters(store: SqlStore) -> None:
    marker = "secret-token-that-must-not-be-logged"
    with pytest.raises(DBAPIError) as failed, store.engine.connect() as conn:
        conn.execute(text("SELECT * FROM no_such_table WHERE x = :x"), {"x": marker})
    assert marker not in str(failed.value)
    assert "hidden" in str(failed.value)
