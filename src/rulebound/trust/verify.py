"""Check an exported log (``trust.export``): the chain, the commitments, and every die.

``verify_export`` walks the entries in order and reports each problem with the
seq of the entry it is found at, the first one first:

- the chain: seqs follow one another (a missing seq is a deleted entry), each
  ``prev_hash`` is the hash of the entry before, each hash is
  ``SHA-256(prev_hash + canonical content)``;
- the commitments: each shown body hashes, with its salt (at least 128 bits),
  to the entry's ``body_hash``, and what the entry shows is what it hashed;
  each revealed seed hashes to its commitment;
- the dice (``trust.dice``): each roll's dice come from the seed committed at
  the time, the client seed set at the time and a nonce never used before; once
  its seed is revealed every face is recomputed, and roll chains are replayed
  through the ruleset's own ``card(chain)``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.trust.chain import GENESIS, MIN_SALT_BYTES, body_hash, chain_hash, entry_content
from rulebound.trust.dice import DiceCheck
from rulebound.trust.export import FORMAT, WITHHELD

SHOWN_FIELDS = ("kind", "actor_id", "character_id", "parent_id", "record", "card", "summary")
HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class Problem:
    seq: int | None
    """The entry the problem is found at (None: the export as a whole, or a seed)."""
    detail: str

    def __str__(self) -> str:
        return self.detail if self.seq is None else f"entry {self.seq}: {self.detail}"


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    entries: int = 0
    sealed: int = 0
    withheld: int = 0
    seeds: int = 0
    revealed: int = 0
    rolls: int = 0
    dice: int = 0
    pending: int = 0
    uncommitted: int = 0
    cards: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, seq: int | None, detail: str) -> None:
        self.problems.append(Problem(seq, detail))

    def summary(self) -> list[str]:
        lines = [
            f"chain: {self.entries} entries ({self.sealed} sealed, {self.withheld} withheld"
            " from this export)",
            f"seeds: {self.seeds} committed, {self.revealed} revealed",
            f"dice: {self.rolls} committed plays, {self.dice} dice recomputed from revealed"
            f" seeds; {self.pending} plays await a reveal",
            f"cards: {self.cards} results replayed through the ruleset",
        ]
        if self.uncommitted:
            lines.append(f"uncommitted: {self.uncommitted} plays with dice from no committed seed")
        return lines + self.notes

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problems": [{"seq": p.seq, "detail": p.detail} for p in self.problems],
            "summary": self.summary(),
        }


def load_export(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput("file", str(path), f"a readable JSON log export ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput("format", _get(data, "format"), f"a log export in format {FORMAT}")
    if not isinstance(data.get("entries"), list) or not isinstance(data.get("table_id"), int):
        raise InvalidInput("entries", "(missing)", "an export with table_id and entries")
    return data


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, Mapping) else None


def verify_export(doc: Mapping[str, Any], *, allow_uncommitted: bool = False) -> Report:
    report = Report()
    dice = DiceCheck(doc, report, allow_uncommitted=allow_uncommitted)
    table_id = doc.get("table_id")
    prev, expected = GENESIS, 1
    for item in doc.get("entries", []):
        if not isinstance(item, Mapping):
            report.add(expected, "not an entry (a JSON object)")
            expected += 1
            continue
        if item.get(WITHHELD):
            if item.get("prev_hash") != prev:
                report.add(expected, _broken_link(expected))
            report.withheld += 1
            report.entries += 1
            prev, expected = str(item.get("hash")), expected + 1
            continue
        seq = item.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            report.add(expected, "has no seq")
            seq = expected
        if seq > expected:
            gone = f"entry {expected}" if seq == expected + 1 else f"entries {expected}-{seq - 1}"
            report.add(expected, f"missing: the log jumps to entry {seq} ({gone} deleted?)")
        elif seq < expected:
            report.add(seq, f"out of order: it comes after entry {expected - 1}")
        elif item.get("prev_hash") != prev:
            report.add(seq, _broken_link(seq))
        _check_entry(table_id, seq, item, report)
        dice.entry(seq, item)
        report.entries += 1
        prev, expected = str(item.get("hash")), seq + 1
    report.problems.sort(key=lambda p: -1 if p.seq is None else p.seq)
    return report


def _broken_link(seq: int) -> str:
    before = "the start of the log" if seq == 1 else f"entry {seq - 1}"
    return f"prev_hash is not the hash of {before} (an entry was changed, removed or moved)"


def _check_entry(table_id: Any, seq: int, item: Mapping[str, Any], report: Report) -> None:
    prev, digest = item.get("prev_hash"), item.get("body_hash")
    if not (_is_hash(prev) and _is_hash(item.get("hash")) and _is_hash(digest)):
        report.add(seq, "prev_hash, hash and body_hash must be SHA-256 hex digests")
        return
    content = entry_content(table_id, seq, str(item.get("privacy")), item.get("dice"), str(digest))
    if chain_hash(str(prev), content) != item.get("hash"):
        report.add(seq, "its content does not match its hash (edited after it was logged?)")
    body, salt = item.get("body"), item.get("salt")
    if body is None or salt is None:
        if item.get("privacy") == "public" or not item.get("hidden"):
            report.add(seq, "the body of an entry shown to this member is missing")
        report.sealed += 1
        return
    if not isinstance(salt, str) or len(salt) < 2 * MIN_SALT_BYTES or set(salt) - HEX:
        report.add(seq, f"its salt must be at least {MIN_SALT_BYTES * 8} random bits, in hex")
        return
    if not isinstance(body, Mapping) or body_hash(salt, body) != digest:
        report.add(seq, "its body does not match its body_hash (edited after it was logged?)")
        return
    for key in SHOWN_FIELDS:
        if key in item and item[key] != body.get(key):
            report.add(seq, f"the {key} it shows is not the {key} it hashed")
            return


def _is_hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and not set(value) - HEX
