"""Migrations 0002 and 0003 keep the logs of databases written before them.

Pass criteria: on SQLite and PostgreSQL, a log written at revision 0001 is
chained in seq order after the upgrade (each table from the genesis hash), each
existing table gets one committed seed, new plays extend the chain with
committed dice, and the export verifies (the old plays counted as uncommitted);
plays logged at 0002 with the table's client seed and nonce keep their dice and
hashes through 0003, new plays after them carry per-roll contributions, and the
export verifies; characters keep their sheets (the base of their history);
downgrading to 0001 and upgrading again works.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import text

from rulebound.core.verifiable import VerifiableSource
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game
from rulebound.store import Dice, NewEntry, Scope, SqlStore, Staged
from rulebound.store.engine import make_engine
from rulebound.store.migrate import alembic_config, upgrade
from rulebound.store.testing import reset_postgres
from rulebound.trust.chain import GENESIS, dice_of, entry_body, seal
from rulebound.web.app import create_app

from ..client import AppClient
from .conftest import Table, bearer, trust_settings, verify


def _as_stored(moment: datetime) -> str:
    """A time as a raw statement's value: the text Python's sqlite3 wrote for a datetime
    before 3.12 deprecated that (PostgreSQL reads it as the same timestamptz)."""
    return moment.isoformat(" ")


def _old_database(url: str) -> list[int]:
    """Two tables and a few entries (one roll with draws, one follow-up), written at 0001."""
    if not url.startswith("sqlite"):
        reset_postgres(url)
    engine = make_engine(url)
    upgrade(engine, "0001")
    now = _as_stored(datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC))
    new_table = text(
        "INSERT INTO game_tables (name, ruleset, variants, gm_token, player_token, created_at)"
        " VALUES (:name, 'empty-reach', '{}', :gm, :player, :now)"
    )
    new_entry = text(
        "INSERT INTO log_entries (table_id, seq, kind, privacy, record, summary, changed,"
        " created_at, parent_id) VALUES (:t, :seq, :kind, :privacy, :record, :summary, '[]',"
        " :now, :parent)"
    )
    last = text("SELECT max(id) FROM log_entries")
    with engine.connect().execution_options(rulebound_write=True) as conn, conn.begin():
        ids = []
        for name in ("Old one", "Old two"):
            tokens = {"gm": f"{name} gm", "player": f"{name} player"}
            conn.execute(new_table, {"name": name, "now": now} | tokens)
            ids.append(int(conn.execute(text("SELECT max(id) FROM game_tables")).scalar_one()))
        one, two = ids
        rows = [
            (one, 1, "note", "public", {}, "opened", False),
            (one, 2, "roll", "gm", {"kind": "roll", "draws": [[8, 3], [6, 6]]}, "Ana: x", False),
            (one, 3, "follow-up", "gm", {"kind": "push", "draws": [[8, 5]]}, "Ana: y", True),
            (two, 1, "note", "public", {}, "ünïcode ✓", False),
        ]
        for table_id, seq, kind, privacy, record, summary, follows in rows:
            parent = conn.execute(last).scalar() if follows else None
            values = {"t": table_id, "seq": seq, "kind": kind, "privacy": privacy}
            values |= {"record": json.dumps(record), "summary": summary, "now": now}
            conn.execute(new_entry, values | {"parent": parent})
    engine.dispose()
    return ids


def _assert_chained(store: SqlStore, table_id: int) -> None:
    prev = GENESIS
    for entry in store.log(table_id):
        assert entry.prev_hash == prev
        assert len(entry.salt) == 64
        prev = entry.hash
    assert store.log(table_id)


def test_the_upgrade_chains_old_logs_and_commits_a_seed(db_url: str, tmp_path: Path) -> None:
    tables = _old_database(db_url)
    store = SqlStore(db_url)
    try:
        for table_id in tables:
            _assert_chained(store, table_id)
            assert len(store.seeds(table_id)) == 1
            assert store.commitment(table_id)
        one, two = tables

        def play(dice: Dice) -> Staged:
            record = {"draws": [[6, dice.source().draw(6)]]}
            return Staged(NewEntry(one, "roll", "public", None, "new", record=record))

        logged = store.append_drawn(one, play)
        assert (logged.seq, logged.nonce, logged.server_chosen) == (4, None, True)
        _assert_chained(store, one)
        assert [e.summary for e in store.entries(two, Scope(0, True), after=0)] == ["ünïcode ✓"]
    finally:
        store.close()


def test_the_migrated_log_exports_and_verifies(db_url: str, tmp_path: Path) -> None:
    one, _ = _old_database(db_url)
    with AppClient(create_app(trust_settings(db_url))) as client:
        store: SqlStore = client.app.state.store
        _, token = store.add_member(one, "gm", "Gina", "Gina joined as game master")
        table = Table(client, one, {"gm": bearer(token)})
        doc = table.export("gm")
    assert [e["seq"] for e in doc["entries"]] == [1, 2, 3, 4]
    strict = verify(doc, tmp_path)
    assert (strict.code, strict.first) == (1, 2)
    assert "not drawn from a committed seed" in strict.problems[0]["detail"]
    allowed = verify(doc, tmp_path, "--allow-uncommitted")
    assert allowed.code == 0
    assert "uncommitted: 2 plays" in allowed.out


OLD_SHEET = TableRules(get_game("empty-reach")).apply_sheet_form(
    TableRules(get_game("empty-reach")).new_sheet("Ana"), {"skills.Force": "D6"}
)


def _played_at_0002(url: str) -> int:
    """Table one at revision 0002, as the server of that time left it: a client seed set,
    two rolls with the table's nonces 1 and 2, and a character."""
    one, _ = _old_database(url)
    engine = make_engine(url)
    upgrade(engine, "0002")
    now = datetime(2026, 2, 3, 4, 5, 6, tzinfo=UTC)
    with engine.connect().execution_options(rulebound_write=True) as conn, conn.begin():
        seed, commitment = conn.execute(
            text("SELECT server_seed, commitment FROM table_seeds WHERE table_id = :t"),
            {"t": one},
        ).one()
        prev = conn.execute(
            text("SELECT hash FROM log_entries WHERE table_id = :t AND seq = 3"), {"t": one}
        ).scalar_one()
        plays: list[tuple[str, dict[str, Any] | None, int | None]]
        plays = [("client-seed", {"client_seed": "pia"}, None)]
        plays += [("roll", None, nonce) for nonce in (1, 2)]
        for seq, (kind, record, nonce) in enumerate(plays, start=4):
            if record is None:
                assert nonce is not None  # a roll: the table's nonce, no record yet
                source = VerifiableSource(seed, "pia", nonce)
                record = {"kind": "note", "draws": [[6, source.draw(6)]]}
            body = entry_body(
                kind=kind,
                actor_id=None,
                character_id=None,
                parent_id=None,
                record=record,
                card=None,
                summary=kind,
                changed=[],
                created_at=now,
            )
            dice = (
                None if nonce is None else dice_of(commitment, None, client_seed="pia", nonce=nonce)
            )
            sealed = seal(one, seq, "public", dice, body, prev)
            values = {"t": one, "seq": seq, "kind": kind, "summary": kind, "now": _as_stored(now)}
            values["record"] = json.dumps(record)
            values |= {"prev": prev, "hash": sealed.hash, "salt": sealed.salt}
            values |= {"c": None if nonce is None else commitment, "n": nonce}
            values |= {"cs": None if nonce is None else "pia"}
            conn.execute(
                text(
                    "INSERT INTO log_entries (table_id, seq, kind, privacy, record, summary,"
                    " changed, created_at, prev_hash, hash, salt, commitment, client_seed, nonce)"
                    " VALUES (:t, :seq, :kind, 'public', :record, :summary, '[]', :now, :prev,"
                    " :hash, :salt, :c, :cs, :n)"
                ),
                values,
            )
            prev = sealed.hash
        conn.execute(
            text(
                "INSERT INTO characters (table_id, name, sheet, version, updated_at)"
                " VALUES (:t, 'Ana', :sheet, 3, :now)"
            ),
            {"t": one, "sheet": json.dumps(OLD_SHEET), "now": _as_stored(now)},
        )
        conn.execute(text("UPDATE game_tables SET client_seed = 'pia', nonce = 2"))
    engine.dispose()
    return one


