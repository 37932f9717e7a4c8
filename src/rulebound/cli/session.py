"""What ``rulebound roll|odds|character|content <game>`` do, for any game.

The options arrive as raw strings keyed by ``Flag.dest``; the game's own fields
type them (``forms.read``). A roll is the same play the web table makes
(``plays``): from a raw request, or from a character file through the game's
``Sheets``, then the follow-ups the options or the player at the terminal ask for,
each a new result linked to the last.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from rulebound.cli.options import (
    SHEET_ONLY,
    Flag,
    game_for,
    pairs,
    stray,
    values_for,
    variants_for,
)
from rulebound.cli.output import (
    STDIN,
    emit_json,
    emit_text,
    is_stdin,
    read_json_file,
    write_json_file,
)
from rulebound.core.errors import (
    ContentError,
    InvalidInput,
    RuleboundError,
    RuleViolation,
    problems_of,
    raise_all,
)
from rulebound.core.random_source import RandomSource, SeededSource, SystemSource
from rulebound.render.card_text import card_text
from rulebound.render.json_view import result_json
from rulebound.render.words import other_game
from rulebound.rulesets import forms
from rulebound.rulesets.contract import ActionView, Card, Field, Record, Sheet
from rulebound.rulesets.plays import (
    AnyGame,
    TableRules,
    follow_play,
    params_of,
    replay,
    roll_play,
)

Options = Mapping[str, Any]


def source_for(seed: int | None) -> RandomSource:
    return SystemSource() if seed is None else SeededSource(seed)


def sheet_from(game: AnyGame, path: Path) -> Sheet:
    """A character file, validated exactly as the web table validates a sheet."""
    data = read_json_file(path, "character file")
    try:
        return TableRules(game).validate_sheet(data)
    except InvalidInput as exc:  # the file's own fields, never the options of the same name
        whole = other_game(exc, game.title)
        listed = () if whole else problems_of(exc)
        raise ContentError(str(path), whole or str(exc), listed) from None


def _read(
    fields: Sequence[Field], raw: Mapping[str, Any], found: list[InvalidInput]
) -> dict[str, Any]:
    """The form read, its problems reported with those already ``found``, all at once."""
    try:
        values = forms.read(fields, raw)
    except InvalidInput as exc:
        raise_all([*found, exc])
    raise_all(found)
    return values


@dataclass
class Chain:
    """A result chain under way: the game, the records so far, and the sheet they leave.

    ``tool``: a sheet action started it (``--action``), so there is no roll result: its card
    is rebuilt from the records and its follow-ups go through ``TableRules.act``."""

    game: AnyGame
    result: Any
    records: list[Record]
    sheet: Sheet | None = None
    request: dict[str, Any] = field(default_factory=dict)
    shown: list[str] = field(default_factory=list)
    variants: Mapping[str, str] = field(default_factory=dict)
    tool: bool = False

    def card(self) -> Card:
        if self.tool:
            return TableRules(self.game).card(self.records)
        return self.game.card(self.result)

    def offered(self) -> tuple[ActionView, ...]:
        return self.card().actions if self.tool else self.game.follow_ups(self.result)

    def follow(self, action: str, params: Mapping[str, Any], source: RandomSource) -> None:
        if self.tool:
            rules = TableRules(self.game)
            play = rules.act(self.sheet or {}, self.records, action, params, self.variants, source)
            self.records.append(play.record)
            self.sheet = play.sheet or self.sheet
            self.shown.append(card_text(play.card))
            return
        if self.sheet is not None:
            self.result, play = TableRules(self.game).followed(
                self.sheet, self.result, action, params, source
            )
            record, self.sheet = play.record, play.sheet or self.sheet
        else:
            self.result, record = follow_play(self.game, self.result, action, params, source)
        self.records.append(record)
        self.shown.append(card_text(self.game.card(self.result)))


def start(
    game: AnyGame, options: Options, variants: Mapping[str, str], source: RandomSource
) -> Chain:
    character = options.get("character")
    sheets = game.sheets
    if character is not None:
        if sheets is None:
            raise InvalidInput(
                "--character", str(character), f"nothing: {game.title} has no sheets"
            )
        sheet = sheet_from(game, Path(character))
        why = "with --character (the sheet sets it)"
        raise_all(stray(sheets.choice_fields, game.fields, options, why))
        choices = values_for(sheets.choice_fields, options)
        result, play = TableRules(game).rolled(sheet, choices, variants, source)
        shown = [card_text(play.card)]
        return Chain(
            game, result, [play.record], play.sheet or sheet, params_of(play.record), shown
        )
    found = []
    if sheets is not None:
        found = stray(game.fields, sheets.choice_fields, options, SHEET_ONLY)
    values = _read(game.fields, values_for(game.fields, options), found)
    request = game.request(values, variants)
    result, record = roll_play(game, request, source)
    return Chain(game, result, [record], None, game.dump(request), [card_text(game.card(result))])


def start_action(
    game: AnyGame, options: Options, variants: Mapping[str, str], source: RandomSource
) -> Chain:
    """``--action ACTION[:FIELD=VALUE;...]``: a sheet action on ``--character``, not a roll."""
    given = str(options.get("action"))
    character = options.get("character")
    if character is None:
        raise InvalidInput("--action", given, "--character as well (the sheet it acts on)")
    sheet = sheet_from(game, Path(character))
    fields = (*game.fields, *(game.sheets.choice_fields if game.sheets else ()))
    for f in fields:  # a roll's options: the action takes its own in ACTION:FIELD=VALUE
        for value in values_for([f], options).values():
            raise InvalidInput(f"--{f.cli_flag}", value, "nothing with --action (a roll's option)")
    name, _, rest = given.partition(":")
    params = pairs("action", [p for p in rest.split(";") if p]) if rest else {}
    play = TableRules(game).sheet_act(sheet, name.strip(), params, variants, source)
    return Chain(
        game,
        None,
        [play.record],
        play.sheet or sheet,
        params_of(play.record),
        [card_text(play.card)],
        variants,
        tool=True,
    )


def resume(game: AnyGame, path: Path, options: Options) -> Chain:
    data = read_json_file(path, "chain file")
    records = data.get("records") if isinstance(data, Mapping) else None
    if not isinstance(records, list) or not records:
        raise InvalidInput("--chain", str(path), "a chain file this command wrote")
    if data.get("ruleset") != game.key:
        raise InvalidInput("--chain", data.get("ruleset"), f"a chain file of {game.key}")
    follow = {spec.flag for spec in game.follow_flags}
    given = [
        (f.cli_flag, value)
        for f in game.fields
        if f.cli_flag not in follow
        for value in values_for([f], options).values()
    ]
    if given:
        flag, value = given[0]
        raise InvalidInput(
            f"--{flag}", value, "nothing with --chain: the chain file holds its roll"
        )
    sheet = options.get("character")
    loaded = sheet_from(game, Path(sheet)) if sheet is not None else None
    if isinstance(records[0], Mapping) and records[0].get("kind") != "roll":  # a sheet action's
        variants = variants_for(game, options, ())
        TableRules(game).card(records)  # it replays, or it is refused here
        return Chain(game, None, list(records), loaded, params_of(records[0]), [], variants, True)
    result = replay(game, records)
    return Chain(game, result, list(records), loaded, params_of(records[0]), [])


@dataclass(frozen=True, slots=True)
class Wanted:
    """A follow-up the options ask for, and the option that asked (for its errors)."""

    action: str
    params: dict[str, Any]
    flag: str


def _uses(value: Any) -> list[Any]:
    if value is None or value is False:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def follow_ups(game: AnyGame, options: Options, *, resuming: bool = False) -> list[Wanted]:
    """The follow-ups asked for: each follow flag's uses in order, then each ``--follow``.

    A follow flag that is also a request field (Legacy's ``--rolls``) fills the field when
    a chain starts, and asks for the follow-up when a chain file is resumed.
    """
    fields = {f.cli_flag for f in game.fields}
    if game.sheets is not None:
        fields |= {f.cli_flag for f in game.sheets.choice_fields}
    wanted: list[Wanted] = []
    for spec in game.follow_flags:
        if spec.flag in fields and not resuming:
            continue
        uses = _uses(options.get("opt_" + spec.flag.replace("-", "_")))
        uses = [u for u in uses if u not in spec.skip]
        if spec.gather and uses:
            gathered: dict[str, Any] = {spec.field: uses} if spec.field else {}
            wanted.append(Wanted(spec.action, gathered, f"--{spec.flag}"))
            continue
        for use in uses:
            plain = use is True or str(use).strip() in ("", "default") or not spec.field
            params: dict[str, Any] = {spec.field: True} if use is True and spec.field else {}
            if not plain:
                params = {spec.field: use}
            wanted.append(Wanted(spec.action, params, f"--{spec.flag}"))
    for item in options.get("follow") or ():
        action, _, rest = str(item).partition(":")
        params = pairs("follow", [p for p in rest.split(";") if p]) if rest else {}
        wanted.append(Wanted(action.strip(), dict(params), "--follow"))
    return wanted


def take(chain: Chain, wanted: Wanted, source: RandomSource, done: int) -> None:
    """Take one follow-up; errors name the option and how many of its uses went through."""
    offered = {a.key for a in chain.offered()}
    if wanted.action not in offered:
        after = f"after {done} follow-up(s)" if done else "after the roll"
        now = ", ".join(sorted(offered)) or "none"
        raise RuleViolation(
            wanted.flag, f"{after} the result offers no {wanted.action} (offered: {now})"
        )
    try:
        chain.follow(wanted.action, wanted.params, source)
    except InvalidInput as exc:
        if exc.field in wanted.params and wanted.flag != "--follow":
            raise InvalidInput(wanted.flag, exc.value, exc.expected, tip=exc.tip) from None
        raise


def skipped(game: AnyGame, options: Options) -> bool:
    """True when an option said not to follow up (``--luck keep``)."""
    for spec in game.follow_flags:
        if any(u in spec.skip for u in _uses(options.get("opt_" + spec.flag.replace("-", "_")))):
            return True
    return False


def ask(chain: Chain, source: RandomSource, prompt: Callable[..., Any] = click.prompt) -> None:
    """At a terminal: offer each follow-up the result allows until the player keeps it."""
    while True:
        offered = [a for a in chain.offered() if a.available]
        if not offered:
            return
        keys = ", ".join(a.key for a in offered)
        answer = prompt(
            f"Follow up with {keys}, or press Enter to keep the result",
            default="",
            show_default=False,
        ).strip()
        if not answer:
            return
        action = next((a for a in offered if a.key == answer), None)
        if action is None:
            emit_text(f"  not offered: {answer!r}; choose one of {keys}")
            continue
        params = {
            f.name: prompt(f"  {f.label}", default=_shown(f.default), show_default=True)
            for f in action.fields
        }
        if action.spends and not click.confirm(f"  This spends {action.spends}. Go ahead?"):
            continue
        chain.follow(action.key, params, source)
        emit_text("")
        emit_text(chain.shown[-1])


def _shown(default: Any) -> str:
    if isinstance(default, tuple | list):
        return ",".join(str(d) for d in default)
    return "" if default is None else str(default)


def run_roll(key: str, options: Options, flags: Sequence[Flag]) -> None:
    unwritable(options)
    game = game_for(key, options.get("content"))
    variants = variants_for(game, options, flags)
    source = source_for(options.get("seed"))
    chain_file = options.get("chain")
    as_json = bool(options.get("json"))
    resuming = chain_file is not None and Path(chain_file).exists()
    if chain_file is not None and resuming:
        if options.get("action") is not None:
            raise InvalidInput("--action", options["action"], "nothing with --chain of a file")
        chain = resume(game, Path(chain_file), options)
    elif options.get("action") is not None:
        chain = start_action(game, options, variants, source)
    else:
        chain = start(game, options, variants, source)
    if not as_json:
        for text in chain.shown:
            emit_text(text)
    chain.shown.clear()
    wanted = follow_ups(game, options, resuming=resuming)
    try:
        for done, asked in enumerate(wanted):
            take(chain, asked, source, done)
            if not as_json:
                emit_text("")
                emit_text(chain.shown[-1])
    except RuleboundError:
        # what was rolled (and shown) stands: its costs are saved before the refusal
        save_results(chain, options)
        raise
    interactive = not wanted and not as_json and not skipped(game, options) and sys.stdin.isatty()
    if interactive:
        ask(chain, source)
    save_results(chain, options)
    if as_json:
        emit_json(
            {
                "ruleset": game.key,
                "request": chain.request,
                "result": None if chain.tool else result_json(chain.result),
                "card": chain.card(),
                "records": chain.records,
                "character": chain.sheet,
            }
        )


def unwritable(options: Options) -> None:
    """Refuse, before rolling, to save back to standard input (``-``): a roll's chain file
    is written after it, and so is the character file with ``--save``."""
    if is_stdin(options.get("chain")):
        raise InvalidInput("--chain", STDIN, "a file: the roll's chain is saved to it")
    if options.get("save") and is_stdin(options.get("character")):
        raise InvalidInput("--save", True, "a --character file to write back, not standard input")


def save_results(chain: Chain, options: Options) -> None:
    if chain.sheet is not None and options.get("save"):
        character = options.get("character")
        if character is None:
            raise RuleViolation("--save", "there is no --character file to write back")
        write_json_file(Path(character), chain.sheet)
    elif options.get("save") and options.get("character") is None:
        raise InvalidInput("--save", True, "--character as well (the file it writes back)")
    chain_file = options.get("chain")
    if chain_file is not None:
        write_json_file(Path(chain_file), {"ruleset": chain.game.key, "records": chain.records})


def run_odds(key: str, options: Options, flags: Sequence[Flag]) -> None:
    """``rulebound odds <game>`` (``cli.odds``, which imports no roll or sheet code)."""
    from rulebound.cli.odds import run_odds

    run_odds(key, options, flags)
