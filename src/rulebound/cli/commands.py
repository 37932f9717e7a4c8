"""Click commands built from the registry and each game's contract, imported lazily.

``rulebound roll rainwall`` imports Rainwall and nothing else; ``rulebound --help``
and ``rulebound roll --help`` import no game at all (their titles are in the
registry). A plug-in registered by entry point gets every command with no code here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from rulebound.cli.options import Flag, flags_for, follow_option_flags, variant_flags
from rulebound.cli.output import JSON_HELP, SEED_HELP, rule_errors
from rulebound.rulesets.registry import game_keys, game_title, get_game, is_game

Builder = Callable[[str], click.Command]


class GameGroup(click.Group):
    """A group with one command per registered game, each built when it is asked for."""

    def __init__(self, name: str, build: Builder, help: str, extra: Sequence[click.Command] = ()):
        super().__init__(name, help=help, no_args_is_help=True)
        self.build = build
        self.extra = {command.name or "": command for command in extra}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.extra, *game_keys()]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.extra:
            return self.extra[cmd_name]
        if not is_game(cmd_name):
            return None
        return self.build(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, command.get_short_help_str()) for name, command in self.extra.items()]
        rows += [(key, game_title(key)) for key in game_keys()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _path_option(names: list[str], text: str) -> click.Option:
    return click.Option(names, type=click.Path(path_type=Path), default=None, help=text)


def _generic(game: Any, *, roll: bool) -> tuple[list[click.Option], set[str]]:
    aliases = dict(game.cli_aliases)

    def names(flag: str, dest: str, *short: str) -> list[str]:
        return [*short, f"--{flag}", *(f"--{a}" for a in aliases.get(flag, ())), dest]

    options = [
        _path_option(
            names("character", "character", "-c"),
            "A character file (JSON; - reads standard input).",
        ),
        _path_option(
            names("content", "content"),
            "A homebrew content file merged over the game's own (- reads standard input).",
        ),
        _path_option(
            names("chain", "chain"),
            "A chain file: resumed and continued if it exists, else started; then saved.",
        ),
        click.Option(
            names("variant", "variant"),
            multiple=True,
            metavar="KEY=CHOICE",
            help="A rules variant; repeatable.",
        ),
        click.Option(names("json", "json"), is_flag=True, help=JSON_HELP),
    ]
    if roll:
        options += [
            click.Option(names("seed", "seed"), type=int, default=None, help=SEED_HELP),
            click.Option(
                names("save", "save"),
                is_flag=True,
                help="With --character, write the sheet back after the roll and its follow-ups.",
            ),
            click.Option(
                names("follow", "follow"),
                multiple=True,
                metavar="ACTION[:FIELD=VALUE;...]",
                help="A follow-up after the roll (as offered on its card); repeatable.",
            ),
            click.Option(
                names("action", "action"),
                default=None,
                metavar="ACTION[:FIELD=VALUE;...]",
                help="With --character, a sheet action instead of a roll (as the table offers "
                "it: a rest, a repair, Killer's roll); --follow then follows it up.",
            ),
        ]
    taken = {"character", "c", "content", "chain", "variant", "json", "seed", "save", "follow"}
    taken.add("action")
    taken |= {a for group in aliases.values() for a in group}
    return options, taken


def game_flags(game: Any, *, roll: bool) -> tuple[list[click.Option], list[Flag]]:
    options, taken = _generic(game, roll=roll)
    sheet_fields = game.sheets.choice_fields if game.sheets is not None else ()
    fields = (*game.fields, *sheet_fields, *(() if roll else game.odds_fields))
    flags = flags_for(fields, taken) + variant_flags(game.variants, taken)
    if roll:
        flags += follow_option_flags(game.follow_flags, taken)
    return options + [flag.option() for flag in flags], flags


def field_flags(game: Any, *, roll: bool) -> dict[str, str]:
    """Field name to ``--flag``, so that errors name the option the user typed."""
    sheet_fields = game.sheets.choice_fields if game.sheets is not None else ()
    fields = (*game.fields, *sheet_fields, *(() if roll else game.odds_fields))
    named = {f.name: f"--{f.cli_flag}" for f in reversed(fields)}
    named |= {f"variants.{v.key}": f"--{v.key.replace('_', '-')}" for v in game.variants}
    return named | {"variants": "--variant"}


def field_labels(game: Any, *, roll: bool) -> dict[str, str]:
    """``--flag`` to the game's own name for it, so that errors say both."""
    sheet_fields = game.sheets.choice_fields if game.sheets is not None else ()
    fields = (*game.fields, *sheet_fields, *(() if roll else game.odds_fields))
    named = {f"--{f.cli_flag}": f.label for f in reversed(fields) if f.label}
    named |= {f"--{v.key.replace('_', '-')}": v.label for v in game.variants if v.label}
    return named