def test_old_dice_keep_their_hashes_and_new_plays_bring_contributions(
    db_url: str, tmp_path: Path
) -> None:
    one = _played_at_0002(db_url)
    with AppClient(create_app(trust_settings(db_url))) as client:
        store: SqlStore = client.app.state.store
        old = store.log(one)
        assert [e.nonce for e in old[4:]] == [1, 2]
        assert old[4].dice == {"commitment": old[4].commitment, "client_seed": "pia", "nonce": 1}
        _assert_chained(store, one)
        [ana] = store.characters(one)
        assert (ana.sheet, ana.version) == (OLD_SHEET, 3)
        _, token = store.add_member(one, "gm", "Gina", "Gina joined as game master")
        table = Table(client, one, {"gm": bearer(token)})
        rolled = table.roll("gm", ana.id)
        assert rolled["dice"]["contribution"]
        table.reveal()
        doc = table.export("gm")
    assert [e["dice"]["nonce"] for e in doc["entries"][4:6]] == [1, 2]
    verdict = verify(doc, tmp_path, "--allow-uncommitted")
    assert verdict.code == 0, verdict.problems
    assert "dice: 3 committed plays, 4 dice recomputed" in verdict.out


def test_downgrade_and_upgrade_again(db_url: str) -> None:
    tables = _old_database(db_url)
    engine = make_engine(db_url)
    upgrade(engine)
    config = alembic_config()
    with engine.connect().execution_options(rulebound_write=True) as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
        connection.commit()
    engine.dispose()
    store = SqlStore(db_url)
    try:
        for table_id in tables:
            _assert_chained(store, table_id)
            assert len(store.seeds(table_id)) == 1
    finally:
        store.close()
