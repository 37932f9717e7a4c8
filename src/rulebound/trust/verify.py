"""Check an exported log (``trust.export``): the chain, the commitments, and every die.

``verify_export`` walks the entries in order and reports each problem with the
seq of the entry it is found at, the first one first:

- the chain: seqs follow one another (a missing seq is a deleted entry), each
  ``prev_hash`` is the hash of the entry before, each hash is
  ``SHA-256(prev_hash + canonical content)``, withheld links included (a public entry
  is never withheld);
- the commitments: each shown body hashes, with its salt (at least 128 bits),
  to the entry's ``body_hash``, and what the entry shows is what it hashed (a sealed
  entry, without its salt, shows no body, record or card);
  each revealed seed hashes to its commitment;
- the table: its ruleset is installed here, and is the one (with the variants) its first
  entry records;
- the dice (``trust.dice``): each roll's dice come from the seed committed at the time,
  with a contribution no other roll used (or, for old plays, the client seed set at the
  time and the next nonce); once its seed is revealed every face is recomputed, chains of
  plays (rolls, sheet and table actions, their follow-ups) are replayed through the
  ruleset's own ``card(chain)``, and no entry under it may be kept from the export.

Whatever a file holds, it ends in a verdict: a crafted entry is a problem at its seq,
never an exception. ``earlier`` compares an earlier copy of the same export: an entry's
hash never changes, so a rewrite is named at the first entry that differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebound.core.canonical import UnreadableJSON, read_json
from rulebound.core.errors import InvalidInput
from rulebound.trust.chain import (
    GENESIS,
    MIN_SALT_BYTES,
    PRIVACY_MODES,
    body_hash,
    chain_hash,
    entry_content,
)
from rulebound.trust.dice import DiceCheck
from rulebound.trust.export import FORMATS, OLD_FORMAT, WITHHELD

SHOWN_FIELDS = ("kind", "actor_id", "character_id", "parent_id", "record", "card", "summary")
HEX = frozenset("0123456789abcdef")
UNPROVED = ("body", "record", "card")
"""What a sealed entry may not show: without its salt nothing proves it is what was hashed."""


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
    """Hidden entries this export shows as their hashes only (no body, no salt)."""
    withheld: int = 0
    """Entries the exporting member may not know of: links of the chain, nothing more."""
    old_links: int = 0
    seeds: int = 0
    revealed: int = 0
    rolls: int = 0
    """Plays whose dice came from a committed seed."""
    server_chosen: int = 0
    dice: int = 0
    """Faces recomputed from revealed seeds."""
    pending: int = 0
    """Committed plays whose seed is not revealed yet."""
    uncommitted: int = 0
    cards: int = 0
    cards_worded_before: int = 0
    """Replayed cards in the games' earlier words (``Card.wording``): compared by what they
    mean (outcome key, success, dice), not word for word."""
    recommits: list[int] = field(default_factory=list)
    """Plays that came right after another member re-committed the dice."""
    free_rolls: int = 0
    """Free rolls rebuilt from their expression and draws."""
    unreplayed: int = 0
    """Actions whose card their ruleset does not rebuild (``Game.unreplayed_actions``, or a
    game with no ``tool_card``): their dice are checked, their cards are not."""
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
            f"free rolls: {self.free_rolls} rebuilt from their expressions and draws",
        ]
        if self.server_chosen:
            lines.append(
                f"server-chosen: {self.server_chosen} plays whose contribution the server"
                " chose (the roller sent none): the host could have picked their dice"
            )
        if self.old_links:
            lines.append(
                f"old links: {self.old_links} withheld links of a {OLD_FORMAT} export carry no"
                " content, so their hashes are not recomputed (export again for a full check)"
            )
        if self.unreplayed:
            lines.append(
                f"unreplayed: {self.unreplayed} sheet or table actions whose card the ruleset"
                " does not rebuild from their record: their dice were checked, their cards not"
            )
        if self.uncommitted:
            lines.append(f"uncommitted: {self.uncommitted} plays with dice from no committed seed")
        if self.cards_worded_before:
            lines.append(
                f"earlier cards: {self.cards_worded_before} replayed cards are in the games'"
                " earlier words: what they mean (their outcome's key where they name one, their"
                " success and dice) was compared, not their words"
            )
        if self.recommits:
            at = ", ".join(str(seq) for seq in self.recommits[:10])
            lines.append(
                f"re-commits: the dice were re-committed right before another member's play"
                f" {len(self.recommits)} time(s) (entries {at}): a host that saw the play"
                " coming could have chosen its dice so; the player's own page says whether"
                " each play it sent was made under the commitment it saw"
            )
        return lines + self.notes

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problems": [{"seq": p.seq, "detail": p.detail} for p in self.problems],
            "summary": self.summary(),
        }


def load_export(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput("file", str(path), f"a readable JSON log export ({exc})") from None
    return parse_export(text, str(path))


def parse_export(text: str, where: str) -> dict[str, Any]:
    """An export's JSON text (read from ``where``: a file, standard input), its shape checked."""
    try:
        data = read_json(text)
    except UnreadableJSON as exc:
        raise InvalidInput("file", where, f"a readable JSON log export ({exc})") from None
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise InvalidInput("format", _get(data, "format"), f"a log export in format {FORMATS[0]}")
    if not isinstance(data.get("entries"), list) or not _is_int(data.get("table_id")):
        raise InvalidInput("entries", "(missing)", "an export with table_id and entries")
    return data


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, Mapping) else None


