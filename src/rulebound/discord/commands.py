"""The application commands, built from each game's roll fields (``Sheets.choice_fields``).

``/roll`` and ``/odds`` hold one subcommand per game, its options the game's fields (more
subcommands for a game whose fields pass Discord's 25 options: ``pack``): a choice is a
text option with autocomplete (its choices depend on the character), another character's
sheet one with the table's characters, a number an integer option, a yes/no a boolean.
``/r`` rolls a dice expression, ``/rulebound`` links a channel and seats players, and
``/sheet`` shows, edits and creates characters (``sheets``, ``creation``).
Nothing here knows any one game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.discord.common import MAX_CHOICES
from rulebound.discord.luck import COMMAND as LUCK
from rulebound.rulesets.contract import Field
from rulebound.web.service import MAX_TABLE_NAME
from rulebound.web.settings import TableGame

SUBCOMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5
MAX_OPTIONS = 25
"""Discord's cap on one command's options (and on a command's subcommands)."""
ROOM = MAX_OPTIONS - 2
"""A subcommand's room for a game's fields, beside the character and privacy options."""
MAX_COMMAND_TEXT = 8000
"""Discord's cap on a command's names, descriptions and values, all options counted."""
SKIPPED_KINDS = ("dice",)
"""Dice are chosen on a result (a select menu), never in the command."""
CHARACTER = "character"
PRIVACY = "privacy"
PRIVACY_WORDS = {
    "public": "everyone sees it",
    "gm": "only the game master (and you)",
    "self": "only you",
    "blind": "the game master alone sees the result",
}
"""The privacy a roll from Discord may take (a whisper is the web table's talk)."""


def option_name(field: Field) -> str:
    return field.name.replace(".", "-").lower()[:32]


def _text(words: str, fallback: str) -> str:
    return (words.strip() or fallback)[:100]


def _slug(words: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in words.lower()).split())