def roll_command(key: str) -> click.Command:
    help = "Roll a {} check with its full trace, then follow it up if you choose."
    return _check_command(key, help, roll=True)


def odds_command(key: str) -> click.Command:
    help = "Exact {} odds before you roll, or the designer table (--table)."
    return _check_command(key, help, roll=False)


def _check_command(key: str, help: str, *, roll: bool) -> click.Command:
    """``roll <game>`` or ``odds <game>``: an option for each field, variant and follow-up."""
    game = get_game(key)
    game_options, flags = game_flags(game, roll=roll)
    params: list[click.Parameter] = list(game_options)
    if roll:
        from rulebound.cli.session import run_roll as run
    else:
        from rulebound.cli.grids import OPTIONS
        from rulebound.cli.odds import run_odds as run

        params += OPTIONS

    def callback(**options: Any) -> None:
        with rule_errors(field_flags(game, roll=roll), field_labels(game, roll=roll)):
            run(key, options, flags)

    return click.Command(key, params=params, callback=callback, help=help.format(game.title))


def character_command(key: str) -> click.Command:
    from rulebound.cli.characters import show_character

    def callback(path: Path, content: Path | None, as_json: bool) -> None:
        with rule_errors():
            show_character(key, path, content, as_json)

    return click.Command(
        key,
        params=[
            click.Argument(["path"], type=click.Path(path_type=Path, allow_dash=True)),
            _path_option(["--content", "content"], "A homebrew content file (- reads stdin)."),
            click.Option(["--json", "as_json"], is_flag=True, help=JSON_HELP),
        ],
        callback=callback,
        help=f"Check a {game_title(key)} character file and show it.",
    )


def new_character_command(key: str) -> click.Command:
    from rulebound.cli.characters import new_character

    def callback(**options: Any) -> None:
        with rule_errors():
            new_character(key, options, click.get_current_context().args)

    return click.Command(
        key,
        params=[
            click.Option(["--name", "name"], default=None, help="The character's name."),
            _path_option(["--out", "out"], "Where to save the sheet (JSON)."),
            click.Option(["--seed", "seed"], type=int, default=None, help=SEED_HELP),
            click.Option(["--json", "as_json"], is_flag=True, help=JSON_HELP),
            click.Option(
                ["--interactive/--no-interactive", "interactive"],
                default=None,
                help="Ask for each step's choices (default: when at a terminal).",
            ),
            click.Option(
                ["--preview", "--show-rolls", "preview"],
                is_flag=True,
                help="Show the steps up to the first choice not given, then stop.",
            ),
        ],
        callback=callback,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        help=f"Create a {game_title(key)} character; each step's choices are options "
        "(--FIELD VALUE) or asked at a terminal.",
    )


def content_command(key: str) -> click.Command:
    from rulebound.cli.characters import show_content

    def callback(content: Path | None, as_json: bool) -> None:
        with rule_errors():
            show_content(key, content, as_json)

    return click.Command(
        key,
        params=[
            _path_option(["--content", "content"], "A homebrew content file (- reads stdin)."),
            click.Option(["--json", "as_json"], is_flag=True, help=JSON_HELP),
        ],
        callback=callback,
        help=f"List {game_title(key)} content: skills, tricks, races... with their numbers.",
    )
