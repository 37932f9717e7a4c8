"""The players' guide is served at /static/play.html and kept in docs/play.md: the page is
written by hand from the doc, so each term the doc explains (its bold words) is the page's
too, and no term the doc no longer uses lingers on the page."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "play.md"
PAGE = ROOT / "src" / "rulebound" / "web" / "static" / "play.html"


def test_the_page_explains_the_terms_the_doc_explains() -> None:
    in_doc = set(re.findall(r"\*\*(.+?)\*\*", DOC.read_text(encoding="utf-8")))
    on_page = set(re.findall(r"<strong>(.+?)</strong>", PAGE.read_text(encoding="utf-8")))
    on_page = {term.replace("&#x27;", "'") for term in on_page}
    assert in_doc
    assert in_doc == on_page
