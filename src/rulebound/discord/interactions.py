"""Answering Discord's interactions: PING, the commands, autocomplete and the buttons.

Every request's signature is checked on the raw bytes first (``signature``); only then is
the body parsed, and an interaction answered before (its id, kept in the database across
processes: ``Store.first_interaction``) is refused as a replay. Each answer is one JSON
response (Discord waits about three seconds for it). Plays go through the web table's
``TableService`` with a ``Viewer`` for the Discord user's seat, so a Discord roll is a
log entry like any other: the table's committed dice, shown live on the web table,
verified by ``rulebound verify``.

Discord cannot keep a secret of the player's, so each roll's contribution is the one the
server chooses, marked ``server_chosen`` in the log (docs/discord.md, docs/security.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from rulebound.core.canonical import to_jsonable
from rulebound.core.dice import parse as parse_dice
from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation
from rulebound.core.wording import counted
from rulebound.discord import embeds
from rulebound.discord.commands import CHARACTER, PRIVACY, GameOptions, flat, game_options
from rulebound.discord.luck import luck_text
from rulebound.discord.signature import (
    MAX_AGE_SECONDS,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    Verifier,
    number,
)
from rulebound.rulesets.contract import Chances
from rulebound.rulesets.plays import ROLL, params_of, replay
from rulebound.rulesets.turns import lines
from rulebound.store import CharacterRow, LogEntry, Member, NewEntry, Role, TableRow
from rulebound.web.auth import Viewer
from rulebound.web.caps import MAX_NAME, clean_name
from rulebound.web.service import TableService

PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, MESSAGE, UPDATE, CHOICES, MODAL = 1, 4, 7, 8, 9
MAX_INPUTS = 5
"""Discord's cap on a modal's inputs: a follow-up that takes more shares the last one."""
REST = "rb-rest"
"""The custom id of the input of several lines that holds the inputs past the fifth."""
PATH = "/discord/interactions"
UNLINKED = (
    "This channel is not linked to a rulebound table. A game master links it with "
    "`/rulebound link invite:<the table's game master invite link>`."
)
UNSEATED = "You have no seat at this channel's table: run `/rulebound join` first."
REVOKED = "The game master revoked your seat at this channel's table."
NOT_YOURS = "Only the player who rolled, or the game master, can press this."
UNSEEN = "That roll is not one you may see."
MANAGE_CHANNELS = 1 << 4
"""Discord's permission bit: whoever holds it in a channel may link it to another table."""
NOT_YOUR_CHANNEL = (
    "This channel plays at **{table}**: only its game master (or someone who may manage "
    "this channel) can link it to another table."
)

Payload = Mapping[str, Any]
Answer = dict[str, Any]


def said(text: str, *, ephemeral: bool = True) -> Answer:
    data: dict[str, Any] = {"content": text[:2000]}
    if ephemeral:
        data["flags"] = embeds.EPHEMERAL
    return {"type": MESSAGE, "data": data}


class Refusal(Exception):
    """An answer for the user alone, in words (not linked, not seated, not theirs)."""


def user_of(payload: Payload) -> tuple[str, str]:
    """The Discord user's id and the name to seat them by (nickname, display or user name)."""
    member = payload.get("member") or {}
    user = member.get("user") or payload.get("user") or {}
    user_id = str(user.get("id") or "")
    if not user_id:
        raise Refusal("Discord sent no user with this interaction.")
    for name in (member.get("nick"), user.get("global_name"), user.get("username")):
        try:
            return user_id, clean_name("name", str(name or "")[:MAX_NAME])
        except InvalidInput:  # as the web refuses it: the next name Discord gives stands in
            continue
    return user_id, f"Discord user {user_id[-4:]}"


