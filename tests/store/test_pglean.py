"""PostgreSQL's append awaited on the libpq handle, pipelined (``store/pglean``, issue 13):
the same row and chain as the synchronous append, the same refusals, each call of a
pipeline its own transaction and its own answer, and a connection the server dropped
fails the appends waiting on it and is not used again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from importlib import import_module
from typing import Any, TypeVar

import pytest
from alembic import command
from psycopg.types.json import Json
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from rulebound.core.stored import Stored
from rulebound.store import Conflict, Contribution, LogEntry, NewEntry, NotFound, SqlStore
from rulebound.store.bridge import bridged
from rulebound.store.migrate import alembic_config, upgrade
from rulebound.store.pglean import Pipeline, as_text, positional
from rulebound.store.rawwrite import PIPELINES

from ..trust.test_chain import _recompute
from .conftest import new_table
from .test_bridge import run
from .test_raw_writes import _roll

T = TypeVar("T")


def test_placeholders_become_numbered_in_the_order_they_come() -> None:
    sql, names = positional("SELECT f(%(b)s::INTEGER, %(a)s::JSON, %(b)s)")
    assert sql == b"SELECT f($1::INTEGER, $2::JSON, $3)"
    assert names == ("b", "a", "b")
    with pytest.raises(ValueError, match="literal %"):
        positional("SELECT '100%%', %(a)s")


def test_parameters_are_sent_in_postgresqls_text_form() -> None:
    when = datetime(2026, 12, 3, 9, 30, 1, 250000, tzinfo=UTC)
    record = Stored.of({"b": [1, 2], "a": "é"})
    assert [as_text(v) for v in (None, True, False, 0, -7, "héllo", when)] == [
        None,
        b"t",
        b"f",
        b"0",
        b"-7",
        "héllo".encode(),
        b"2026-12-03T09:30:01.250000+00:00",
    ]
    assert as_text(Json(record)) == record.text.encode()  # the stored text, as written
    assert as_text(Json(None)) == b"null"  # a JSON null, as SQLAlchemy writes it
    assert as_text(Json([3])) == b"[3]"
    with pytest.raises(ValueError, match="time zone"):
        as_text(datetime(2026, 12, 3))
    with pytest.raises(TypeError, match="float"):
        as_text(1.5)


@pytest.fixture
def pg_store(store: SqlStore) -> SqlStore:
    if store.sqlite:
        pytest.skip("PostgreSQL's awaited append")
    return store


def bridged_call(func: Callable[[], T]) -> T:
    """``func`` as a play bridged on an event loop runs it: its append is awaited there."""

    async def main() -> T:
        return await bridged(func)

    return run(main())


def test_the_awaited_append_writes_the_chain_the_synchronous_one_writes(
    pg_store: SqlStore,
) -> None:
    store = pg_store
    table, gm = new_table(store)
    build = _roll(table.id, gm.id)
    store.append_drawn(table.id, build)  # learns the seed (the general path)

    def plays() -> list[Any]:
        return [store.append_drawn(table.id, build) for _ in range(3)] + [
            store.append(NewEntry(table.id, "talk", "public", gm.id, "Gina: héllo ✓"))
        ]

    written = bridged_call(plays)
    assert _pipe(store, table.id).usable  # they went down the table's pipelined connection
    log = store.log(table.id)
    assert [e.seq for e in written] == [e.seq for e in log[-4:]]
    for mine, stored in zip(written, log[-4:], strict=True):
        assert (mine.id, mine.hash, mine.prev_hash) == (stored.id, stored.hash, stored.prev_hash)
        assert mine.record == stored.record
        assert mine.card == stored.card
    assert written[-1].summary == "Gina: héllo ✓"
    _recompute(table.id, store.log(table.id))  # every hash recomputed from the rows


def test_the_awaited_append_refuses_as_the_synchronous_one_does(pg_store: SqlStore) -> None:
    store = pg_store
    table, gm = new_table(store)
    build = _roll(table.id, gm.id)
    store.append_drawn(table.id, build)
    mine = Contribution("cd" * 16, store.commitment(table.id))
    bridged_call(lambda: store.append_drawn(table.id, build, mine))
    seq = store.last_seq(table.id)
    with pytest.raises(Conflict, match="already used"):
        bridged_call(lambda: store.append_drawn(table.id, build, mine))
    with pytest.raises(NotFound):
        bridged_call(
            lambda: store.append(NewEntry(table.id + 99, "talk", "public", gm.id, "nowhere"))
        )
    assert store.last_seq(table.id) == seq
    later = bridged_call(lambda: store.append(NewEntry(table.id, "talk", "public", gm.id, "ok")))
    assert later.seq == seq + 1  # the connection that refused is used again


def _pipe(store: SqlStore, table_id: int) -> Pipeline:
    """The pipelined connection the table's awaited appends go down."""
    assert store.raw._pipes is not None
    pipe = store.raw._pipes[1][table_id % PIPELINES]
    assert isinstance(pipe, Pipeline)
    return pipe


