"""The command line's conventions: ``--version``, ``-h``, ``-`` for standard input wherever
a file is read, and a missing extra named rather than a traceback."""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulebound
from rulebound.cli.app import app
from rulebound.cli.extras import extra_for
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game

runner = CliRunner()
EXPORT = Path(__file__).parents[1] / "trust" / "data" / "format1-observer.json"
HOMEBREW = '[[tricks]]\nkey = "hotwire"\nname = "Hotwire"\nskill = "drive"\ndl = "Hard"\n'


def test_version_is_the_package_version() -> None:
    answer = runner.invoke(app, ["--version"])
    assert answer.exit_code == 0
    assert answer.output == f"rulebound, version {rulebound.__version__}\n"
    assert version("rulebound") == rulebound.__version__


@pytest.mark.parametrize(
    "args", [["-h"], ["roll", "-h"], ["odds", "rainwall", "-h"], ["verify", "-h"], ["dice", "-h"]]
)
def test_dash_h_is_help_everywhere(args: list[str]) -> None:
    answer = runner.invoke(app, args)
    assert answer.exit_code == 0, answer.output
    assert answer.output.startswith("Usage: rulebound")
    assert "-h, --help" in answer.output


def test_verify_reads_the_export_from_standard_input() -> None:
    answer = runner.invoke(app, ["verify", "-"], input=EXPORT.read_bytes())
    assert answer.exit_code == 0, answer.output
    assert answer.output.startswith("standard input: table 'Night run' (empty-reach)")
    assert answer.output.endswith("OK\n")
    earlier = runner.invoke(
        app, ["verify", str(EXPORT), "--earlier", "-"], input=EXPORT.read_bytes()
    )
    assert earlier.exit_code == 0, earlier.output


def test_standard_input_gives_one_file() -> None:
    answer = runner.invoke(app, ["verify", "-", "--earlier", "-"], input=EXPORT.read_bytes())
    assert answer.exit_code == 2
    assert "standard input gives one file" in answer.output


def test_a_broken_export_on_standard_input_is_named_so() -> None:
    answer = runner.invoke(app, ["verify", "-"], input=b"{")
    assert answer.exit_code == 2
    assert "standard input" in answer.output
    assert "Traceback" not in answer.output


@pytest.mark.parametrize(
    "args",
    [["verify", "-"], ["roll", "ghostburn", "-c", "-", "--skill", "athletics"]],
)
def test_a_number_past_the_digit_cap_is_named_not_a_traceback(args: list[str]) -> None:
    """Python refuses to convert an integer of over 4,300 digits; the CLI says so."""
    answer = runner.invoke(app, args, input=b'{"format": 2, "n": ' + b"7" * 5000 + b"}")
    assert answer.exit_code == 2, answer.output
    assert "a number in it runs past 4,300 digits" in answer.output
    assert "Traceback" not in answer.output


def _sheet() -> bytes:
    sheet = TableRules(get_game("ghostburn")).sheets.starter("Vex")
    return json.dumps(sheet).encode()


def test_a_character_file_from_standard_input() -> None:
    shown = runner.invoke(app, ["character", "ghostburn", "-"], input=_sheet())
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("Vex\n")
    rolled = runner.invoke(
        app,
        ["roll", "ghostburn", "-c", "-", "--skill", "drive", "--dl", "Hard", "--seed", "3"],
        input=_sheet(),
    )
    assert rolled.exit_code == 0, rolled.output
    assert "Result:" in rolled.output


def test_an_empty_standard_input_says_so() -> None:
    answer = runner.invoke(app, ["character", "ghostburn", "-"], input=b"")
    assert answer.exit_code == 2
    assert "character file on standard input: nothing there" in answer.output


def test_a_homebrew_content_file_from_standard_input() -> None:
    listed = runner.invoke(app, ["content", "ghostburn", "--content", "-"], input=HOMEBREW)
    assert listed.exit_code == 0, listed.output
    assert "hotwire" in listed.output
    broken = runner.invoke(app, ["content", "ghostburn", "--content", "-"], input="[[tricks]")
    assert broken.exit_code == 2
    assert "standard input" in broken.output


def test_files_a_roll_writes_back_cannot_be_standard_input() -> None:
    chain = runner.invoke(app, ["roll", "legacy", "--target", "12", "--chain", "-"])
    assert chain.exit_code == 2
    assert "--chain" in chain.output
    assert "saved" in chain.output
    saved = runner.invoke(
        app, ["roll", "ghostburn", "-c", "-", "--skill", "drive", "--save"], input=_sheet()
    )
    assert saved.exit_code == 2
    assert "--save" in saved.output
    assert "Result:" not in saved.output  # refused before rolling


