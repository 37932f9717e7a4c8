"""``rulebound odds <ruleset> --table [--csv PATH] [--plot PATH]``, written into tmp_path."""

from __future__ import annotations

import csv
import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.rulesets.empty_reach.tables import success_grid as reach_grid
from rulebound.rulesets.ghostburn.tables import success_grid as ghost_grid
from rulebound.rulesets.grid import OddsGrid
from rulebound.rulesets.legacy.tables import success_grid as legacy_grid
from rulebound.rulesets.rainwall.tables import success_grid as rain_grid

runner = CliRunner()
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

TABLES: dict[str, tuple[list[str], Callable[[], OddsGrid]]] = {
    "empty-reach": ([], reach_grid),
    "rainwall": (["--dr", "3", "--bonus", "2"], lambda: rain_grid(3, (2,))),
    "legacy": ([], legacy_grid),
    "ghostburn": ([], ghost_grid),
}


def odds(*args: str) -> str:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("ruleset", list(TABLES))
def test_csv_holds_the_library_odds_exactly(ruleset: str, tmp_path: Path) -> None:
    extra, build = TABLES[ruleset]
    path = tmp_path / f"{ruleset}.csv"
    text = odds(ruleset, "--table", *extra, "--csv", str(path))
    grid = build()
    assert f"CSV written to {path}" in text
    assert grid.panels[-1].title in text
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["panel", grid.row_axis, grid.column_axis, "p_success", "p_success_float"]
    expected = list(grid.records())
    assert len(rows) - 1 == len(expected)
    for (panel, row, column, exact, approx), want in zip(rows[1:], expected, strict=True):
        assert (panel, row, column) == want[:3]
        assert Fraction(exact) == want[3]
        assert float(approx) == float(Fraction(exact))


def test_table_json_is_exact() -> None:
    data = json.loads(odds("rainwall", "--table", "--dr", "4", "--bonus", "1", "--json"))
    panel = data["panels"][0]
    seven, five = data["rows"].index("7"), data["columns"].index("5")
    assert panel["p_success"][seven][five] == "10583/16000"
    assert panel["p_success_float"][seven][five] == 10583 / 16000
    assert data["files"] == {"csv": None, "plot": None}


def test_text_table_shows_percentages() -> None:
    lines = odds("empty-reach", "--table").splitlines()
    panel = lines.index("modifier +0, push always")
    d8 = next(line for line in lines[panel:] if line.startswith("D8 "))
    assert d8.split()[1:] == ["56.2%", "68.4%", "80.9%", "86.9%", "90.3%"]  # D10: 139/160


def test_png_heatmap(tmp_path: Path) -> None:
    path = tmp_path / "reach.png"
    odds("empty-reach", "--table", "--plot", str(path))
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC)
    assert len(data) > 20_000  # 14 panels of labelled cells, not an empty canvas
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > height > 300


def test_svg_heatmap_keeps_titles_as_text(tmp_path: Path) -> None:
    path = tmp_path / "ghost.svg"
    csv_path = tmp_path / "ghost.csv"
    odds("ghostburn", "--table", "--plot", str(path), "--csv", str(csv_path))
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    body = path.read_text(encoding="utf-8")
    assert len(body) > 20_000
    assert "reach the DL" in body
    assert "Moderate (14)" in body
    assert csv_path.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["empty-reach", "--attribute", "D8", "--csv", "x.csv"], "--table as well"),
        (["ghostburn", "--table", "--plot", "x.jpg"], ".png or .svg"),
    ],
)
def test_bad_flags_are_one_line_errors(args: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_missing_matplotlib_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    path = tmp_path / "x.png"
    result = runner.invoke(app, ["odds", "ghostburn", "--table", "--plot", str(path)])
    assert result.exit_code == 2
    assert "pip install 'rulebound[plot]'" in result.output
    assert not path.exists()