def test_an_awaited_append_connection_the_server_dropped_fails_one_append(
    pg_store: SqlStore,
) -> None:
    store = pg_store
    table, gm = new_table(store)
    talk = NewEntry(table.id, "talk", "public", gm.id, "first")

    def dropped_then_more() -> tuple[int, list[str]]:
        store.append(talk)
        dropped = _pipe(store, table.id)
        pid = dropped.driver.info.backend_pid
        with store.engine.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
        time.sleep(0.3)
        failures = []
        try:
            store.append(NewEntry(table.id, "talk", "public", gm.id, "lost with it"))
        except OperationalError as exc:
            failures.append(type(exc).__name__)
        assert dropped._watched is None  # its socket unwatched before it closed
        store.append(NewEntry(table.id, "talk", "public", gm.id, "on a new one"))
        assert _pipe(store, table.id).driver.info.backend_pid != pid
        return pid, failures

    _, failures = bridged_call(dropped_then_more)
    assert failures == ["OperationalError"]
    assert [e.summary for e in store.log(table.id)][-2:] == ["first", "on a new one"]


def test_an_awaited_append_connection_watches_its_socket_once(pg_store: SqlStore) -> None:
    """The loop watches an append connection's socket from its first call on: a call adds no
    reader and removes none."""
    store = pg_store
    table, gm = new_table(store)
    added: list[int] = []

    async def main() -> list[Any]:
        loop = asyncio.get_running_loop()
        add_reader = loop.add_reader

        def counted(fd: Any, callback: Callable[..., Any], *args: Any) -> None:
            if isinstance(getattr(callback, "__self__", None), Pipeline):  # not the driver's
                added.append(fd)
            add_reader(fd, callback, *args)

        loop.add_reader = counted  # type: ignore[method-assign]
        talks = [NewEntry(table.id, "talk", "public", gm.id, f"t{n}") for n in range(5)]
        return await bridged(lambda: [store.append(talk) for talk in talks])

    written = run(main())
    assert [e.summary for e in store.log(table.id)][-5:] == [e.summary for e in written]
    assert len(added) == 1  # one connection, watched once for its prepare and five calls


def _at_once(store: SqlStore, plays: list[Callable[[], Any]]) -> list[Any]:
    """``plays`` bridged on one loop at once: each one's result, or what it raised."""

    async def main() -> list[Any]:
        return await asyncio.gather(*(bridged(play) for play in plays), return_exceptions=True)

    return run(main())


def test_awaited_appends_made_at_once_go_down_one_connection_a_transaction_each(
    pg_store: SqlStore,
) -> None:
    """Twelve appends at once on one table: sent down its one connection without waiting for
    each other, each committed on its own, answered to its own caller, chained in order."""
    store = pg_store
    table, gm = new_table(store)
    pids: set[int] = set()

    def talk(n: int) -> Callable[[], LogEntry]:
        def play() -> LogEntry:
            written = store.append(NewEntry(table.id, "talk", "public", gm.id, f"at once {n}"))
            pids.add(_pipe(store, table.id).driver.info.backend_pid)
            return written

        return play

    written = _at_once(store, [talk(n) for n in range(12)])
    assert len(pids) == 1
    log = store.log(table.id)
    assert sorted(e.seq for e in written) == [e.seq for e in log[-12:]]
    for mine in written:
        stored = next(e for e in log if e.seq == mine.seq)
        assert (mine.id, mine.summary, mine.hash) == (stored.id, stored.summary, stored.hash)
    _recompute(table.id, log)


