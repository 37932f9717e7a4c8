"""The log export that ``rulebound verify`` checks (``GET /api/tables/ID/log/export``).

One JSON object::

    {
      "format": "rulebound-log/2",
      "table": "Night run", "table_id": 1, "ruleset": "empty-reach", "variants": {...},
      "seeds": [{"commitment": hex, "server_seed": hex | null, "created_at", "revealed_at"}],
      "entries": [ENTRY, ...]          # every entry of the table, by seq
    }

Each ENTRY is one of three shapes, by what the exporting member may see:

- **whole**: the entry as the log API shows it (``seq``, ``kind``, ``privacy``,
  ``card``, ``record``, ``summary``...) plus ``prev_hash``, ``hash``, ``dice``,
  ``body_hash``, ``salt`` and ``body`` (the hashed fields, ``chain.BODY_FIELDS``).
  ``disclosed`` is true when the member could not see it at the table but its seed has
  been revealed.
- **sealed** (a blind roll, to its roller): the redacted view (``hidden``: true)
  with ``prev_hash``, ``hash``, ``dice`` and ``body_hash``, but ``salt`` and
  ``body`` null. Its hash can be checked; its result cannot be guessed.
- **withheld** (an entry the member may not know of): ``{"withheld": true, "seq",
  "privacy", "dice", "body_hash", "prev_hash", "hash"}``: what recomputes its hash, and
  nothing of its body.

``dice`` is ``{"commitment", "contribution", "server_chosen"}`` (the roll's own input:
the roller's fresh random value, or one the server chose when the roller sent none);
a whisper's is ``{"commitment", "contribution_sha256", "server_chosen"}``, its record
holding the contribution, so that its link tells nobody its faces once the seed is out; or
``{"commitment", "client_seed", "nonce"}`` for plays logged before per-roll contributions,
or null. Every seed whose ``server_seed`` is given must hash to its ``commitment``; the
log's ``seed`` entries repeat each reveal inside the chain.

Format 1 (``OLD_FORMAT``, before per-roll contributions) differs only in its withheld
links, which were bare (``withheld``, ``prev_hash``, ``hash``): ``rulebound verify`` still
reads it, and says that such links cannot be recomputed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

FORMAT = "rulebound-log/2"
OLD_FORMAT = "rulebound-log/1"
FORMATS = (FORMAT, OLD_FORMAT)
WITHHELD = "withheld"
LINK_FIELDS = ("withheld", "seq", "privacy", "dice", "body_hash", "prev_hash", "hash")

_ENCODER = json.JSONEncoder(ensure_ascii=False)
"""Built once: ``json.dumps`` with an option builds one on every call."""


def export_text(document: Mapping[str, Any]) -> str:
    """The export as JSON with each seed and each entry on a line of its own.

    As easy to read, diff and grep as indented JSON, and written by ``json``'s C encoder,
    which an ``indent`` turns off: a 1,000-roll export took about five times longer to
    write indented.
    """
    fields = []
    for key, value in document.items():
        if isinstance(value, list) and value:
            items = ",\n    ".join(_ENCODER.encode(item) for item in value)
            fields.append(f"  {_ENCODER.encode(key)}: [\n    {items}\n  ]")
        else:
            fields.append(f"  {_ENCODER.encode(key)}: {_ENCODER.encode(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"
