"""The application commands, built from each game's roll fields (``Sheets.choice_fields``).

``/roll`` and ``/odds`` hold one subcommand per game, its options the game's fields:
a choice is a text option with autocomplete (its choices depend on the character), a
number an integer option, a yes/no a boolean. ``/r`` rolls a dice expression and
``/rulebound`` links a channel and seats players. Nothing here knows any one game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebound.rulesets.contract import Field
from rulebound.store import PRIVACY_MODES
from rulebound.web.settings import TableGame

SUBCOMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5
MAX_OPTIONS = 25
"""Discord's cap on one command's options: a game with more fields offers its first ones."""
SKIPPED_KINDS = ("dice", "sheet")
"""Dice are chosen on a result (a select menu); another character's sheet is the web's."""
CHARACTER = "character"
PRIVACY = "privacy"
PRIVACY_WORDS = {
    "public": "everyone sees it",
    "gm": "only the game master (and you)",
    "self": "only you",
    "blind": "the game master alone sees the result",
}


def option_name(field: Field) -> str:
    return field.name.replace(".", "-").lower()[:32]


def _text(words: str, fallback: str) -> str:
    return (words.strip() or fallback)[:100]


@dataclass(frozen=True, slots=True)
class GameOptions:
    """One game's fields as options, and the way back from an option to its field."""

    game: TableGame
    fields: tuple[Field, ...]

    @classmethod
    def of(cls, game: TableGame, room: int) -> GameOptions:
        usable = [f for f in game.table.sheets.choice_fields if f.kind not in SKIPPED_KINDS]
        seen: set[str] = set()
        unique = []
        for f in usable:
            if option_name(f) not in seen and option_name(f) not in (CHARACTER, PRIVACY):
                seen.add(option_name(f))
                unique.append(f)
        required = [f for f in unique if f.required]
        optional = [f for f in unique if not f.required]
        return cls(game, tuple([*required, *optional][:room]))

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if option_name(f) == name), None)

    def options(self, *, privacy: bool) -> list[dict[str, Any]]:
        shown = [_option(f) for f in self.fields]
        required = [o for o in shown if o.get("required")]
        optional = [o for o in shown if not o.get("required")]
        character = {
            "type": STRING,
            "name": CHARACTER,
            "description": "Your character (default: your first)",
            "autocomplete": True,
        }
        extra = [_privacy_option()] if privacy else []
        return [*required, character, *optional, *extra]

    def form(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The roll form from a command's options (``field.name`` keys, lists for many)."""
        form: dict[str, Any] = {}
        for name, value in given.items():
            f = self.field(name)
            if f is None:
                continue
            if f.kind == "multiselect" and isinstance(value, str):
                form[f.name] = [part.strip() for part in value.split(",") if part.strip()]
            else:
                form[f.name] = value
        return form


def _option(f: Field) -> dict[str, Any]:
    option: dict[str, Any] = {
        "name": option_name(f),
        "description": _text(f.help or f.label, f.name),
        "required": f.required,
    }
    if f.kind == "int":
        option["type"] = INTEGER
        if f.minimum is not None:
            option["min_value"] = f.minimum
        if f.maximum is not None:
            option["max_value"] = f.maximum
    elif f.kind == "bool":
        option["type"] = BOOLEAN
    else:
        option["type"] = STRING
        if f.kind in ("select", "multiselect"):
            option["autocomplete"] = True
        if f.kind == "multiselect":
            option["description"] = _text(f"{f.label} (several: comma-separated)", f.name)
    return option


def _privacy_option() -> dict[str, Any]:
    return {
        "type": STRING,
        "name": PRIVACY,
        "description": "Who sees the result (default: everyone)",
        "choices": [
            {"name": f"{mode}: {PRIVACY_WORDS[mode]}", "value": mode} for mode in PRIVACY_MODES
        ],
    }


def game_options(games: Mapping[str, TableGame]) -> dict[str, GameOptions]:
    """Each game's options: room for its fields beside the character and privacy ones."""
    return {key: GameOptions.of(game, MAX_OPTIONS - 2) for key, game in sorted(games.items())}


def definitions(games: Mapping[str, TableGame]) -> list[dict[str, Any]]:
    """Every command, as Discord's bulk overwrite takes them (global commands)."""
    per_game = game_options(games)

    def subcommands(description: str, *, privacy: bool) -> list[dict[str, Any]]:
        return [
            {
                "type": SUBCOMMAND,
                "name": key[:32],
                "description": _text(f"{description}: {opts.game.title}", key),
                "options": opts.options(privacy=privacy),
            }
            for key, opts in per_game.items()
        ]

    return [
        {
            "name": "rulebound",
            "type": 1,
            "description": "Link this channel to a rulebound table, or take a seat at it",
            "options": [
                {
                    "type": SUBCOMMAND,
                    "name": "link",
                    "description": "Bind this channel to your table (the game master's invite)",
                    "options": [
                        {
                            "type": STRING,
                            "name": "invite",
                            "description": "The table's game master invite link",
                            "required": True,
                        }
                    ],
                },
                {
                    "type": SUBCOMMAND,
                    "name": "join",
                    "description": "Take a seat as a player at this channel's table",
                },
                {
                    "type": SUBCOMMAND,
                    "name": "character",
                    "description": "Create a character of yours at this channel's table",
                    "options": [
                        {
                            "type": STRING,
                            "name": "name",
                            "description": "The character's name",
                            "required": True,
                        }
                    ],
                },
            ],
        },
        {
            "name": "roll",
            "type": 1,
            "description": "Roll a check with the table's committed dice",
            "options": subcommands("Roll", privacy=True),
        },
        {
            "name": "odds",
            "type": 1,
            "description": "The exact odds of a check, before you roll",
            "options": subcommands("Odds", privacy=False),
        },
        {
            "name": "r",
            "type": 1,
            "description": "Roll a dice expression such as 2d6+3",
            "options": [
                {
                    "type": STRING,
                    "name": "dice",
                    "description": "Dice and numbers joined by + or -, e.g. 2d6+3 or d20-1",
                    "required": True,
                },
                _privacy_option(),
            ],
        },
    ]


def flat(options: Sequence[Mapping[str, Any]] | None) -> dict[str, Any]:
    """A command's option values by name (a subcommand's own options, not nested)."""
    return {str(o["name"]): o.get("value") for o in options or () if "value" in o}
