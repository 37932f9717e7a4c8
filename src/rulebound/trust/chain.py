"""Canonical entry hashing: the tamper-evident chain and the salted commitment to each result.

Every log entry is sealed as

    body_hash = SHA-256(salt || canonical_json(body))
    content   = {"table_id", "seq", "privacy", "dice", "body_hash"}
    hash      = SHA-256(prev_hash + canonical_json(content))

``prev_hash`` is the previous entry's ``hash`` (``GENESIS`` for a table's first
entry). The body holds everything the entry says (kind, who, the record with
its draws, the card, the summary, the sheets it changed, when); the content
holds only what anyone who knows of the entry may see. ``salt`` is 256 random
bits per entry, shown with the body to those who may see it, so publishing
``hash`` and ``body_hash`` of a hidden roll tells nobody its result: guessing
a d20 would also mean guessing the salt.

``dice`` names what the entry's draws came from (None for entries without a committed
draw): the seed commitment and the roller's own contribution to that roll (whether the
roller made it or the server chose it); entries logged before per-roll contributions
name the table's client seed and a table-wide nonce instead (``OLD_DICE_FIELDS``).

A whisper's ``dice`` name its contribution only by its SHA-256 (``BLINDED_DICE_FIELDS``),
and its record holds the contribution itself: a whisper stays withheld from all but its
parties after the seed is revealed, when its contribution would give anyone its faces.
(Whispers logged before this name their contribution, and their record does not.)
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from rulebound.core.canonical import canonical_json, json_text
from rulebound.core.stored import Stored, stored_text

Privacy = Literal["public", "gm", "blind", "self", "whisper"]
PRIVACY_MODES: tuple[Privacy, ...] = ("public", "gm", "blind", "self", "whisper")
"""Who may see an entry, which its content names: public: everyone; gm: the roller and the
game masters; blind: the game masters only (the roller sees that a roll happened); self:
the roller only; whisper (table talk): its sender, its addressee (the member its record
names as ``to``, so the hashed body commits to it) and the game masters."""
GENESIS = "0" * 64
SALT_BYTES = 32
MIN_SALT_BYTES = 16
"""The verifier refuses salts shorter than 128 bits."""

BODY_FIELDS = (
    "kind",
    "actor_id",
    "character_id",
    "parent_id",
    "record",
    "card",
    "summary",
    "changed",
    "created_at",
)
CONTENT_FIELDS = ("table_id", "seq", "privacy", "dice", "body_hash")
DICE_FIELDS = ("commitment", "contribution", "server_chosen")
BLINDED_DICE_FIELDS = ("commitment", "contribution_sha256", "server_chosen")
OLD_DICE_FIELDS = ("commitment", "client_seed", "nonce")


def new_salt() -> str:
    return os.urandom(SALT_BYTES).hex()  # ``secrets.token_hex``, without its three calls


def timestamp(moment: datetime) -> str:
    """The one text form of an entry's time: ISO 8601 in UTC (naive times are UTC)."""
    if moment.tzinfo is UTC:  # every entry the store writes
        return moment.isoformat()
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat()


def entry_body(
    *,
    kind: str,
    actor_id: int | None,
    character_id: int | None,
    parent_id: int | None,
    record: Mapping[str, Any] | Stored,
    card: Mapping[str, Any] | Stored | None,
    summary: str,
    changed: list[int] | tuple[int, ...],
    created_at: datetime | str,
) -> dict[str, Any]:
    """What an entry's ``body_hash`` commits to. A ``Stored`` record or card is kept as it
    is: ``body_hash(..., parsed=True)`` writes its canonical text, made once."""
    when = created_at if isinstance(created_at, str) else timestamp(created_at)
    return {
        "kind": kind,
        "actor_id": actor_id,
        "character_id": character_id,
        "parent_id": parent_id,
        "record": record if isinstance(record, Stored) else dict(record),
        "card": card if card is None or isinstance(card, Stored) else dict(card),
        "summary": summary,
        "changed": [int(i) for i in changed],
        "created_at": when,
    }


def dice_of(
    commitment: str | None,
    contribution: str | None,
    server_chosen: bool | None = None,
    *,
    blinded: bool = False,
    client_seed: str | None = None,
    nonce: int | None = None,
) -> dict[str, Any] | None:
    """An entry's ``dice``: per-roll (a contribution, or ``blinded`` its hash), old (a client
    seed and a nonce) or None."""
    if commitment is None:
        return None
    if contribution is not None and blinded:
        return {
            "commitment": commitment,
            "contribution_sha256": contribution_digest(contribution),
            "server_chosen": bool(server_chosen),
        }
    if contribution is not None:
        return {
            "commitment": commitment,
            "contribution": contribution,
            "server_chosen": bool(server_chosen),
        }
    if nonce is None:
        return None
    return {"commitment": commitment, "client_seed": client_seed or "", "nonce": int(nonce)}


def contribution_digest(contribution: str) -> str:
    return hashlib.sha256(contribution.encode("utf-8")).hexdigest()


def blinds_dice(privacy: str, record: Mapping[str, Any]) -> bool:
    """Whether an entry's ``dice`` name its contribution by its hash: a whisper whose record
    holds the contribution (every whisper logged since whispers' dice were blinded)."""
    return privacy == "whisper" and "contribution" in record


def body_hash(salt: str, body: Mapping[str, Any], *, parsed: bool = False) -> str:
    """SHA-256(salt || canonical body): a commitment to the result that hides it.
    ``parsed``: the body is JSON as parsed, its record and card perhaps ``Stored``
    (``stored_text`` gives its canonical text)."""
    text = stored_text(dict(body)) if parsed else canonical_json(body)
    return hashlib.sha256(bytes.fromhex(salt) + text.encode("utf-8")).hexdigest()


def entry_content(
    table_id: int, seq: int, privacy: str, dice: Mapping[str, Any] | None, body_digest: str
) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": seq,
        "privacy": privacy,
        "dice": None if dice is None else dict(dice),
        "body_hash": body_digest,
    }


def chain_hash(prev_hash: str, content: Mapping[str, Any], *, parsed: bool = False) -> str:
    text = json_text(content) if parsed else canonical_json(content)
    return hashlib.sha256((prev_hash + text).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Seal:
    salt: str
    body_hash: str
    hash: str


def seal(
    table_id: int,
    seq: int,
    privacy: str,
    dice: Mapping[str, Any] | None,
    body: Mapping[str, Any],
    prev_hash: str,
    salt: str | None = None,
    *,
    parsed: bool = False,
) -> Seal:
    """Salt, commit to and chain one entry (``parsed``: as for ``body_hash``)."""
    salt = new_salt() if salt is None else salt
    digest = body_hash(salt, body, parsed=parsed)
    content = entry_content(table_id, seq, privacy, dice, digest)
    return Seal(salt, digest, chain_hash(prev_hash, content, parsed=parsed))
