"""What a forger does to an export after editing it: recompute every hash they can, in order.

``reseal`` redoes each entry's ``body_hash`` (where it shows a body and salt), its ``hash``
and the next ``prev_hash``, so that the chain itself is consistent again and only the rules
``rulebound verify`` checks beyond the chain can catch the edit. A format-1 withheld link
carries nothing to rehash: it keeps its hash, as a forger would have to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulebound.trust.chain import GENESIS, body_hash, chain_hash, entry_content

Doc = dict[str, Any]
DATA = Path(__file__).with_name("data")


def old_export() -> Doc:
    """A genuine format-1 export, made by the server before issue 14 (the observer's, with
    rolls under a revealed seed, a client seed set at entry 13, a self roll withheld at 23)."""
    doc: Doc = json.loads((DATA / "format1-observer.json").read_text(encoding="utf-8"))
    return doc


def reseal(doc: Doc) -> Doc:
    prev = GENESIS
    for seq, entry in enumerate(doc["entries"], start=1):
        entry["prev_hash"] = prev
        if entry.get("withheld") and "privacy" not in entry:
            prev = entry["hash"]
            continue
        if entry.get("body") is not None and entry.get("salt"):
            entry["body_hash"] = body_hash(entry["salt"], entry["body"])
        content = entry_content(
            doc["table_id"], seq, entry["privacy"], entry["dice"], entry["body_hash"]
        )
        entry["hash"] = prev = chain_hash(prev, content)
    return doc


def entry(doc: Doc, seq: int) -> dict[str, Any]:
    found: dict[str, Any] = doc["entries"][seq - 1]
    return found
