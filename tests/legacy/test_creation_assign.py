"""Assigning the seven 2d10 results: the parser, the draft step, and the CLI (flags and prompts)."""

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from rulebound.cli.legacy import register
from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.legacy.creation import CreationDraft, create_character, parse_assignment

roll_app, odds_app, character_app = typer.Typer(), typer.Typer(), typer.Typer()
register(roll_app, odds_app, character_app)
app = typer.Typer()
app.add_typer(character_app, name="character")
runner = CliRunner()

ROLLS = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)]  # 3, 4, 5 ... 9


def rolled() -> CreationDraft:
    faces = [Draw(10, f) for pair in ROLLS for f in pair]
    return CreationDraft.start("A", "human", "surface", "human").roll_primaries(ReplaySource(faces))


def test_both_forms_parse_to_one_index_per_primary() -> None:
    assert parse_assignment("6,5,4,3,2,1,0") == (6, 5, 4, 3, 2, 1, 0)
    named = "per=0, wil=1, INT=2, CHA=3, CON=4, DEX=5, STR=6"
    assert parse_assignment(named) == (6, 5, 4, 3, 2, 1, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected 'STR=0"),
        ("STR=0,1,2,3,4,5,6", "expected 'STR=0"),
        ("0,1,2", "7 indices"),
        ("AGL=0,DEX=1,CON=2,CHA=3,INT=4,WIL=5,PER=6", "assign: got 'AGL'; expected a primary"),
        ("STR=0,STR=1,CON=2,CHA=3,INT=4,WIL=5,PER=6", "each primary named once"),
        ("STR=0,DEX=1,CON=2,CHA=3,INT=4,WIL=5", "missing PER"),
        ("a,1,2,3,4,5,6", "a roll index"),
    ],
)
def test_bad_assignments_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_assignment(text)


def test_the_order_moves_each_result_to_its_primary() -> None:
    draft = rolled().assign_order((6, 5, 4, 3, 2, 1, 0))
    assert draft.primary_rolls == (3, 4, 5, 6, 7, 8, 9)
    assert draft.primaries["STR"] == 9 + 20  # roll #6 plus the Human STR 20
    assert draft.primaries["PER"] == 3 + 20


@pytest.mark.parametrize(
    ("order", "message"),
    [((0, 0, 1, 2, 3, 4, 5), r"\[0\] used twice"), ((0, 1, 2, 3, 4, 5, 7), "from 0 to 6")],
)
def test_each_result_is_used_exactly_once(order: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        rolled().assign_order(order)


def test_create_character_takes_an_order() -> None:
    kwargs = {"name": "V", "race": "elf", "origin": "air", "soul": "elf"}
    plain, _ = create_character(SeededSource(8), **kwargs)  # type: ignore[arg-type]
    moved, _ = create_character(SeededSource(8), order=(6, 5, 4, 3, 2, 1, 0), **kwargs)  # type: ignore[arg-type]
    assert plain.character.scores != moved.character.scores
    with pytest.raises(InvalidInput, match="one way of assigning"):
        create_character(SeededSource(8), assignment=(1,) * 7, order=(0,) * 7, **kwargs)  # type: ignore[arg-type]


BASE = ["character", "new", "legacy", "--name", "Ann", "--race", "human", "--origin", "air"]


def test_show_rolls_then_assign_from_flags(tmp_path: Path) -> None:
    shown = runner.invoke(app, [*BASE, "--soul", "human", "--seed", "3", "--show-rolls", "--json"])
    rolls = json.loads(shown.stdout)["primary_rolls"]
    best_first = sorted(range(7), key=lambda i: -rolls[i])
    order = ",".join(str(i) for i in best_first)
    path = tmp_path / "a.json"
    args = [*BASE, "--soul", "human", "--seed", "3", "--assign", order, "--reroll", "ini"]
    made = runner.invoke(app, [*args, "--out", str(path), "--json"])
    assert made.exit_code == 0, made.output
    data = json.loads(made.stdout)
    assert data["primary_rolls"] == rolls
    assert data["primaries"]["STR"] == max(rolls) + 20
    assert data["rerolled"] == "INI"
    assert json.loads(path.read_text())["scores"]["STR"] == max(rolls) + 20


def test_show_rolls_needs_a_seed_and_bad_flags_are_one_line() -> None:
    out = runner.invoke(app, [*BASE, "--soul", "human", "--show-rolls"])
    assert (out.exit_code, "--show-rolls" in out.output) == (2, True)
    bad = runner.invoke(app, [*BASE, "--soul", "human", "--seed", "1", "--assign", "0,0,1,2,3,4,5"])
    assert bad.exit_code == 2
    assert "each rolled result used once" in bad.output


def test_prompts_ask_again_after_an_error(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    answers = "1,2\n6,5,4,3,2,1,0\nAGL\npow\narcane, stealth\n"
    args = [*BASE, "--soul", "human", "--seed", "3", "--interactive", "--out", str(path)]
    out = runner.invoke(app, args, input=answers)
    assert out.exit_code == 0, out.output
    assert "7 indices" in out.output
    assert "reroll: got 'AGL'" in out.output
    saved = json.loads(path.read_text())
    assert saved["affinities"] == ["acrobatics", "arcane", "stealth"]
    flags = ["--assign", "6,5,4,3,2,1,0", "--reroll", "POW", "--affinity", "arcane"]
    more = ["--affinity", "stealth", "--out", str(tmp_path / "c.json")]
    again = runner.invoke(app, [*BASE, "--soul", "human", "--seed", "3", *flags, *more])
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "c.json").read_text()) == saved


def test_interactive_and_json_do_not_mix() -> None:
    out = runner.invoke(app, [*BASE, "--soul", "human", "--interactive", "--json"])
    assert out.exit_code == 2
    assert "prompts would mix" in out.output
