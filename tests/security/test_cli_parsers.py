"""Issue 8, test 6 (fuzzing): the CLI's parsers and the rulesets' request parsers either
parse or refuse with the library's own error (RuleboundError; from the CLI, a one-line
message and exit status 2), never a traceback.

Each option is fuzzed on its own, over otherwise valid arguments, with values shaped by
its grammar (die notation, NAME:BONUS:D8,D6, 0,1, STR=0, KEY=CHOICE) or arbitrary text.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulebound.cli.app import app
from rulebound.core.errors import RuleboundError
from rulebound.rulesets import forms
from rulebound.rulesets.legacy.creation import parse_assignment
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.variants import resolve

from ..hunt import examples

runner = CliRunner()
FUZZ = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)

ODD = ["", " ", "-", ":", ",", "=", "é", "\x00", "\n", "1e9", "nan", "99999999999999999999"]
DIE = st.sampled_from(["D4", "D6", "D8", "D10", "D12", "d8", "D7", "D", "8", *ODD])
INT = st.integers(-5, 40).map(str) | st.sampled_from(ODD)
WORD = st.sampled_from(["Rifle", "STR", "dex", "hard", "fear", "gap", "barely", *ODD])
WORD |= st.text(max_size=6)
TEXT = st.text(max_size=16)


def _pairs(keys: list[str]) -> st.SearchStrategy[str]:
    pair = st.builds(lambda k, v: f"{k}={v}", st.sampled_from(keys) | WORD, WORD | INT)
    return st.lists(pair | INT, min_size=1, max_size=8).map(",".join)


GRAMMARS: dict[str, st.SearchStrategy[str]] = {
    "die": DIE,
    "int": INT,
    "word": WORD,
    "gear": st.builds(
        lambda name, bonus, dice: f"{name}:{bonus}" + ("" if dice is None else ":" + dice),
        WORD,
        INT,
        st.none() | st.lists(DIE, max_size=8).map(",".join),
    ),
    "indices": st.lists(INT, max_size=8).map(",".join),
    "assign": _pairs(["STR", "DEX", "CON", "CHA", "INT", "WIL", "PER", "str", "XYZ"]),
    "pairs": _pairs(["barely", "miss-ios", "d1", "d7", "Scope", "gap", "resolve"]),
}
SEED = st.integers(-(2**70), 2**70).map(str) | INT | TEXT

NEW_LEGACY = ["character", "new", "legacy", "--name", "Ann", "--race", "human", "--origin", "air"]
Option = tuple[str, str]
COMMANDS: dict[str, tuple[list[str], dict[str, Option]]] = {
    # each command with valid arguments: option -> (a valid value, its grammar)
    "roll empty-reach": (
        ["roll", "empty-reach"],
        {
            "--attribute": ("D8", "die"),
            "--skill": ("D6", "die"),
            "--gear": ("Rifle:2:D8", "gear"),
            "--reroll": ("0,1", "indices"),
        },
    ),
    "odds empty-reach": (
        ["odds", "empty-reach"],
        {"--attribute": ("D8", "die"), "--modifier": ("1", "int"), "--push": ("never", "word")},
    ),
    "character new legacy": (
        [*NEW_LEGACY, "--soul", "human", "--no-interactive", "--affinity", "stealth"],
        {
            "--assign": ("0,1,2,3,4,5,6", "assign"),
            "--reroll": ("INI", "word"),
            "--affinity": ("arcane", "word"),
        },
    ),
    "roll legacy": (
        ["roll", "legacy"],
        {"--score": ("45", "int"), "--rank": ("1", "int"), "--situation": ("fear", "word")},
    ),
    "roll rainwall": (
        ["roll", "rainwall", "--skill", "5", "--bonus", "2", "--dr", "2"],
        {
            "--dice": ("3", "int"),
            "--variant": ("barely=always", "pairs"),
            "--allocate": ("d1=1", "pairs"),
        },
    ),
    "roll ghostburn": (
        ["roll", "ghostburn", "--luck", "keep", "--chart", "default"],
        {"--dl": ("Hard", "word"), "--gear": ("Scope=1", "pairs"), "--trait": ("gap=2", "pairs")},
    ),
}
CASES = [(name, option) for name, (_, options) in COMMANDS.items() for option in options]


def _args(command: str, out: str, seed: str, fuzzed: Option | None = None) -> list[str]:
    base, options = COMMANDS[command]
    values = {k: v for k, (v, _) in options.items()} | dict([fuzzed] if fuzzed else [])
    args = [*base, *(a for k, v in values.items() for a in (k, v))]
    if command == "character new legacy":
        args += ["--out", out]
    return args if command.startswith("odds") else [*args, "--seed", seed]


def _cli(args: list[str]) -> Any:
    result = runner.invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args!r} raised {result.exception!r}\n{result.output}")
    assert result.exit_code in (0, 2), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output, (args, result.output)
    return result


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("cli") / "character.json")


@pytest.mark.parametrize("command", COMMANDS)
def test_each_fuzzed_command_runs_with_its_valid_arguments(out: str, command: str) -> None:
    result = _cli(_args(command, out, "1"))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("command", "option"), CASES, ids=[f"{c} {o}" for c, o in CASES])
def test_cli_options_parse_or_refuse(out: str, command: str, option: str) -> None:
    grammar = GRAMMARS[COMMANDS[command][1][option][1]]

    @FUZZ
    @given(value=grammar | TEXT, seed=SEED)
    @example(value="\u00b9", seed="1")  # "1" superscript: str.isdigit() says yes, int() no
    def run(value: str, seed: str) -> None:
        _cli(_args(command, out, seed, (option, value)))

    run()


@FUZZ
@given(text=GRAMMARS["assign"] | TEXT)
def test_the_assignment_parser_parses_or_refuses(text: str) -> None:
    try:
        order = parse_assignment(text)
    except RuleboundError:
        return
    assert len(order) == 7
    assert all(isinstance(i, int) for i in order)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | WORD | DIE,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORD, inner, max_size=3),
    max_leaves=8,
)
REQUEST_FIELDS = ["attribute_die", "skill_die", "dice", "skill", "dr", "bonus", "target"]
REQUEST_FIELDS += ["score", "rank", "difficulty", "modifier", "gear", "variants", "dl"]


@pytest.mark.parametrize("key", ["empty-reach", "rainwall", "legacy", "ghostburn"])
def test_request_parsers_parse_or_refuse(key: str) -> None:
    """A record's request (``load``) and a raw form (``forms.read`` then ``request``)."""
    game = get_game(key)
    names = REQUEST_FIELDS + [f.name for f in game.fields]
    variants = resolve(game.variants, {})

    @FUZZ
    @given(
        payload=st.dictionaries(st.sampled_from(names) | WORD, JSON, max_size=5),
        nested=st.booleans(),
    )
    def parse(payload: dict[str, Any], nested: bool) -> None:
        with contextlib.suppress(RuleboundError):
            game.load({"request": payload} if nested else payload)
        with contextlib.suppress(RuleboundError):
            game.request(forms.read(game.fields, payload), variants)

    parse()