def verify_export(
    doc: Mapping[str, Any],
    *,
    allow_uncommitted: bool = False,
    earlier: Mapping[str, Any] | None = None,
) -> Report:
    report = Report()
    walk = _Walk(doc, report, DiceCheck(doc, report, allow_uncommitted=allow_uncommitted))
    for item in doc.get("entries", []):
        walk.step(item)
    walk.dice.finish()
    if earlier is not None:
        compare_earlier(doc, earlier, report)
    report.problems.sort(key=lambda p: -1 if p.seq is None else p.seq)
    return report


class _Walk:
    """The chain, entry by entry: where each one sits, and the hash it links to."""

    def __init__(self, doc: Mapping[str, Any], report: Report, dice: DiceCheck) -> None:
        self.report, self.dice = report, dice
        self.table_id = doc.get("table_id")
        self.old = doc.get("format") == OLD_FORMAT
        self.prev, self.expected = GENESIS, 1

    def step(self, item: Any) -> None:
        seq = self.expected
        try:
            seq = self._entry(item)
        except Exception as exc:  # a crafted entry ends in a verdict, never a traceback
            self.report.add(seq, f"it cannot be checked ({type(exc).__name__}: {exc})"[:200])
        self.report.entries += 1
        self.prev = str(item.get("hash")) if isinstance(item, Mapping) else self.prev
        self.expected = seq + 1

    def _entry(self, item: Any) -> int:
        report = self.report
        if not isinstance(item, Mapping):
            report.add(self.expected, "not an entry (a JSON object)")
            return self.expected
        if item.get(WITHHELD) and self.old and "privacy" not in item:
            self._link(self.expected, item)
            report.withheld += 1
            report.old_links += 1
            self.dice.unknown()
            return self.expected
        given = item.get("seq")
        seq = given if isinstance(given, int) and not isinstance(given, bool) else self.expected
        # a withheld link without any seq is named by _withheld, with what else it lacks
        if seq is not given and ("seq" in item or not item.get(WITHHELD)):
            report.add(self.expected, "has no seq (a whole number)")
        if seq > self.expected:
            gone = self.expected
            span = f"entry {gone}" if seq == gone + 1 else f"entries {gone}-{seq - 1}"
            report.add(gone, f"missing: the log jumps to entry {seq} ({span} deleted?)")
        elif seq < self.expected:
            report.add(seq, f"out of order: it comes after entry {self.expected - 1}")
        else:
            self._link(seq, item)
        if item.get(WITHHELD):
            self._withheld(seq, item)
        else:
            _check_entry(self.table_id, seq, item, report)
            self.dice.entry(seq, item)
        return seq

    def _link(self, seq: int, item: Mapping[str, Any]) -> None:
        if item.get("prev_hash") != self.prev:
            before = "the start of the log" if seq == 1 else f"entry {seq - 1}"
            self.report.add(
                seq,
                f"prev_hash is not the hash of {before} (an entry was changed, removed or moved)",
            )

    def _withheld(self, seq: int, item: Mapping[str, Any]) -> None:
        self.report.withheld += 1
        missing = [k for k in ("seq", "privacy", "dice", "body_hash") if k not in item]
        if missing:
            self.report.add(seq, f"a withheld link must carry its {', '.join(missing)}")
            return
        if not _content_matches(self.table_id, seq, item, self.report):
            return
        if item["privacy"] == "public":
            self.report.add(seq, "a public entry is never withheld from an export")
            return
        if item.get("dice") is None and item["privacy"] != "blind":
            return  # table talk to a few (a whisper, a word to the game master): no dice
        # a whisper stays among its few: no reveal discloses it
        disclosed = item["privacy"] != "whisper"
        self.dice.hidden(seq, item.get("dice"), withheld=True, disclosed=disclosed)


