"""Assigning the seven 2d10 results: the parser, the draft step, and the CLI (flags, prompts)."""

import json
from pathlib import Path
from typing import TypedDict

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.legacy.content import PRIMARIES
from rulebound.rulesets.legacy.creation import CreationDraft, create_character, parse_assignment

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


class Who(TypedDict):
    """The names ``create_character`` needs."""

    name: str
    race: str
    origin: str
    soul: str


def test_create_character_takes_an_order() -> None:
    kwargs: Who = {"name": "V", "race": "elf", "origin": "air", "soul": "elf"}
    plain, _ = create_character(SeededSource(8), **kwargs)
    moved, _ = create_character(SeededSource(8), order=(6, 5, 4, 3, 2, 1, 0), **kwargs)
    assert plain.character.scores != moved.character.scores
    with pytest.raises(InvalidInput, match="one way of assigning"):
        create_character(SeededSource(8), assignment=(1,) * 7, order=(0,) * 7, **kwargs)


BASE = ["character", "new", "legacy", "--name", "Ann", "--race", "human", "--origin", "air"]


def rolls_of(output: str) -> list[int]:
    line = next(x for x in output.splitlines() if "Rolled (2d10 x7): " in x)
    return [int(r) for r in line.split("Rolled (2d10 x7): ")[1].split(", ")]


def test_the_rolls_are_shown_then_assigned_from_flags(tmp_path: Path) -> None:
    plain = [*BASE, "--soul", "human", "--seed", "3", "--no-interactive"]
    plain += ["--affinity", "arcane", "--affinity", "stealth"]
    shown = runner.invoke(app, plain)
    assert shown.exit_code == 0, shown.output
    rolls = rolls_of(shown.output)
    best_first = ",".join(str(i) for i in sorted(range(7), key=lambda i: -rolls[i]))
    path = tmp_path / "a.json"
    made = runner.invoke(
        app, [*plain, "--assign", best_first, "--reroll", "ini", "--out", str(path), "--json"]
    )
    assert made.exit_code == 0, made.output
    sheet = json.loads(made.stdout)
    assert sheet["scores"]["STR"] == max(rolls) + 20  # the best roll plus the Human STR 20
    assert json.loads(path.read_text()) == sheet
    named = ",".join(
        f"{code}={i}" for code, i in zip(PRIMARIES, best_first.split(","), strict=True)
    )
    again = runner.invoke(app, [*plain, "--assign", named, "--reroll", "INI", "--json"])
    assert json.loads(again.stdout) == sheet


def test_show_rolls_stops_after_the_rolls() -> None:
    shown = runner.invoke(app, [*BASE, "--soul", "human", "--seed", "3", "--show-rolls"])
    assert shown.exit_code == 0, shown.output
    assert len(rolls_of(shown.output)) == 7
    assert "Secondary characteristics" not in shown.output


def test_bad_assign_flags_are_one_line() -> None:
    bad = runner.invoke(
        app,
        [*BASE, "--soul", "human", "--seed", "1", "--assign", "0,0,1,2,3,4,5", "--no-interactive"],
    )
    assert bad.exit_code == 2
    assert "each rolled result used once" in bad.output


def test_prompts_ask_again_after_an_error(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    answers = "1,2\n6,5,4,3,2,1,0\nAGL\npow\narcane, stealth\n"
    args = [*BASE, "--soul", "human", "--class", "", "--seed", "3", "--interactive"]
    out = runner.invoke(app, [*args, "--out", str(path)], input=answers)
    assert out.exit_code == 0, out.output
    assert "7 indices" in out.output
    assert "reroll: “AGL” will not do" in out.output
    assert json.loads(path.read_text())["affinities"] == ["acrobatics", "arcane", "stealth"]


def test_extra_affinities_from_repeated_flags(tmp_path: Path) -> None:
    flags = ["--assign", "6,5,4,3,2,1,0", "--reroll", "POW", "--affinity", "arcane"]
    more = ["--affinity", "stealth", "--out", str(tmp_path / "c.json"), "--no-interactive"]
    made = runner.invoke(app, [*BASE, "--soul", "human", "--seed", "3", *flags, *more])
    assert made.exit_code == 0, made.output
    saved = json.loads((tmp_path / "c.json").read_text())
    assert saved["affinities"] == ["acrobatics", "arcane", "stealth"]


def test_one_extra_affinity_from_a_flag_is_one_short(tmp_path: Path) -> None:
    """A Human soul takes two more affinities (ruling 88): one is refused, naming the flag."""
    flags = ["--assign", "6,5,4,3,2,1,0", "--affinity", "arcane", "--no-interactive"]
    made = runner.invoke(app, [*BASE, "--soul", "human", "--seed", "3", *flags, "--json"])
    assert made.exit_code == 2, made.output
    assert "--affinity" in made.output
    assert "exactly 2" in made.output
