"""``roll legacy --character`` rolls as the character: its state shapes the roll."""

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from rulebound.cli.app import app

from .conftest import make_sheet

runner = CliRunner()


def _write(tmp_path: Path, **changes: object) -> Path:
    path = tmp_path / "kara.json"
    path.write_text(json.dumps(make_sheet(**changes).model_dump(mode="json")), "utf-8")
    return path


def _roll(path: Path, *extra: str) -> dict[str, Any]:
    args = ["roll", "legacy", "--character", str(path), "--characteristic", "STR", "--seed", "3"]
    done = runner.invoke(app, [*args, "--json", *extra])
    assert done.exit_code == 0, done.output
    body = json.loads(done.output)
    assert isinstance(body, dict)
    return body


def test_an_unconscious_character_fails_without_a_roll(tmp_path: Path) -> None:
    body = _roll(_write(tmp_path, unconscious=True))
    assert body["result"]["result"]["outcome"] == "failure"
    assert body["records"][0]["draws"] == []


def test_a_curse_gives_disadvantage_and_is_spent_on_save(tmp_path: Path) -> None:
    path = _write(tmp_path, cursed=True)
    body = _roll(path, "--save")
    assert len(body["records"][0]["draws"]) == 2  # disadvantage: two d20s
    assert json.loads(path.read_text("utf-8"))["cursed"] is False


def test_without_save_the_file_is_untouched(tmp_path: Path) -> None:
    path = _write(tmp_path, cursed=True)
    before = path.read_text("utf-8")
    _roll(path)
    assert path.read_text("utf-8") == before
