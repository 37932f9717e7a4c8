"""The rulings' ledgers of rule sentences hold, for The Empty Reach, Rainwall and Ghostburn:
every test a ledger names exists in that game's tests, every ruling it cites exists, every row
has a status and a reason, the coverage table is the ledger's sum, and no ruling cites the
rule texts by a path outside the repository.

(One module for the three games whose rulings issue 15 asked to account for sentence by
sentence; ``tests/legacy/test_rulings_ledger.py`` checks Legacy's the same way.)
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "empty-reach": ("empty_reach", "E"),
    "rainwall": ("rainwall", "R"),
    "ghostburn": ("ghostburn", "G"),
}
STATUSES = ("tested", "ruled", "out of scope")


def doc(game: str) -> str:
    return (ROOT / "docs" / "rulings" / f"{game}.md").read_text("utf-8")


def table(text: str, marker: str) -> list[list[str]]:
    block = text.split(f"<!-- {marker} -->", 1)[1].split(f"<!-- /{marker} -->", 1)[0]
    lines = [line for line in block.strip().splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def rulings(game: str) -> set[str]:
    prefix = GAMES[game][1]
    return set(re.findall(rf"^#+ ({prefix}\d+)\. ", doc(game), flags=re.MULTILINE))


def cited(where: str, prefix: str) -> set[str]:
    return set(re.findall(rf"\b{prefix}\d+\b", where))


def defined_tests(game: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / "tests" / GAMES[game][0]).glob("test_*.py"):
        for name in re.findall(r"^def (test_\w+)\(", path.read_text("utf-8"), flags=re.MULTILINE):
            found.add((path.name, name))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_row_has_a_status_and_a_reason(game: str) -> None:
    prefix = GAMES[game][1]
    ledger = table(doc(game), "ledger")
    assert len(ledger) > 15
    for section, rule, n, status, where in ledger:
        assert status in STATUSES, rule
        assert int(n) >= 1, rule
        assert all((section, rule, where)), rule
        if status == "ruled":
            assert cited(where, prefix), rule
        if status == "tested":
            assert re.search(r"test_\w+\.py::test_\w+", where), rule


@pytest.mark.parametrize("game", GAMES)
def test_every_named_test_and_cited_ruling_exists(game: str) -> None:
    ledger = table(doc(game), "ledger")
    named = {ref for row in ledger for ref in re.findall(r"(test_\w+\.py)::(test_\w+)", row[4])}
    assert named - defined_tests(game) == set()
    known = rulings(game)
    assert set().union(*(cited(row[4], GAMES[game][1]) for row in ledger)) <= known
    numbers = sorted(int(r[1:]) for r in known)
    assert numbers == list(range(1, len(numbers) + 1))  # numbered without gaps


@pytest.mark.parametrize("game", GAMES)
def test_the_coverage_table_is_the_ledgers_sum(game: str) -> None:
    text = doc(game)
    sums: dict[str, Counter[str]] = {}
    for section, _rule, n, status, _where in table(text, "ledger"):
        sums.setdefault(section, Counter())[status] += int(n)
    rows = table(text, "coverage")
    assert [row[0] for row in rows[:-1]] == list(sums)
    for section, total, *counts in rows[:-1]:
        assert [int(c) for c in counts] == [sums[section][s] for s in STATUSES], section
        assert int(total) == sum(sums[section].values()), section
    everything = sum(sums.values(), Counter())
    assert rows[-1][0] == "**all**"
    assert [int(c) for c in rows[-1][1:]] == [sum(everything.values())] + [
        everything[s] for s in STATUSES
    ]


@pytest.mark.parametrize("game", GAMES)
def test_rulings_cite_the_text_by_title_not_by_a_path(game: str) -> None:
    assert "shared/seeds" not in doc(game)
    assert "seeds/" not in doc(game)
