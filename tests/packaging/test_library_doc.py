"""docs/library.md runs: every ``pycon`` block in it is a doctest, checked here."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

DOC = Path(__file__).parents[2] / "docs" / "library.md"
BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_every_example_in_the_library_page_runs_as_shown() -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert len(blocks) >= 6, "the page lost its examples"
    parser = doctest.DocTestParser()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    # one namespace for the page, as a reader's notebook would have
    test = parser.get_doctest("\n".join(blocks), {}, "docs/library.md", str(DOC), 0)
    runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted >= 20
    assert failed == 0, "docs/library.md: an example's output differs (see above)"


def test_the_readme_links_the_library_page() -> None:
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "docs/library.md" in readme
