"""Every game's CLI, fed bad input of every field kind, answers in plain words: the option
(with the game's name for it), what was given, what would do, all problems at once, and
nothing from Python or pydantic (issue 12, "Human errors everywhere, CLI included")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.rulesets.contract import Field
from rulebound.rulesets.registry import get_game

GAMES = ("empty-reach", "rainwall", "legacy", "ghostburn")
PYTHON = re.compile(
    r"Traceback|Input should|pydantic|Value error|validation error|type=|input_value"
    r"|: got |; expected |\bNone\b|<class|\{'|\['|Expecting|JSONDecodeError|\\u"
)
"""What a programmer reads and a player should not: pydantic's and Python's own wording,
reprs of values, and our old "field: got X; expected Y"."""
runner = CliRunner()


def bad_values(field: Field, tmp: Path) -> list[str]:
    """Values the field refuses, of its kind."""
    if field.kind == "int":
        beyond = [str(field.maximum + 1)] if field.maximum is not None else []
        below = [str(field.minimum - 1)] if field.minimum is not None else []
        return ["many", "1.5", *beyond, *below]
    if field.kind in ("select", "multiselect"):
        return ["no-such-thing"]
    if field.kind == "sheet":
        (tmp / "broken.json").write_text("{not json", encoding="utf-8")
        (tmp / "list.json").write_text("[1, 2]", encoding="utf-8")
        return [str(tmp / "missing.json"), str(tmp / "broken.json"), str(tmp / "list.json")]
    if field.kind == "text":
        return ["\x00\x07", "x" * 300]
    return []


def fields_of(key: str) -> list[Field]:
    game = get_game(key)
    sheets = game.sheets.choice_fields if game.sheets is not None else ()
    seen: dict[str, Field] = {}
    for field in (*game.fields, *sheets, *game.odds_fields):
        seen.setdefault(field.cli_flag, field)
    return list(seen.values())


def check(args: list[str]) -> str:
    out = runner.invoke(app, args)
    assert out.exit_code == 2, (args, out.output, out.exception)
    said = out.stderr
    assert said.strip(), args
    assert not PYTHON.search(said), (args, said)
    assert all(line.isprintable() for line in said.splitlines()), (args, said)
    return said


@pytest.mark.parametrize("key", GAMES)
def test_every_field_kind_refused_in_plain_words(key: str, tmp_path: Path) -> None:
    kinds: set[str] = set()
    for field in fields_of(key):
        flag = f"--{field.cli_flag}"
        if field.kind == "bool":
            said = check(["odds", key, f"{flag}=yes"])
            assert flag in said
            kinds.add("bool")
            continue
        for value in bad_values(field, tmp_path):
            for command in ("odds", "roll"):
                check([command, key, flag, value])
            kinds.add(field.kind)
    assert "int" in kinds
    assert kinds <= {"int", "select", "multiselect", "sheet", "text", "bool"}


def test_a_form_s_problems_are_all_shown_at_once_beside_the_game_s_names() -> None:
    said = check(["odds", "rainwall", "--dice", "99", "--skill", "0", "--dr", "abc"])
    assert said.splitlines() == [
        "error: 3 problems:",
        "  --dice [Dice (the trait score)]: 99 will not do; it takes a whole number from 1 to 10.",
        "  --skill [Skill score (the target)]: 0 will not do;"
        " it takes a whole number from 1 to 10.",
        "  --dr [Difficulty Rating]: “abc” will not do; it takes a whole number from 1 to 99.",
    ]
    needed = check(["odds", "ghostburn"])
    assert needed.startswith("error: --dl [DL (improvised trick)] is needed: a DL")


def sheet_of(key: str) -> dict[str, Any]:
    sheets = get_game(key).sheets
    assert sheets is not None
    return dict(sheets.new("Ana"))


@pytest.mark.parametrize("key", GAMES)
def test_a_bad_character_file_is_refused_in_plain_words(key: str, tmp_path: Path) -> None:
    other = GAMES[(GAMES.index(key) + 1) % len(GAMES)]
    broken = {
        "not-json": "{name: Ana",
        "a-list": "[1, 2, 3]",
        "not-utf8": b"\xff\xfe{}".decode("latin-1"),
        "other-game": json.dumps(sheet_of(other)),
        "wrong-types": json.dumps({k: [True] for k in sheet_of(key)}),
        "too-high": json.dumps(_numbers(sheet_of(key), 10**9)),
    }
    for name, text in broken.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(text.encode("latin-1") if name == "not-utf8" else text.encode())
        said = check(["roll", key, "--character", str(path)])
        assert "error:" in said, (name, said)


def _numbers(value: Any, to: int) -> Any:
    """``value`` with every whole number replaced by ``to``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return to
    if isinstance(value, dict):
        return {k: _numbers(v, to) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers(v, to) for v in value]
    return value


