"""What ``rulebound odds <game>`` does, for any game: the exact odds of a raw request, of a
roll from a character file, of a chain under way, or the designer table.

The plain question (a raw request) imports no roll, sheet or replay code: a chain file and a
character file bring in what they need (``session``, ``plays``) when they are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulebound.cli.options import SHEET_ONLY, Flag, game_for, stray, values_for, variants_for
from rulebound.cli.output import emit_json, emit_text
from rulebound.core.errors import InvalidInput, RuleViolation, raise_all
from rulebound.render.json_view import chances_json
from rulebound.rulesets import forms

Options = Mapping[str, Any]


def run_odds(key: str, options: Options, flags: Sequence[Flag]) -> None:
    from rulebound.cli.grids import emit_grid, table_flags

    game = game_for(key, options.get("content"))
    variants = variants_for(game, options, flags)
    as_json = bool(options.get("json"))
    fields = (*game.fields, *game.odds_fields)
    if options.get("character") is None and game.sheets is not None:
        raise_all(stray(fields, game.sheets.choice_fields, options, SHEET_ONLY))
    if table_flags(options):
        values = forms.read(fields, values_for(fields, options), required=False)
        emit_grid(game.grid(values, variants), options, as_json)
        return
    chain_file = options.get("chain")
    if chain_file is not None:
        from rulebound.cli.session import resume

        chain = resume(game, Path(chain_file), options)
        chances = game.after_chances(chain.result)
        if chances is None:
            raise RuleViolation("--chain", "this result has nothing left to roll")
        given: dict[str, Any] = {"chain": str(chain_file)}
    elif options.get("character") is not None:
        from rulebound.cli.session import sheet_from
        from rulebound.rulesets.plays import TableRules

        sheets = game.sheets
        if sheets is None:
            raise InvalidInput("--character", options["character"], "a game with sheets")
        sheet = sheet_from(game, Path(options["character"]))
        raise_all(
            stray(sheets.choice_fields, fields, options, "with --character (the sheet sets it)")
        )
        table = TableRules(game)
        choices = values_for(sheets.choice_fields, options)
        chances = table.chances(sheet, choices, variants)
        given = {"character": sheet.get("name"), **forms.read(table.dialog(sheet), choices)}
    else:
        given = forms.read(fields, values_for(fields, options))
        chances = game.odds(given, variants)
    if as_json:
        emit_json(chances_json(game.key, given, chances))
        return
    from rulebound.render.card_text import chances_text

    shown = ", ".join(f"{k} {v}" for k, v in given.items() if v not in (None, False, [], ""))
    emit_text(chances_text(f"{game.title}: {shown}" if shown else game.title, chances))
