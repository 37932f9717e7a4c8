"""docs/security.md names the test behind each promise: every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)?(?:::(\w+))?[^`]*`")


def _named() -> list[tuple[str, str | None]]:
    """(test file, test name or None) for each reference, a bare ``::name`` taking the file
    named last before it."""
    found: list[tuple[str, str | None]] = []
    last = ""
    for match in REFERENCE.finditer(DOC.read_text(encoding="utf-8")):
        path, name = match.group(1), match.group(2)
        if path:
            last = path
        if (path or name) and last:
            found.append((last, name))
    return found


def test_every_test_the_security_doc_names_exists() -> None:
    named = _named()
    assert len(named) > 50
    missing = []
    for path, name in named:
        source = ROOT / path
        if not source.exists():
            missing.append(path)
        elif name and not re.search(rf"def {name}\b", source.read_text(encoding="utf-8")):
            missing.append(f"{path}::{name}")
    assert not missing, missing