def test_an_awaited_append_refused_in_a_pipeline_fails_alone(pg_store: SqlStore) -> None:
    """The middle one of three appends sent at once spends a contribution already spent: it
    alone is refused; the ones before and after it are written."""
    store = pg_store
    table, gm = new_table(store)
    build = _roll(table.id, gm.id)
    store.append_drawn(table.id, build)  # learns the seed (the general path)
    spent = Contribution("ab" * 16, store.commitment(table.id))
    bridged_call(lambda: store.append_drawn(table.id, build, spent))
    before = store.last_seq(table.id)

    def fresh(n: int) -> Callable[[], Any]:
        mine = Contribution(f"{n:02d}" * 16, store.commitment(table.id))
        return lambda: store.append_drawn(table.id, build, mine)

    got = _at_once(store, [fresh(1), lambda: store.append_drawn(table.id, build, spent), fresh(2)])
    assert isinstance(got[1], Conflict)
    assert [type(g) for g in (got[0], got[2])] == [LogEntry, LogEntry]
    assert store.last_seq(table.id) == before + 2


def test_a_cancelled_awaited_append_leaves_the_connection_to_the_calls_behind_it(
    pg_store: SqlStore,
) -> None:
    """A caller that stops waiting (its request was cut off) drops only its own answer: the
    calls sent behind it on the same connection get theirs, and the connection stays."""
    store = pg_store
    table, gm = new_table(store)

    def talk(text: str) -> Callable[[], LogEntry]:
        return lambda: store.append(NewEntry(table.id, "talk", "public", gm.id, text))

    async def main() -> tuple[list[LogEntry], int, int]:
        await bridged(talk("first"))
        pid = _pipe(store, table.id).driver.info.backend_pid
        cut = asyncio.ensure_future(bridged(talk("cut off")))
        behind = [asyncio.ensure_future(bridged(talk(f"behind {n}"))) for n in range(3)]
        await asyncio.sleep(0)  # every call is sent
        cut.cancel()
        got = await asyncio.gather(*behind)
        with suppress(asyncio.CancelledError):
            await cut
        return got, pid, _pipe(store, table.id).driver.info.backend_pid

    got, pid, after = run(main())
    assert after == pid
    assert [e.summary for e in got] == ["behind 0", "behind 1", "behind 2"]
    log = {e.seq: e.summary for e in store.log(table.id)}
    assert all(log[e.seq] == e.summary for e in got)


def test_tables_spread_over_the_pipelined_connections(pg_store: SqlStore) -> None:
    store = pg_store
    tables = [new_table(store) for _ in range(PIPELINES + 1)]

    def each() -> list[int]:
        for table, gm in tables:
            store.append(NewEntry(table.id, "talk", "public", gm.id, "hello"))
        return [_pipe(store, table.id).driver.info.backend_pid for table, _ in tables]

    pids = bridged_call(each)
    assert len(set(pids)) == PIPELINES  # one per slot, the extra table sharing one
    for (table, _), pid in zip(tables, pids, strict=True):
        assert pid == pids[[t.id % PIPELINES for t, _ in tables].index(table.id % PIPELINES)]


def _migration(name: str) -> Any:
    return import_module(f"rulebound.store.migrations.versions.{name}")