@pytest.mark.parametrize("key", GAMES)
def test_a_bad_homebrew_file_is_refused_in_plain_words(key: str, tmp_path: Path) -> None:
    path = tmp_path / "homebrew.toml"
    path.write_text('version = "one"\nnonsense = [1]\n[[skills]]\nname = 5\n', encoding="utf-8")
    said = check(["content", key, "--content", str(path)])
    assert said.startswith(f"error: {path}: "), said


DANGLING = {
    "rainwall": '[[skills]]\nname = "Juggling"\ntrait = "Whimsy"\nsummary = "Balls."\n',
    "ghostburn": (
        '[[skills]]\nkey = "juggling"\nname = "Juggling"\nability = "whimsy"\n'
        'known = false\nsummary = "Balls."\n'
    ),
    "legacy": (
        'key = "gnome"\nname = "Gnome"\nbase_lck = 5\ntraits = ["whimsy"]\n'
        "primaries = { STR = 15, DEX = 20, CON = 15, CHA = 25, INT = 25, WIL = 25, PER = 20 }\n"
        "secondaries = { WPN = 20, BLS = 20, STM = 15, POW = 25, EDU = 25, LDR = 20, INI = 20 }\n"
    ),
}


@pytest.mark.parametrize("key", sorted(DANGLING))
def test_a_homebrew_name_that_refers_to_nothing_is_refused_in_plain_words(
    key: str, tmp_path: Path
) -> None:
    path = tmp_path / "homebrew.toml"
    path.write_text(DANGLING[key], encoding="utf-8")
    said = check(["content", key, "--content", str(path)])
    assert "“whimsy” will not do; it takes one of " in said.lower(), said


@pytest.mark.parametrize("key", GAMES)
def test_a_character_file_s_problems_are_named_as_the_file_s_fields(
    key: str, tmp_path: Path
) -> None:
    """A sheet field and an option may share a name (Legacy's sheet ``rank`` and the check's
    ``--rank``): the file's problems are the file's, headed by its path, never an option's."""
    sheet = sheet_of(key)
    path = tmp_path / "ana.json"
    path.write_text(json.dumps({field: [True] for field in sheet} | {"name": "Ana"}))
    said = check(["roll", key, "--character", str(path)])
    first, *rest = said.removeprefix("error: ").splitlines()
    assert first.startswith(f"{path}: "), said
    flags = {f"--{f.cli_flag}" for f in fields_of(key)}
    assert not [line for line in said.splitlines() if any(f in line for f in flags)], said
    named = [line.split()[0].rstrip(":") for line in rest] or [first.split(": ")[1]]
    assert {name.split(".")[0] for name in named} <= set(sheet), said


def test_a_legacy_file_s_rank_is_not_the_rank_option(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    path.write_text(json.dumps({**sheet_of("legacy"), "rank": "abc"}))
    said = check(["roll", "legacy", "--character", str(path), "--target", "10"])
    assert said == f"error: {path}: rank: “abc” will not do; it takes a whole number.\n", said