@dataclass(frozen=True, slots=True)
class GameOptions:
    """One subcommand of a game: some of its fields as options, and the way back from an
    option to its field. A game whose fields do not fit one subcommand has several
    (``split``), each with the fields every roll takes and some of the groups."""

    game: TableGame
    key: str
    """The game's key (the table's ruleset)."""
    name: str
    """The subcommand's name: the key, or the key and the first group it adds."""
    fields: tuple[Field, ...]
    groups: tuple[str, ...] = ()
    """The groups of fields this subcommand has beside the shared ones (when split)."""

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if option_name(f) == name), None)

    def options(self, *, privacy: bool) -> list[dict[str, Any]]:
        game = self.game.table.game
        shown = [_option(f, bool(game.suggestions(f.name, {}))) for f in self.fields]
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

    def description(self, verb: str) -> str:
        title = self.game.title
        return _text(
            f"{verb}: {title}" + (f" ({', '.join(self.groups)})" if self.groups else ""), self.key
        )

    def form(
        self, given: Mapping[str, Any], sheets: Mapping[str, Mapping[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The roll form from a command's options (``field.name`` keys, lists for many); a
        character picked for a sheet field (by id or name, among ``sheets``) is its sheet."""
        form: dict[str, Any] = {}
        for name, value in given.items():
            f = self.field(name)
            if f is None:
                continue
            if f.kind == "multiselect" and isinstance(value, str):
                form[f.name] = [part.strip() for part in value.split(",") if part.strip()]
            elif f.kind == "sheet":
                known = sheets or {}
                picked = known.get(str(value).strip().lower())
                if picked is None:
                    names = sorted(k for k in known if not k.isdecimal())
                    expected = "a character of this table: " + (", ".join(names) or "none")
                    raise InvalidInput(f.name, value, expected)
                form[f.name] = dict(picked)
            else:
                form[f.name] = value
        return form


def usable_fields(game: TableGame) -> list[Field]:
    """A game's roll fields Discord asks for: not dice, one per option name."""
    seen: set[str] = {CHARACTER, PRIVACY}
    unique = []
    for f in game.table.sheets.choice_fields:
        if f.kind not in SKIPPED_KINDS and option_name(f) not in seen:
            seen.add(option_name(f))
            unique.append(f)
    return unique


def split(key: str, game: TableGame, room: int = ROOM) -> list[GameOptions]:
    """A game's fields as subcommands (``pack``): the first named by the game's key, each
    other by the key and the first group it adds ("legacy-opposed-check")."""
    made = []
    names: set[str] = set()
    for n, (groups, fields) in enumerate(pack(usable_fields(game), room)):
        name = (key if n == 0 else f"{key}-{_slug(groups[0])}")[:32]
        while name in names:
            name = f"{name[:28]}-{n}"
        names.add(name)
        made.append(GameOptions(game, key, name, fields, groups))
    return made


def pack(
    fields: Sequence[Field], room: int = ROOM
) -> list[tuple[tuple[str, ...], tuple[Field, ...]]]:
    """Fields in parts of at most ``room``, every field in at least one, required ones first.

    When they all fit, one part. Else each part has the shared fields (the required ones
    and those of no group) and whole groups, packed first come, first served; a later part
    also takes the earlier groups that still fit, so that groups go together where they
    can. A group (or the ungrouped rest, "more") too big for a part is cut in pieces."""
    if len(fields) <= room:
        return [((), tuple(_required_first(fields)))]
    required = [f for f in fields if f.required]
    loose = [f for f in fields if not f.required and not f.group]
    if len(required) > room // 2:
        raise ValueError(f"{len(required)} required fields leave no room in {room} options")
    shared = [*required, *loose[: room // 2 - len(required)]]
    units: dict[str, list[Field]] = {}
    if len(shared) - len(required) < len(loose):
        units["more"] = loose[len(shared) - len(required) :]
    for f in fields:
        if not f.required and f.group:
            units.setdefault(f.group, []).append(f)
    free = room - len(shared)
    pieces: list[tuple[str, list[Field]]] = []
    for label, members in units.items():
        cuts = [members[i : i + free] for i in range(0, len(members), free)]
        pieces += [(label if len(cuts) == 1 else f"{label} {n + 1}", c) for n, c in enumerate(cuts)]
    packs: list[list[tuple[str, list[Field]]]] = []
    for piece in pieces:
        home = next((p for p in packs if _size(p) + len(piece[1]) <= free), None)
        if home is None:
            packs.append([piece])
        else:
            home.append(piece)
    for later in packs[1:]:
        for piece in pieces:
            if piece not in later and _size(later) + len(piece[1]) <= free:
                later.append(piece)
    parts = []
    for chosen in packs:
        taken = [*shared, *(f for _, members in chosen for f in members)]
        ordered = [f for f in fields if f in taken]
        parts.append((tuple(label for label, _ in chosen), tuple(_required_first(ordered))))
    return parts


def _size(pack: Sequence[tuple[str, Sequence[Field]]]) -> int:
    return sum(len(members) for _, members in pack)


def _required_first(fields: Sequence[Field]) -> list[Field]:
    return [f for f in fields if f.required] + [f for f in fields if not f.required]


def _option(f: Field, suggested: bool = False) -> dict[str, Any]:
    """A field as an option; a text field the game suggests values for autocompletes them."""
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
        if f.kind in ("select", "multiselect", "sheet") or suggested:
            option["autocomplete"] = True
        if f.kind == "sheet":
            option["description"] = _text(f"{f.label} (a character at the table)", f.name)
        if f.kind == "multiselect":
            option["description"] = _text(f"{f.label} (several: comma-separated)", f.name)
    return option


def _privacy_option() -> dict[str, Any]:
    return {
        "type": STRING,
        "name": PRIVACY,
        "description": "Who sees the result (default: everyone)",
        "choices": [
            {"name": f"{mode}: {words}", "value": mode} for mode, words in PRIVACY_WORDS.items()
        ],
    }


def game_options(games: Mapping[str, TableGame]) -> dict[str, GameOptions]:
    """Every game's subcommands, by subcommand name."""
    return {sub.name: sub for key, game in sorted(games.items()) for sub in split(key, game)}


GUILD_ONLY = {"contexts": [0], "integration_types": [0]}
"""Where Discord offers a command: in a server's channels (context 0), for an app added to a
server (installation 0), never in the bot's DMs or to a user who installed the app alone,
where no channel is linked to a table."""


def definitions(games: Mapping[str, TableGame]) -> list[dict[str, Any]]:
    """Every command, as Discord's bulk overwrite takes them (global commands)."""
    return [command | GUILD_ONLY for command in _commands(games)]


def _commands(games: Mapping[str, TableGame]) -> list[dict[str, Any]]:
    per_game = game_options(games)

    def subcommands(verb: str, *, privacy: bool) -> list[dict[str, Any]]:
        return [
            {
                "type": SUBCOMMAND,
                "name": name,
                "description": opts.description(verb),
                "options": opts.options(privacy=privacy),
            }
            for name, opts in per_game.items()
        ]

    return [
        {
            "name": "rulebound",
            "type": 1,
            "description": "Link this channel to a rulebound table, or take a seat at it",
            "options": [
                {
                    "type": SUBCOMMAND,
                    "name": "new",
                    "description": "Open a new table for this channel, with you as game master",
                    "options": [
                        {
                            "type": STRING,
                            "name": "game",
                            "description": "The game the table plays",
                            "required": True,
                            "choices": [
                                {"name": game.title[:100], "value": key}
                                for key, game in sorted(games.items())
                            ][:MAX_CHOICES],
                        },
                        {
                            "type": STRING,
                            "name": "name",
                            "description": "The table's name",
                            "required": True,
                            "max_length": MAX_TABLE_NAME,
                        },
                    ],
                },
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
            "description": "Roll dice such as 4d6kh3, 1d20+5 adv or 10d10>=7, with exact odds",
            "options": [
                {
                    "type": STRING,
                    "name": "dice",
                    "description": "Dice such as 2d6+3, 4d6kh3, 8d6 [fire] (docs/notation.md)",
                    "required": True,
                },
                _privacy_option(),
            ],
        },
        {
            "name": "turn",
            "type": 1,
            "description": "The table's turn order: whose turn it is, and ending it",
            "options": [
                {
                    "type": SUBCOMMAND,
                    "name": "show",
                    "description": "The order, whose turn it is and the round",
                },
                {
                    "type": SUBCOMMAND,
                    "name": "next",
                    "description": "End the turn under way (the game master, or its player)",
                },
            ],
        },
        LUCK,
        SHEET,
    ]


_CHARACTER = {
    "type": STRING,
    "name": CHARACTER,
    "description": "The character (default: your first; the game master: any)",
    "autocomplete": True,
}
SHEET: dict[str, Any] = {
    "name": "sheet",
    "type": 1,
    "description": "A character's sheet: see it, change a field, or create a character",
    "options": [
        {
            "type": SUBCOMMAND,
            "name": "show",
            "description": "See the sheet (only you), with a form per page to edit it",
            "options": [_CHARACTER],
        },
        {
            "type": SUBCOMMAND,
            "name": "set",
            "description": "Change one field of the sheet (HP, luck, a skill...), as the web sheet",
            "options": [
                {
                    "type": STRING,
                    "name": "field",
                    "description": "The sheet's field",
                    "required": True,
                    "autocomplete": True,
                },
                {
                    "type": STRING,
                    "name": "value",
                    "description": "Its new value, as the web sheet's form takes it",
                    "required": True,
                    "autocomplete": True,
                },
                _CHARACTER,
            ],
        },
        {
            "type": SUBCOMMAND,
            "name": "create",
            "description": "Create a character: the game's guided steps, or a blank sheet",
            "options": [
                {
                    "type": STRING,
                    "name": "name",
                    "description": "The name (a game with guided creation asks in its first step)",
                },
            ],
        },
    ],
}
"""``/sheet``: the same for every game (its fields come from the sheet, by autocomplete)."""


def flat(options: Sequence[Mapping[str, Any]] | None) -> dict[str, Any]:
    """A command's option values by name (a subcommand's own options, not nested)."""
    return {str(o["name"]): o.get("value") for o in options or () if "value" in o}
