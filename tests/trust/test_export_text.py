"""The export's text (``trust.export.export_text``): the same JSON, a line per item."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulebound.trust.export import FORMAT, export_text

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(st.text(), VALUES, max_size=6))
def test_the_text_reads_back_as_the_document(document: dict[str, Any]) -> None:
    assert json.loads(export_text(document)) == document


def test_each_seed_and_each_entry_is_a_line_of_its_own() -> None:
    entries = [{"seq": n, "summary": f"Zoë rolls {n}", "card": {"rows": [1, 2]}} for n in (1, 2)]
    document = {"format": FORMAT, "seeds": [], "entries": entries, "variants": {}}
    lines = export_text(document).splitlines()
    assert lines == [
        "{",
        '  "format": "rulebound-log/2",',
        '  "seeds": [],',
        '  "entries": [',
        '    {"seq": 1, "summary": "Zoë rolls 1", "card": {"rows": [1, 2]}},',
        '    {"seq": 2, "summary": "Zoë rolls 2", "card": {"rows": [1, 2]}}',
        "  ],",
        '  "variants": {}',
        "}",
    ]
