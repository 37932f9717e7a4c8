"""CLI options built from a game's contract: its fields, odds fields, variants and follow flags.

One click option per flag. A flag can serve several fields (Rainwall's ``--skill`` is a
score in a raw request and a skill name with ``--character``), so options carry raw
strings and each field set reads them with ``forms.read``, by its own kinds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.contract import Field, FollowFlag, Variant
from rulebound.rulesets.forms import what
from rulebound.rulesets.registry import AnyGame, get_game
from rulebound.rulesets.variants import resolve


@dataclass(frozen=True, slots=True)
class Flag:
    """One option: its name, the fields it fills, and whether it repeats or is a switch."""

    flag: str
    aliases: tuple[str, ...]
    help: str
    repeated: bool
    switch: bool
    variant: str = ""
    """The variant this option picks, if it is a variant's option."""

    @property
    def dest(self) -> str:
        return "opt_" + self.flag.replace("-", "_")

    def option(self) -> click.Option:
        names = [f"--{self.flag}", *(f"--{a}" for a in self.aliases), self.dest]
        if self.switch:
            return click.Option(names, is_flag=True, default=None, help=self.help)
        return click.Option(
            names, multiple=self.repeated, default=None, help=self.help, metavar="VALUE"
        )


def flags_for(fields: Iterable[Field], taken: set[str]) -> list[Flag]:
    """Merge the fields by flag (first help wins); skip flags already ``taken``."""
    merged: dict[str, list[Field]] = {}
    for field in fields:
        merged.setdefault(field.cli_flag, []).append(field)
    flags = []
    for flag, group in merged.items():
        if flag in taken:
            continue
        taken.add(flag)
        aliases = tuple(dict.fromkeys(a for f in group for a in f.aliases if a not in taken))
        taken.update(aliases)
        first = group[0]
        text = first.help or first.label
        if first.kind not in ("bool", "text", "sheet"):
            text = f"{text} [{what(first)}]"
        elif first.kind == "sheet":
            text = f"{text} [a character file; - reads standard input]"
        flags.append(
            Flag(
                flag,
                aliases,
                text,
                any(f.repeated for f in group),
                all(f.kind == "bool" for f in group),
            )
        )
    return flags


def variant_flags(variants: Sequence[Variant], taken: set[str]) -> list[Flag]:
    flags = []
    for variant in variants:
        flag = variant.key.replace("_", "-")
        if flag in taken:
            continue
        taken.add(flag)
        text = (
            f"Variant: {' | '.join(variant.choices)} (default {variant.default}). {variant.summary}"
        )
        hints = [f"{c}: {variant.hint(c)}" for c in variant.choices if variant.hint(c)]
        if hints:
            text += " " + " ".join(hints)
        flags.append(Flag(flag, (), text, False, False, variant.key))
    return flags


def follow_option_flags(follow: Sequence[FollowFlag], taken: set[str]) -> list[Flag]:
    flags = []
    for spec in follow:
        if spec.flag in taken:
            continue
        taken.add(spec.flag)
        flags.append(Flag(spec.flag, (), spec.help, True, False))
    return flags


def given(flag: Flag, options: Mapping[str, Any]) -> Any:
    """The option's value, or None when it was not given."""
    value = options.get(flag.dest)
    if value is None or value == ():
        return None
    return list(value) if isinstance(value, tuple) else value


def values_for(fields: Sequence[Field], options: Mapping[str, Any]) -> dict[str, Any]:
    """Raw values by field name for the options given (``forms.read`` types them).

    A ``sheet`` field's option names a character file: its JSON is the value.
    """
    from rulebound.cli.output import read_json_file

    raw: dict[str, Any] = {}
    for field in fields:
        value = options.get("opt_" + field.cli_flag.replace("-", "_"))
        if value is None or value == ():
            continue
        if field.kind == "sheet":
            value = read_json_file(Path(str(value)), f"--{field.cli_flag} file")
        raw[field.name] = list(value) if isinstance(value, tuple) else value
    return raw


def pairs(flag: str, items: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` options as a mapping, naming the option of a malformed one."""
    found: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidInput(f"--{flag}", item, "KEY=VALUE")
        found[key.strip()] = value.strip()
    return found


def game_for(key: str, content: Path | None) -> AnyGame:
    """The game, with a homebrew content file when one is given."""
    game = get_game(key)
    return game if content is None else game.with_content(content)


def variants_for(
    game: AnyGame, options: Mapping[str, Any], flags: Sequence[Flag]
) -> dict[str, str]:
    """The variants chosen by ``--variant KEY=CHOICE`` and by each variant's own option."""
    chosen: dict[str, Any] = pairs("variant", options.get("variant") or ())
    for flag in flags:
        value = options.get(flag.dest)
        if flag.variant and value is not None:
            chosen[flag.variant] = value
    return resolve(game.variants, chosen)


SHEET_ONLY = "here: it chooses from a sheet (give --character)"


def stray(
    fields: Sequence[Field], others: Sequence[Field], options: Mapping[str, Any], why: str
) -> list[InvalidInput]:
    """Options that only ``others`` take (a raw field given with --character)."""
    own = {f.cli_flag for f in fields}
    stray = {
        f.cli_flag: value
        for f in others
        if f.cli_flag not in own
        for value in values_for([f], options).values()
    }
    if not stray:
        return []
    flags = ", ".join(f"--{name}" for name in stray)
    return [InvalidInput(flags, next(iter(stray.values())), f"nothing {why}")]