class Interactions:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self.store = service.store
        self.options = game_options(service.games)

    # the parts every answer needs

    def table(self, payload: Payload) -> TableRow:
        table = self.store.channel_table(str(payload.get("channel_id") or ""))
        if table is None:
            raise Refusal(UNLINKED)
        return table

    def viewer(self, payload: Payload) -> Viewer:
        table = self.table(payload)
        user_id, _ = user_of(payload)
        member = self.store.discord_member(table.id, user_id)
        if member is None:
            raise Refusal(UNSEATED)
        if member.revoked:
            raise Refusal(REVOKED)
        return Viewer(table, member, "", False)

    def handle(self, payload: Payload) -> Answer:
        kind = payload.get("type")
        if kind == PING:
            return {"type": PONG}
        try:
            if kind == COMMAND:
                return self.command(payload)
            if kind == AUTOCOMPLETE:
                try:
                    return self.autocomplete(payload)
                except (Refusal, RuleboundError):
                    return {"type": CHOICES, "data": {"choices": []}}  # it must answer choices
            if kind in (COMPONENT, MODAL_SUBMIT):
                return self.component(payload)
        except Refusal as refusal:
            return said(str(refusal))
        except RuleboundError as exc:
            return said(f"Not done: {exc}")
        return said(f"rulebound does not answer interactions of type {kind!r}.")

    # commands

    def command(self, payload: Payload) -> Answer:
        data = payload.get("data") or {}
        name = data.get("name")
        options = data.get("options") or []
        sub = options[0] if options and options[0].get("type") == 1 else None
        given = flat(sub.get("options") if sub else options)
        if name == "rulebound" and sub is not None:
            return self.rulebound(payload, str(sub.get("name")), given)
        if name == "r":
            return self.free_roll(payload, given)
        if name == "turn" and sub is not None:
            return self.turn(payload, str(sub.get("name")))
        if name == "luck":
            return said(luck_text(self.service, self.viewer(payload)))
        if name in ("roll", "odds") and sub is not None:
            viewer = self.viewer(payload)
            game = self.game_of(viewer, str(sub.get("name")))
            if name == "odds":
                return self.odds(viewer, game, given)
            return self.roll(viewer, game, given)
        return said(f"rulebound has no command {name!r}.")

    def rulebound(self, payload: Payload, sub: str, given: Mapping[str, Any]) -> Answer:
        user_id, name = user_of(payload)
        if sub == "link":
            return self.link(payload, user_id, name, str(given.get("invite") or ""))
        table = self.table(payload)
        if sub == "join":
            member = self.store.discord_member(table.id, user_id)
            if member is not None:
                return said(f"You already have a seat at {table.name}, as {member.name}.")
            seated = self.seat(table.id, user_id, "player", name)
            return said(f"{seated.name} takes a seat at {table.name}.", ephemeral=False)
        if sub == "character":
            viewer = self.viewer(payload)
            row = self.service.new_character(viewer, str(given.get("name") or ""))
            return said(f"{viewer.member.name} created {row.name} at {table.name}.")
        return said(f"`/rulebound` has no subcommand {sub!r}: link, join or character.")

    def link(self, payload: Payload, user_id: str, name: str, invite: str) -> Answer:
        token = invite.strip().rstrip("/").rsplit("/", 1)[-1]
        table, role = self.service.store.table_by_token(token)
        if role != "gm":
            raise Refusal(
                f"That is the table's {role} invite: link with the game master's invite link."
            )
        channel = str(payload.get("channel_id") or "")
        before = self.store.channel_table(channel)
        if before is not None and before.id != table.id:
            self.may_move(payload, before, user_id)
        member = self.store.discord_member(table.id, user_id)
        if member is None or member.role != "gm":
            member = self.seat(table.id, user_id, "gm", name)
        guild = payload.get("guild_id")
        self.store.link_channel(channel, guild and str(guild), table.id, member.id)
        if before is not None and before.id != table.id:
            summary = f"{name} moved this table's Discord channel to another table"
            self.store.append(NewEntry(before.id, "discord", "public", None, summary))
        title = self.service.game(table.ruleset).title
        return said(
            f"This channel now plays at **{table.name}** ({title}), with {member.name} as "
            "game master. Players: `/rulebound join`, then `/roll`.",
            ephemeral=False,
        )

    def may_move(self, payload: Payload, linked: TableRow, user_id: str) -> None:
        """Only the linked table's game master, or a member Discord lets manage the channel,
        may link the channel to another table."""
        member = self.store.discord_member(linked.id, user_id)
        if member is not None and member.role == "gm" and not member.revoked:
            return
        granted = str((payload.get("member") or {}).get("permissions") or "0")
        if granted.isdigit() and int(granted) & MANAGE_CHANNELS:
            return
        raise Refusal(NOT_YOUR_CHANNEL.format(table=linked.name))

    def seat(self, table_id: int, user_id: str, role: Role, name: str) -> Member:
        """Seat a Discord user at the table, with their identity, in one transaction."""
        words = "game master" if role == "gm" else "player"
        summary = f"{name} joined as {words} from Discord"
        return self.store.seat_discord_user(table_id, user_id, role, name, summary)

    def game_of(self, viewer: Viewer, sub: str) -> GameOptions:
        key = viewer.table.ruleset
        chosen = self.options.get(sub)
        if chosen is None or chosen.key != key:
            title = self.service.game(key).title
            names = " or ".join(f"`/roll {n}`" for n, o in self.options.items() if o.key == key)
            raise Refusal(f"This channel's table plays {title}: use {names or 'the web table'}.")
        return chosen

    def sheets(self, viewer: Viewer) -> dict[str, Mapping[str, Any]]:
        """The characters a sheet field may pick (the table's, as the viewer sees them, as
        the web table's picker offers them), by id and by name."""
        rows = self.service.characters(viewer)
        return {str(row.id): row.sheet for row in rows} | {
            row.name.strip().lower(): row.sheet for row in rows
        }

    def character(self, viewer: Viewer, given: Mapping[str, Any]) -> CharacterRow:
        rows = [row for row in self.service.characters(viewer) if viewer.may_edit(row)]
        chosen = str(given.get(CHARACTER) or "").strip()
        if not chosen:
            own = [row for row in rows if row.owner_id == viewer.member.id] or rows
            if not own:
                raise Refusal(
                    "You have no character at this table: `/rulebound character name:<name>`, "
                    "or ask the game master to give you one on the web table."
                )
            return own[0]
        for row in rows:
            if chosen == str(row.id) or chosen.lower() == row.name.lower():
                return row
        names = ", ".join(row.name for row in rows) or "none"
        raise Refusal(f"No character of yours is called {chosen!r} (yours: {names}).")

    def odds(self, viewer: Viewer, game: GameOptions, given: Mapping[str, Any]) -> Answer:
        row = self.character(viewer, given)
        chances = self.service.chances(viewer, row.id, game.form(given, self.sheets(viewer)))
        embed = embeds.odds_embed(f"{row.name}, {game.game.title}", chances)
        return {"type": MESSAGE, "data": {"embeds": [embed], "flags": embeds.EPHEMERAL}}

    def roll(self, viewer: Viewer, game: GameOptions, given: Mapping[str, Any]) -> Answer:
        row = self.character(viewer, given)
        form = game.form(given, self.sheets(viewer))
        chances = self.service.chances(viewer, row.id, form)
        privacy = str(given.get(PRIVACY) or "public")
        entry = self.service.roll(viewer, row.id, form, privacy)
        return self.posted(viewer, entry, chances)

    def free_roll(self, payload: Payload, given: Mapping[str, Any]) -> Answer:
        viewer = self.viewer(payload)
        expression = parse_dice(str(given.get("dice") or ""), "dice")
        privacy = str(given.get(PRIVACY) or "public")
        entry = self.service.talk(viewer, "/r " + expression.text(), privacy)
        return self.posted(viewer, entry, None)

    def turn(self, payload: Payload, sub: str) -> Answer:
        """``/turn show`` (to the user alone) and ``/turn next`` (to the channel): the same
        tracker as the web table's panel, its moves logged alike."""
        viewer = self.viewer(payload)
        if sub == "next":
            entry = self.service.turn(viewer, "next", {})
            now = lines(self.service.turn_order(viewer))
            return said(f"{entry.summary}\n" + "\n".join(now[1:]), ephemeral=False)
        if sub == "show":
            return said("\n".join(lines(self.service.turn_order(viewer))))
        return said(f"`/turn` has no subcommand {sub!r}: show or next.")

    def posted(self, viewer: Viewer, entry: LogEntry, chances: Chances | None) -> Answer:
        """The message of a new roll, as its privacy allows: a blind roll says only that it
        happened; game-master-only and self rolls answer the roller alone."""
        if entry.privacy == "blind":
            if entry.kind != "roll":
                text = f"{viewer.member.name} made a blind roll: the game master sees the result."
                return said(text, ephemeral=False)
            return {"type": MESSAGE, "data": self.blind(viewer, entry, entry)}
        data = self.message(entry, chances)
        if entry.privacy in ("gm", "self"):
            data["flags"] = embeds.EPHEMERAL
        return {"type": MESSAGE, "data": data}

    def message(
        self, entry: LogEntry, chances: Chances | None, after: Chances | None = None
    ) -> dict[str, Any]:
        card = entry.card or {}
        return {
            "embeds": [embeds.card_embed(card, entry.summary, chances, after)],
            "components": embeds.buttons(entry.id, card.get("actions") or ()),
        }

    def odds_of(self, table: TableRow, entry: LogEntry) -> tuple[Chances | None, Chances | None]:
        """The exact chances the roll of ``entry``'s chain had (from the request it stored, so
        the first embed's), and the odds from where ``entry`` stands when the game has them
        (an extended check under way). None for a free roll or a tool's play."""
        records = [e.record for e in self.service.store.chain(table.id, entry.id)]
        if not records or records[0].get("kind") != ROLL:
            return None, None
        game = self.service.game(table.ruleset).table.game
        chances = game.chances(game.load(params_of(records[0])))
        return chances, game.after_chances(replay(game, records))

    def followed(self, table: TableRow, entry: LogEntry) -> dict[str, Any]:
        """The message of a follow-up's result, with the exact chance like a first roll's."""
        return self.message(entry, *self.odds_of(table, entry))

    # autocomplete

    def autocomplete(self, payload: Payload) -> Answer:
        data = payload.get("data") or {}
        options = data.get("options") or []
        sub = options[0] if options and options[0].get("type") == 1 else {}
        given = sub.get("options") or []
        focused = next((o for o in given if o.get("focused")), None)
        if focused is None:
            return {"type": CHOICES, "data": {"choices": []}}
        typed = str(focused.get("value") or "").lower()
        viewer = self.viewer(payload)
        game = self.game_of(viewer, str(sub.get("name")))
        values = flat(given)
        if focused.get("name") == CHARACTER:
            rows = [row for row in self.service.characters(viewer) if viewer.may_edit(row)]
            pairs = [(row.name, str(row.id)) for row in rows]
        else:
            values.pop(str(focused.get("name")), None)
            pairs = self.field_choices(viewer, game, str(focused.get("name")), values)
        shown = [
            {"name": label[:100], "value": value[:100]}
            for label, value in pairs
            if typed in label.lower() or typed in value.lower()
        ]
        return {"type": CHOICES, "data": {"choices": shown[:25]}}

    def field_choices(
        self, viewer: Viewer, game: GameOptions, name: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """A choice field's choices as the character's roll dialog offers them (its skills)."""
        field = game.field(name)
        if field is None:
            return []
        if field.kind == "sheet":
            return [(row.name, str(row.id)) for row in self.service.characters(viewer)]
        try:
            row = self.character(viewer, given)
            offered = [f for f in game.game.table.dialog(row.sheet) if f.name == field.name]
        except Refusal:
            offered = []
        choices = [c for f in offered for c in f.choices] or list(field.choices)
        return [(c.label, c.value) for c in choices]

    # buttons and select menus

    def component(self, payload: Payload) -> Answer:
        data = payload.get("data") or {}
        parts = str(data.get("custom_id") or "").split(":")
        if len(parts) < 4 or parts[0] != "rb" or not number(parts[2]):
            return said("This button is not one of rulebound's.")
        op, entry_id, action = parts[1], int(parts[2]), parts[3]
        viewer = self.viewer(payload)
        chain = self.service.store.chain(viewer.table.id, entry_id)
        root, leaf = chain[0], chain[-1]
        if not viewer.knows_of(leaf):
            raise Refusal(UNSEEN)  # as for one that does not exist: no hint that it does
        if root.actor_id != viewer.member.id and not viewer.is_gm:
            raise Refusal(NOT_YOURS)
        blind = root.privacy == "blind"
        card = {} if blind else leaf.card or {}
        actions = self.unseen(viewer.table) if blind else card.get("actions") or ()
        offered = {str(a.get("key")): a for a in actions}
        if op == "x":
            if blind:
                return {"type": UPDATE, "data": self.blind(viewer, root, leaf)}
            return self.updated(viewer.table, leaf)
        if op in ("f", "d", "m"):
            # before a menu or a confirmation: the checks the follow-up itself will make
            self.service.open_chain(viewer, leaf.id)
        if op == "k":
            kept = self.service.keep(viewer, leaf.id)
            if blind:
                return {"type": UPDATE, "data": self.blind(viewer, root, kept)}
            words = f"{leaf.summary}\n{kept.summary}"
            embed = embeds.card_embed(card, words, *self.odds_of(viewer.table, leaf))
            return {"type": UPDATE, "data": {"embeds": [embed], "components": []}}
        view = offered.get(action)
        if view is None:
            raise Refusal(f"{action!r} is not a follow-up this result offers now.")
        fields = list(view.get("fields") or ())
        # dice are chosen by looking at them: on a blind roll the rules choose them
        dice_fields = [f for f in fields if f.get("kind") == "dice" and not blind]
        fields = [f for f in fields if f.get("kind") != "dice" or not blind]
        spends = str(view.get("spends") or "")
        if blind and op in ("f", "c", "m"):
            self.sheet_allows(viewer, chain, action)
        if op == "f" and len(dice_fields) < len(fields):
            return modal(leaf.id, action, str(view.get("label") or action), spends, fields)
        if op == "m":
            params = modal_params(fields, data)
            entry = self.service.follow_up(viewer, leaf.id, action, params)
            return self.after(viewer, root, entry)
        if op == "f" and dice_fields:
            rows = embeds.dice_menu(leaf.id, action, card.get("dice") or ())
            return {"type": UPDATE, "data": {"components": rows}}
        chosen = ""
        if op == "d":
            chosen = ".".join(str(int(v)) for v in data.get("values") or () if number(str(v)))
        elif op == "c" and len(parts) > 4:
            chosen = parts[4]
        if op in ("f", "d") and (spends or blind):
            words = f"{view.get('label')}" + (f" (spends {spends})" if spends else "")
            rows = embeds.confirm(leaf.id, action, words + (", blind" if blind else ""), chosen)
            return {"type": UPDATE, "data": {"components": rows}}
        if op not in ("f", "c", "d"):
            return said("This button is not one of rulebound's.")
        params = {}
        if dice_fields:
            picked = [int(i) for i in chosen.split(".") if number(i)]
            params[str(dice_fields[0].get("name"))] = picked
        entry = self.service.follow_up(viewer, leaf.id, action, params)
        return self.after(viewer, root, entry)

    def after(self, viewer: Viewer, root: LogEntry, entry: LogEntry) -> Answer:
        """The message once a follow-up is done: its result, or on a blind roll only that
        it happened."""
        if root.privacy == "blind":
            return {"type": UPDATE, "data": self.blind(viewer, root, entry)}
        return {"type": UPDATE, "data": self.followed(viewer.table, entry)}

    def sheet_allows(self, viewer: Viewer, chain: list[LogEntry], action: str) -> None:
        """Refuse, saying why, an unseen follow-up the character's sheet refuses (no Luck
        Point left): the web service's answer once it acts says only that the hidden result
        does not allow it, yet the sheet's reason tells nothing of the result."""
        try:
            self.service.check_unseen_payment(viewer, chain[-1].id, action)
        except (InvalidInput, RuleViolation) as exc:
            raise Refusal(f"Not done: {exc}") from None

    def unseen(self, table: TableRow) -> list[dict[str, Any]]:
        """The follow-ups a blind roll offers: the same whatever its result (the game's)."""
        views = self.service.game(table.ruleset).table.game.unseen_follow_ups
        return [dict(to_jsonable(view)) for view in views]

    def blind(self, viewer: Viewer, root: LogEntry, leaf: LogEntry) -> dict[str, Any]:
        """A blind roll's message: who rolled and what was done with it, never the result;
        while it is open, the game's unseen follow-ups as buttons (and keep)."""
        who = self.name_of(viewer, root.actor_id)
        if leaf.id == root.id:
            text = f"{who} made a blind roll: the game master sees the result."
            buttons = embeds.buttons(root.id, self.unseen(viewer.table))
            return {"content": text, "components": buttons}
        labels = {str(a.get("key")): str(a.get("label")) for a in self.unseen(viewer.table)}
        kind = str(leaf.record.get("kind") or "")
        done = "kept the result" if leaf.kind == "keep" else labels.get(kind, kind)
        actor = self.name_of(viewer, leaf.actor_id)
        text = f"{who} made a blind roll; {actor}: {done}. The game master sees the result."
        return {"content": text, "components": []}

    def name_of(self, viewer: Viewer, member_id: int | None) -> str:
        if member_id is None or member_id == viewer.member.id:
            return viewer.member.name
        return self.service.store.member(viewer.table.id, member_id).name

    def updated(self, table: TableRow, entry: LogEntry) -> Answer:
        return {"type": UPDATE, "data": self.followed(table, entry)}


def _inputs(
    fields: list[Mapping[str, Any]],
) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The fields that get an input each, and the rest (past Discord's five inputs a form):
    those share the last input, one ``name = value`` a line."""
    if len(fields) <= MAX_INPUTS:
        return fields, []
    return fields[: MAX_INPUTS - 1], fields[MAX_INPUTS - 1 :]


def _shown(field: Mapping[str, Any]) -> str:
    default = field.get("default")
    if default in (None, "", [], ()) or field.get("kind") == "dice":
        return ""
    return ",".join(map(str, default)) if isinstance(default, list) else str(default)


def modal(
    entry_id: int, action: str, label: str, spends: str, fields: list[Mapping[str, Any]]
) -> Answer:
    """A follow-up's inputs as a form (a modal): submitting it is the confirmation, and its
    title says what the follow-up spends. Dice are asked for by their numbers (#1, #2...).
    A follow-up with more inputs than a form holds gets four of them, and one more input
    of several lines for the rest, filled with their names and first values."""
    own, rest = _inputs(fields)
    rows = []
    for field in own:
        dice = field.get("kind") == "dice"
        words = str(field.get("label") or field.get("name"))
        words += " (die numbers, e.g. 1,3)" if dice else ""
        text: dict[str, Any] = {
            "type": 4,
            "custom_id": str(field.get("name"))[:100],
            "label": words[:45],
            "style": 1,
            "required": bool(field.get("required")),
            "max_length": 200,
        }
        if _shown(field):
            text["value"] = _shown(field)[:200]
        rows.append({"type": embeds.ROW, "components": [text]})
    if rest:
        lines = [
            f"{f.get('name')} = {_shown(f)}  # {f.get('label') or f.get('name')}" for f in rest
        ]
        rows.append(
            {
                "type": embeds.ROW,
                "components": [
                    {
                        "type": 4,
                        "custom_id": REST,
                        "label": f"The other {counted(len(rest), 'input')}: one name = "
                        "value a line"[: embeds.MAX_TITLE],
                        "style": 2,
                        "required": False,
                        "max_length": 4000,
                        "value": "\n".join(lines)[:4000],
                    }
                ],
            }
        )
    return {
        "type": MODAL,
        "data": {
            "custom_id": f"rb:m:{entry_id}:{action}"[:100],
            "title": modal_title(label, spends),
            "components": rows,
        },
    }


def modal_title(label: str, spends: str) -> str:
    """A form's title within Discord's 45 characters, its cost whole: "Burn a fate point
    (1 fate point and 10 LCK)"; when even that is too long, the cost first."""
    if not spends:
        return label[: embeds.MAX_TITLE]
    for title in (f"{label}: spends {spends}", f"{label} ({spends})"):
        if len(title) <= embeds.MAX_TITLE:
            return title
    title = f"Spends {spends}: {label}"
    return title if len(title) <= embeds.MAX_TITLE else title[: embeds.MAX_TITLE - 1] + "…"


def _rest_lines(rest: list[Mapping[str, Any]], text: str) -> dict[str, str]:
    """The shared input's ``name = value`` lines (a ``#`` starts a comment), by name."""
    names = [str(f.get("name")) for f in rest]
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, equals, value = line.partition("=")
        if not equals or name.strip() not in names:
            expected = "lines of name = value, the names among " + ", ".join(names)
            raise InvalidInput("the other inputs", line, expected)
        values[name.strip()] = value.strip()
    return values


def modal_params(fields: list[Mapping[str, Any]], data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted modal's values as the follow-up's params (dice numbers made indices)."""
    sent = {
        str(c.get("custom_id")): str(c.get("value") or "")
        for row in data.get("components") or ()
        for c in row.get("components") or ()
    }
    own, rest = _inputs(fields)
    if rest:
        lines = _rest_lines(rest, sent.get(REST, ""))
        sent = {k: v for k, v in sent.items() if k in {str(f.get("name")) for f in own}} | lines
    params: dict[str, Any] = {}
    for field in fields:
        name = str(field.get("name"))
        value = sent.get(name, "").strip()
        if not value:
            continue
        if field.get("kind") == "dice":
            numbers = [part.strip() for part in value.split(",") if part.strip()]
            params[name] = [int(n) - 1 if number(n) else n for n in numbers]
        elif field.get("kind") == "multiselect":
            params[name] = [part.strip() for part in value.split(",") if part.strip()]
        else:
            params[name] = value
    return params


def mount(app: FastAPI, public_key: str, now: Callable[[], float] = time.time) -> None:
    """Add the interactions endpoint (``PATH``) to the web app."""
    verifier = Verifier(public_key)
    handler = Interactions(app.state.service)
    app.state.discord = handler
    router = APIRouter()

    @router.post(PATH, include_in_schema=False)
    async def interactions(request: Request) -> Response:
        body = await request.body()
        signature = request.headers.get(SIGNATURE_HEADER)
        timestamp = request.headers.get(TIMESTAMP_HEADER)
        if not verifier.valid(signature, timestamp, body, now()):
            return JSONResponse({"detail": "invalid request signature"}, status_code=401)
        try:
            payload = json.loads(body)
        except (ValueError, RecursionError):
            return JSONResponse({"detail": "the body is not JSON rulebound reads"}, status_code=400)
        if not isinstance(payload, dict):
            return JSONResponse({"detail": "the body is not a JSON object"}, status_code=400)
        interaction = payload.get("id")
        if not isinstance(interaction, str) or not number(interaction):
            return JSONResponse({"detail": "the interaction has no id"}, status_code=400)
        stamp = int(str(timestamp))
        oldest = int(now()) - MAX_AGE_SECONDS - 1
        if not await run_in_threadpool(handler.store.first_interaction, interaction, stamp, oldest):
            detail = "this interaction was answered before: a replayed request is refused"
            return JSONResponse({"detail": detail}, status_code=409)
        try:
            answer = await run_in_threadpool(handler.handle, payload)
        except (AttributeError, TypeError, KeyError, ValueError):
            # signed, so Discord's, yet not the shape documented: say so rather than fail
            return JSONResponse({"detail": "not an interaction rulebound reads"}, status_code=400)
        return JSONResponse(to_jsonable(answer))

    app.include_router(router)
