"""The rulings' ledger of rule sentences holds: every test it names exists, every ruling it cites
exists, each row has a status and a reason, and the coverage table is the ledger's sum."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rulings" / "legacy.md").read_text("utf-8")
STATUSES = ("tested", "ruled", "out of scope")


def table(marker: str) -> list[list[str]]:
    block = DOC.split(f"<!-- {marker} -->", 1)[1].split(f"<!-- /{marker} -->", 1)[0]
    lines = [line for line in block.strip().splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


LEDGER = table("ledger")
RULINGS = {int(n) for n in re.findall(r"^\s*(\d+)\. \*\*", DOC, flags=re.MULTILINE)}


def defined_tests() -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / "tests" / "legacy").glob("test_*.py"):
        for name in re.findall(r"^def (test_\w+)\(", path.read_text("utf-8"), flags=re.MULTILINE):
            found.add((path.name, name))
    return found


def cited_rulings(text: str) -> set[int]:
    numbers: set[int] = set()
    for group in re.findall(r"rulings? ([\d, -]+\d)", text):
        for part in group.split(","):
            low, _, high = part.strip().partition("-")
            numbers |= set(range(int(low), int(high or low) + 1))
    return numbers


def test_every_row_has_a_status_and_a_reason() -> None:
    assert len(LEDGER) > 150
    for section, rule, n, status, where in LEDGER:
        assert status in STATUSES, rule
        assert int(n) >= 1, rule
        assert all((section, rule, where)), rule
        if status == "ruled":
            assert cited_rulings(where), rule


def test_every_named_test_exists() -> None:
    tests = defined_tests()
    named = re.findall(r"(test_\w+\.py)::(test_\w+)", DOC)  # the ledger's and the rulings'
    assert len(named) > 150
    missing = [ref for ref in named if ref not in tests]
    assert not missing
    for row in LEDGER:
        if row[3] == "tested":
            assert re.search(r"test_\w+\.py::test_\w+", row[4]), row[1]


def test_every_cited_ruling_exists() -> None:
    cited = set().union(*(cited_rulings(row[4]) for row in LEDGER))
    assert cited <= RULINGS
    assert set(range(1, max(RULINGS) + 1)) == RULINGS  # numbered without gaps


def test_the_coverage_table_adds_up() -> None:
    sums: dict[str, Counter[str]] = {}
    for section, _rule, n, status, _where in LEDGER:
        sums.setdefault(section, Counter())[status] += int(n)
    rows = table("coverage")
    assert [r[0] for r in rows[:-1]] == list(sums)
    for section, total, tested, ruled, out in rows[:-1]:
        counted = sums[section]
        assert [int(tested), int(ruled), int(out)] == [counted[s] for s in STATUSES]
        assert int(total) == sum(counted.values())
    everything = sum(sums.values(), Counter())
    assert [int(x) for x in rows[-1][1:]] == [
        sum(everything.values()),
        *(everything[s] for s in STATUSES),
    ]


def test_the_rulings_cite_the_text_not_a_file() -> None:
    assert "shared/seeds" not in DOC
    assert "Legacy Machines and Magic Rules" in DOC
