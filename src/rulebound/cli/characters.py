"""``rulebound character <game> FILE``, ``character new <game>`` and ``content <game>``."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from rulebound.cli.options import game_for
from rulebound.cli.output import as_flags, emit_json, emit_text, error_text, write_json_file
from rulebound.cli.session import sheet_from, source_for
from rulebound.core.errors import InvalidInput, problems_of
from rulebound.core.random_source import RandomSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import CreationStep, Field, Sheet
from rulebound.rulesets.plays import AnyGame, TableRules


def show_character(key: str, path: Path, content: Path | None, as_json: bool) -> None:
    game = game_for(key, content)
    sheet = sheet_from(game, path)
    if as_json:
        emit_json(sheet)
        return
    emit_text(sheet_text(game, sheet))


def sheet_text(game: AnyGame, sheet: Sheet) -> str:
    view = TableRules(game).sheet_view(sheet)
    lines = [str(sheet.get("name", "")), ""]
    lines += [f"  {label}: {value}" for label, value in view.tracks]
    group = None
    for field in view.fields:
        value = view.values.get(field.name)
        if value in (None, "", [], ()) or field.name == "name":
            continue
        if field.group != group:
            group = field.group
            lines.append(f"{group or 'Sheet'}:")
        lines.append(f"  {field.label}: {value}")
    return "\n".join(lines)


def show_content(key: str, content: Path | None, as_json: bool) -> None:
    game = game_for(key, content)
    tables = game.content()
    if as_json:
        emit_json({"ruleset": key, "tables": tables})
        return
    for table in tables:
        widths = [
            max(len(column), *(len(row[i]) for row in table.rows)) if table.rows else len(column)
            for i, column in enumerate(table.columns)
        ]
        emit_text(f"{table.title}:")
        emit_text("  " + "  ".join(c.ljust(w) for c, w in zip(table.columns, widths, strict=True)))
        for row in table.rows:
            emit_text("  " + "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)))
        emit_text("")


Given = dict[str, Any]


def extra_options(args: Sequence[str]) -> Given:
    """``--flag value``, ``--flag=value`` and bare ``--flag`` from the unparsed arguments;
    a flag given more than once gathers its values in a list."""
    found: Given = {}
    items = list(args)
    while items:
        item = items.pop(0)
        if not item.startswith("--") or item == "--":
            raise InvalidInput("argument", item, "options as --FIELD VALUE")
        name, sep, value = item[2:].partition("=")
        got: str | bool = value if sep else True
        if not sep and items and not items[0].startswith("--"):
            got = items.pop(0)
        if name in found:
            before = found[name]
            found[name] = [*(before if isinstance(before, list) else [before]), got]
        else:
            found[name] = got
    return found


def _answers(fields: Sequence[Field], given: Given) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for field in fields:
        for flag in (field.cli_flag, *field.aliases):
            if flag in given:
                answers[field.name] = given.pop(flag)
    return answers


def _ask(fields: Sequence[Field], answers: dict[str, Any]) -> None:
    for field in fields:
        if field.name in answers or field.kind == "sheet":
            continue
        choices = ", ".join(c.value for c in field.choices[:12])
        label = field.label + (f" ({choices})" if choices else "")
        default = field.default
        shown = ",".join(default) if isinstance(default, tuple) else default
        answers[field.name] = _prompt(label, field.cli_flag, shown)


def _prompt(label: str, flag: str, default: str | int | None = None) -> Any:
    """One answer. Answers piped in that end too soon are refused by the option that would
    have given this one (at a terminal, Ctrl-D still aborts)."""
    try:
        return click.prompt(label, default=default, show_default=default is not None)
    except click.Abort:
        if sys.stdin.isatty():
            raise
        wanted = f"the input ended before it was answered; give it as --{flag} VALUE"
        raise InvalidInput(f"--{flag}", None, wanted) from None


def new_character(key: str, options: Mapping[str, Any], args: Sequence[str]) -> None:
    game = game_for(key, None)
    given = extra_options(args)
    source = source_for(options.get("seed"))
    interactive = options.get("interactive")
    if interactive and options.get("as_json"):
        raise InvalidInput("--interactive", True, "not with --json (the answer is one JSON object)")
    if interactive is None:
        interactive = sys.stdin.isatty() and not options.get("as_json")
    if options.get("preview") and options.get("seed") is None:
        raise InvalidInput(
            "--show-rolls", True, "--seed as well, so a later call gets the same rolls"
        )
    name = options.get("name")
    step = game.creation({}, {}, source)
    guided = step is not None  # its steps show the character as they go
    sheet: Sheet | None = None
    if step is None:
        if not name:
            name = _prompt("Name", "name") if interactive else None
        if not name:
            raise InvalidInput("--name", None, "the character's name")
        sheet = _edited(TableRules(game), TableRules(game).new_sheet(str(name)), given)
    while step is not None and step.sheet is None:
        if not options.get("as_json"):
            _show_step(step)
        answers = _answers(step.fields, given)
        if name and any(f.name == "name" for f in step.fields):
            answers.setdefault("name", name)
        if options.get("preview") and step.fields and not answers:
            return
        step = _next_step(game, step, answers, bool(interactive), source)
    if step is not None:
        sheet = step.sheet
        if not options.get("as_json"):
            _show_step(step)
    if given:
        unknown = ", ".join(f"--{flag}" for flag in given)
        raise InvalidInput(unknown, "given", "options of the creation steps")
    assert sheet is not None
    out = options.get("out")
    if out is not None:
        write_json_file(Path(out), sheet)
    if options.get("as_json"):
        emit_json(sheet)
    elif out is not None:
        emit_text(f"saved to {out}")
    else:
        if not guided:
            emit_text(sheet_text(game, sheet))
        emit_text("Not saved: --out FILE saves the sheet, --json prints it.")


def _edited(rules: TableRules[Any, Any], sheet: Sheet, given: Given) -> Sheet:
    """A game without guided creation: the options that name its sheet form's fields
    (``--add-skill``, ``--traits-Dexterity``) edit the new sheet, as the web's form does;
    a repeated option of a multi-line field gives one line each."""
    fields = rules.sheet_view(sheet).fields
    answers = _answers(fields, given)
    if not answers:
        return sheet
    for field in fields:
        value = answers.get(field.name)
        if isinstance(value, list) and field.multiline:
            answers[field.name] = "\n".join(str(v) for v in value)
    try:
        return rules.apply_sheet_form(sheet, answers)
    except InvalidInput as exc:
        raise as_flags(exc, {f.name: f"--{f.cli_flag}" for f in fields}) from None


def _next_step(
    game: AnyGame,
    step: CreationStep,
    answers: dict[str, Any],
    interactive: bool,
    source: RandomSource,
) -> CreationStep | None:
    """The step after ``step``; at a terminal, a refused answer is asked again."""
    while True:
        if interactive:
            _ask(step.fields, answers)
        try:
            return game.creation(step.state, forms.read(step.fields, answers), source)
        except InvalidInput as exc:
            if not interactive:  # named by the option that sets it (--affinity)
                raise as_flags(exc, {f.name: f"--{f.cli_flag}" for f in step.fields}) from None
            emit_text(f"  {error_text(exc)}")
            for problem in problems_of(exc):
                answers.pop(problem.field.split(".")[0], None)


def _show_step(step: CreationStep) -> None:
    emit_text(step.title)
    for note in step.notes:
        emit_text(f"  {note}")