def test_odds_of_a_chain_from_standard_input(tmp_path: Path) -> None:
    chain = tmp_path / "check.json"
    args = ["--success-threshold", "3", "--failure-threshold", "3", "--max-rolls", "5"]
    started = runner.invoke(
        app, ["roll", "legacy", "--score", "30", *args, "--seed", "1", "--chain", str(chain)]
    )
    assert started.exit_code == 0, started.output
    from_file = runner.invoke(app, ["odds", "legacy", "--chain", str(chain)])
    from_stdin = runner.invoke(app, ["odds", "legacy", "--chain", "-"], input=chain.read_bytes())
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.output.startswith("Legacy Machines and Magic: chain -\n")
    assert from_stdin.output.splitlines()[1:] == from_file.output.splitlines()[1:]


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # `import uvicorn` now fails
    answer = runner.invoke(app, ["serve", "--port", "1"])
    assert answer.exit_code == 1
    assert answer.output == (
        "error: rulebound serve needs the web extra, which is not installed "
        "(no module named 'uvicorn'): pip install 'rulebound[web]'\n"
    )


def test_only_our_extras_are_named() -> None:
    assert extra_for(ModuleNotFoundError(name="psycopg")) == "postgres"
    assert extra_for(ModuleNotFoundError(name="redis.asyncio")) == "redis"
    assert extra_for(ModuleNotFoundError(name="nacl")) == "discord"
    assert extra_for(ModuleNotFoundError(name="matplotlib")) == "plot"
    assert extra_for(ModuleNotFoundError(name="numpy")) is None


def test_shell_completion_completes_games_and_their_options() -> None:
    def complete(words: str) -> str:
        env = {
            "_RULEBOUND_COMPLETE": "bash_complete",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - 1),
        }
        return runner.invoke(app, [], env=env, prog_name="rulebound").output

    assert complete("rulebound odds ra") == "plain,rainwall\n"
    assert complete("rulebound odds rainwall --sk") == "plain,--skill\nplain,--skill-name\n"
    source = runner.invoke(
        app, [], env={"_RULEBOUND_COMPLETE": "bash_source"}, prog_name="rulebound"
    )
    assert "_rulebound_completion()" in source.output


def test_piped_answers_that_run_out_are_refused_by_the_option_asked_for() -> None:
    """``character new --interactive`` reads its answers from standard input; when they end
    before one is given, the option that would give it is named (status 2). A sheet made
    without ``--out`` or ``--json`` is shown, and said to be unsaved (it printed nothing)."""
    ended = runner.invoke(app, ["character", "new", "rainwall", "--interactive"], input="")
    assert ended.exit_code == 2, ended.output
    assert "--name is needed: the input ended" in ended.output
    answered = runner.invoke(app, ["character", "new", "rainwall", "--interactive", "--json"])
    assert answered.exit_code == 2  # asking is for text: JSON is one object
    named = runner.invoke(app, ["character", "new", "rainwall", "--interactive"], input="Ana\n")
    assert named.exit_code == 0, named.output
    assert named.output.startswith("Name: Ana\nAna\n")  # the sheet, shown as it was not saved
    assert named.output.endswith("Not saved: --out FILE saves the sheet, --json prints it.\n")


def _sheet_only_options() -> list[tuple[str, str, list[str]]]:
    """For each game with sheets: a choice only a sheet takes, as (game, flag, its args)."""
    from rulebound.rulesets.registry import all_games

    found = []
    for key, game in all_games().items():
        if game.sheets is None:
            continue
        raw = {f.cli_flag for f in (*game.fields, *game.odds_fields)}
        for f in game.sheets.choice_fields:
            if f.cli_flag in raw or f.kind == "sheet":
                continue
            value = f.choices[-1].value if f.choices else "1" if f.kind == "int" else "x"
            args = [f"--{f.cli_flag}"] if f.kind == "bool" else [f"--{f.cli_flag}", value]
            found.append((key, f.cli_flag, args))
            break
    return found


@pytest.mark.parametrize("command", ["roll", "odds"])
@pytest.mark.parametrize(("key", "flag", "args"), _sheet_only_options())
def test_a_sheet_s_choice_without_a_character_is_refused_not_dropped(
    command: str, key: str, flag: str, args: list[str]
) -> None:
    """``--affinity`` on a Legacy roll from numbers was once read by nothing: the odds came out
    as if it had not been given. A choice only a sheet makes needs ``--character``."""
    numbers = {
        "empty-reach": ["--attribute", "D8"],
        "rainwall": ["--dice", "3", "--skill", "6"],
        "legacy": ["--score", "31"],
        "ghostburn": ["--dl", "Moderate"],
    }[key]
    seed = ["--seed", "1"] if command == "roll" else []
    answer = runner.invoke(app, [command, key, *numbers, *args, *seed])
    assert answer.exit_code == 2, answer.output
    assert f"--{flag}" in answer.stderr
    assert "give --character" in answer.stderr