def _appended_by(store: SqlStore, body: str, tag: str) -> tuple[list[Any], list[Any]]:
    """``rulebound_append`` defined by ``body`` (its migration's), called on a new table as
    a roll on the seed in force, as a talk, on a seed that moved, on no table; its answers
    (ids made relative) and the rows it wrote."""
    calls: list[dict[str, Any]] = []
    with store.engine.begin() as conn:
        conn.exec_driver_sql(body)
        table = conn.execute(
            text(
                "INSERT INTO game_tables (name, ruleset, variants, gm_token, player_token,"
                " created_at) VALUES ('T', 'empty-reach', '{}', :g, :p, now()) RETURNING id"
            ),
            {"g": f"g{tag}", "p": f"p{tag}"},
        ).scalar_one()
        conn.execute(
            text(
                "INSERT INTO table_seeds (table_id, commitment, server_seed, created_at)"
                " VALUES (:t, :c, 's', now())"
            ),
            {"t": table, "c": tag * 64},
        )
    base = {
        "before": '{"a":1,"seq":',
        "after": "}",
        "channel": None,
        "tail": "",
        "privacy": "public",
        "actor": None,
        "character": None,
        "parent": None,
        "record": "{}",
        "card": None,
        "changed": "[]",
        "created": datetime(2026, 12, 3, tzinfo=UTC),
        "salt": "5" * 64,
        "contribution": None,
        "chosen": None,
    }
    calls = [
        base | {"table": table, "commitment": tag * 64, "kind": "roll", "contribution": "c1"},
        base | {"table": table, "commitment": None, "kind": "talk", "summary": "hi"},
        base | {"table": table, "commitment": "f" * 64, "kind": "roll", "contribution": "c2"},
        base | {"table": table, "commitment": tag * 64, "kind": "roll", "contribution": "c3"},
        base | {"table": table + 999, "commitment": None, "kind": "talk"},
    ]
    call = text(
        "SELECT * FROM rulebound_append(:table, :commitment, :before, :after, :channel, :tail,"
        " :kind, :privacy, :actor, :character, :parent, CAST(:record AS json),"
        " CAST(:card AS json), :summary, CAST(:changed AS json), :created, :salt,"
        " :contribution, :chosen)"
    )
    answers = []
    with store.engine.connect() as conn:
        for params in calls:
            rows = conn.execute(call, {"summary": "", **params}).all()
            conn.commit()
            answers.append([(seq, prev, sealed, key is None) for key, seq, prev, sealed in rows])
        written = conn.execute(
            text(
                "SELECT seq, kind, summary, prev_hash, hash, contribution FROM log_entries"
                " WHERE table_id = :t ORDER BY seq"
            ),
            {"t": table},
        ).all()
    return answers, [tuple(row) for row in written]


def test_the_two_statement_append_answers_and_writes_as_migration_0008s(
    pg_store: SqlStore,
) -> None:
    """Migration 0009's body of ``rulebound_append`` against 0008's, on the same calls: the
    same answers (a row, a row of NULLs where the seed moved, none without a table) and
    the same chained rows."""
    old = _migration("0008_append_function").APPEND
    new = _migration("0009_append_in_two_statements").APPEND
    try:
        before = _appended_by(pg_store, old, "a")
        after = _appended_by(pg_store, new, "b")
    finally:
        with pg_store.engine.begin() as conn:
            conn.exec_driver_sql(new)
    assert before == after
    answers, written = after
    assert [len(a) for a in answers] == [1, 1, 1, 1, 0]
    assert answers[2] == [(None, None, None, True)]  # the seed moved: nothing written
    assert [(seq, kind) for seq, kind, *_ in written] == [(1, "roll"), (2, "talk"), (3, "roll")]
    assert written[0][3] == "0" * 64
    assert [w[3] for w in written[1:]] == [w[4] for w in written[:-1]]  # chained


def test_migration_0009_goes_down_to_0008s_append_and_up_again(pg_store: SqlStore) -> None:
    def body() -> str:
        with pg_store.engine.connect() as conn:
            found = "SELECT prosrc FROM pg_proc WHERE proname = 'rulebound_append'"
            return str(conn.execute(text(found)).scalar_one())

    at_head = body()
    config = alembic_config()
    try:
        with pg_store.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, "0008")
        assert body().strip() in _migration("0008_append_function").APPEND
        assert body() != at_head
    finally:
        upgrade(pg_store.engine)
    assert body() == at_head