def _content_matches(table_id: Any, seq: int, item: Mapping[str, Any], report: Report) -> bool:
    prev, digest, dice = item.get("prev_hash"), item.get("body_hash"), item.get("dice")
    if not (_is_hash(prev) and _is_hash(item.get("hash")) and _is_hash(digest)):
        report.add(seq, "prev_hash, hash and body_hash must be SHA-256 hex digests")
        return False
    if item.get("privacy") not in PRIVACY_MODES:
        report.add(seq, f"its privacy must be one of {', '.join(PRIVACY_MODES)}")
        return False
    if "dice" not in item or (dice is not None and not isinstance(dice, Mapping)):
        report.add(seq, "its dice must be given, as an object or null")  # the hash covers them
        return False
    content = entry_content(table_id, seq, str(item["privacy"]), dice, str(digest))
    if chain_hash(str(prev), content) != item.get("hash"):
        report.add(seq, "its content does not match its hash (edited after it was logged?)")
        return False
    return True


def _check_entry(table_id: Any, seq: int, item: Mapping[str, Any], report: Report) -> None:
    if not _content_matches(table_id, seq, item, report):
        return
    body, salt, digest = item.get("body"), item.get("salt"), item.get("body_hash")
    if body is None or salt is None:
        if item.get("privacy") == "public" or not item.get("hidden"):
            report.add(seq, "the body of an entry shown to this member is missing")
        elif any(item.get(key) is not None for key in UNPROVED):
            shown = ", ".join(key for key in UNPROVED if item.get(key) is not None)
            report.add(seq, f"it is sealed, yet shows its {shown} without the salt that proves it")
        report.sealed += 1
        return
    if (
        not isinstance(salt, str)
        or len(salt) < 2 * MIN_SALT_BYTES
        or len(salt) % 2
        or not _hex(salt)
    ):
        report.add(seq, f"its salt must be at least {MIN_SALT_BYTES * 8} random bits, in hex")
        return
    if not isinstance(body, Mapping) or body_hash(salt, body) != digest:
        report.add(seq, "its body does not match its body_hash (edited after it was logged?)")
        return
    for key in SHOWN_FIELDS:
        if key in item and item[key] != body.get(key):
            report.add(seq, f"the {key} it shows is not the {key} it hashed")
            return
    if item.get("privacy") == "whisper":
        record = body.get("record")
        to = record.get("to") if isinstance(record, Mapping) else None
        if not _is_int(to) or item.get("to_id", to) != to:
            report.add(seq, "a whisper must name its addressee (its record's to, its to_id)")


def compare_earlier(doc: Mapping[str, Any], earlier: Mapping[str, Any], report: Report) -> None:
    """Every entry of an earlier copy of this export must be in this one, with the same hash."""
    if earlier.get("table_id") != doc.get("table_id"):
        report.add(None, "the earlier copy is the export of another table")
        return
    now = [e for e in doc.get("entries", []) if isinstance(e, Mapping)]
    for seq, old in enumerate(earlier.get("entries") or [], start=1):
        if not isinstance(old, Mapping):
            continue
        if seq > len(now):
            report.add(seq, "missing: the earlier copy of this export has this entry")
            return
        if now[seq - 1].get("hash") != old.get("hash"):
            report.add(
                seq,
                "its hash is not the one an earlier copy of this export holds"
                " (the log was rewritten from here)",
            )
            return


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hex(value: str) -> bool:
    return not set(value) - HEX


def _even_hex(value: str) -> bool:
    return len(value) % 2 == 0 and _hex(value)


def _is_hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and _hex(value)
