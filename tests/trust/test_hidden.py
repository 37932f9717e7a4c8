"""Hidden rolls: what a member who may not see a result receives commits to it, and hides it.

Pass criteria: a blind roll reaches its roller's export sealed (its hash and
``body_hash`` but no body, no salt); with every possible set of faces an
attacker can rebuild the exact body, yet none hashes to ``body_hash`` without
the salt (256 random bits, never the same twice), while the real salt picks
out exactly the true one; entries a member may not know of appear only as a
link in the chain (its seq, privacy, dice and body hash: what recomputes its hash);
once the seed is revealed every export shows them whole and
verifies, while the log API and the feed still hide them.
"""

from __future__ import annotations

import itertools
import secrets
from pathlib import Path
from typing import Any

from rulebound.core.canonical import to_jsonable
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game
from rulebound.trust.chain import MIN_SALT_BYTES, body_hash
from rulebound.trust.export import LINK_FIELDS

from .conftest import Table, verify


def _entry(doc: dict[str, Any], seq: int) -> dict[str, Any]:
    return next(e for e in doc["entries"] if e.get("seq") == seq)


def _candidates(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The body of the same roll for every possible set of faces (what a brute force tries)."""
    record = body["record"]
    sizes = [sides for sides, _ in record["draws"]]
    bodies = []
    for faces in itertools.product(*(range(1, s + 1) for s in sizes)):
        draws = [[s, f] for s, f in zip(sizes, faces, strict=True)]
        guess = dict(record, draws=draws)
        card = to_jsonable(TableRules(get_game("empty-reach")).card([guess]))
        summary = f"Ana: {card['outcome']}"
        bodies.append(dict(body, record=guess, card=card, summary=summary))
    return bodies


def test_a_blind_roll_is_sealed_and_cannot_be_brute_forced(table: Table, tmp_path: Path) -> None:
    cid = table.character("player")
    seq = table.roll("player", cid, "blind")["seq"]
    sealed = _entry(table.export("player"), seq)
    assert sealed["hidden"]
    assert (sealed["body"], sealed["salt"], sealed["card"], sealed["record"]) == (None,) * 4
    whole = _entry(table.export("gm"), seq)
    assert whole["body_hash"] == sealed["body_hash"]
    assert whole["hash"] == sealed["hash"]
    assert len(whole["salt"]) >= 2 * MIN_SALT_BYTES
    guesses = _candidates(whole["body"])
    assert len(guesses) == 8 * 6
    assert whole["body"] in guesses
    target = sealed["body_hash"]
    assert [g for g in guesses if body_hash(whole["salt"], g) == target] == [whole["body"]]
    for salt in ("", secrets.token_hex(32), "00" * 32):
        assert not any(body_hash(salt, g) == target for g in guesses)
    assert verify(table.export("player"), tmp_path).code == 0


def test_salts_are_fresh_for_every_entry(table: Table) -> None:
    cid = table.character("player")
    for privacy in ("public", "gm", "blind", "self", "gm"):
        table.roll("player", cid, privacy)
    salts = [e["salt"] for e in table.export("gm")["entries"] if e.get("salt")]
    assert len(salts) == len(set(salts)) > 8
    assert all(len(bytes.fromhex(s)) * 8 >= 128 for s in salts)


def test_an_entry_one_may_not_know_of_is_only_a_link(table: Table, tmp_path: Path) -> None:
    cid = table.character("player")
    secret = table.roll("player", cid, "self")
    public = table.roll("player", cid, "public")
    doc = table.export("gm")
    link = doc["entries"][secret["seq"] - 1]
    assert set(link) == set(LINK_FIELDS)
    assert (link["seq"], link["privacy"]) == (secret["seq"], "self")
    assert link["dice"] == {k: v for k, v in secret["dice"].items() if v is not None}
    assert _entry(doc, public["seq"])["prev_hash"] == link["hash"]
    verdict = verify(doc, tmp_path)
    assert verdict.code == 0
    assert "1 withheld" in verdict.out


def test_the_reveal_discloses_hidden_rolls_in_every_export_only(
    table: Table, tmp_path: Path
) -> None:
    cid = table.character("player")
    rolled = {p: table.roll("player", cid, p) for p in ("gm", "blind", "self")}
    outcomes = {
        p: _entry(table.export("player" if p == "self" else "gm"), e["seq"])["card"]["outcome"]
        for p, e in rolled.items()
    }
    table.reveal()
    later = table.roll("player", cid, "gm")
    for who in ("gm", "player", "other", "observer"):
        doc = table.export(who)
        for privacy, entry in rolled.items():
            shown = _entry(doc, entry["seq"])
            assert shown["privacy"] == privacy
            assert shown["card"]["outcome"] == outcomes[privacy]
            assert shown["body"]["card"] == shown["card"]
            assert shown["salt"]
        assert verify(doc, tmp_path).code == 0
        if who in ("other", "observer"):
            assert doc["entries"][later["seq"] - 1].get("withheld")
            log = table.client.get(table.url("/log"), headers=table.seats[who]).json()
            assert {e["seq"] for e in log["entries"]}.isdisjoint(e["seq"] for e in rolled.values())


def test_a_sealed_roll_shown_without_its_salt_fails_at_its_entry(
    table: Table, tmp_path: Path
) -> None:
    """A body, record or card put into a sealed entry cannot be proved without the salt:
    the verdict must not pass it as sealed (it used to, showing whatever was written)."""
    cid = table.character("player")
    seq = table.roll("player", cid, "blind")["seq"]
    whole = _entry(table.export("gm"), seq)
    for shown in ("body", "record", "card"):
        doc = table.export("player")
        sealed = _entry(doc, seq)
        sealed[shown] = whole[shown]
        verdict = verify(doc, tmp_path)
        assert verdict.code == 1, shown
        assert [p["seq"] for p in verdict.problems] == [seq]
        assert "without the salt" in verdict.problems[0]["detail"]
