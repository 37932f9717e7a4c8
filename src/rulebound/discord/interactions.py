"""Answering Discord's interactions: PING, the commands, autocomplete and the buttons.

Every request's signature is checked on the raw bytes first (``signature``); only then is
the body parsed, and an interaction answered before (its id, kept in the database across
processes: ``Store.first_interaction``) is refused as a replay. Each answer is one JSON
response (Discord waits about three seconds for it). Plays go through the web table's
``TableService`` with a ``Viewer`` for the Discord user's seat, so a Discord roll is a
log entry like any other: the table's committed dice, shown live on the web table,
verified by ``rulebound verify``. A press on a result goes to ``followups``, one on a
sheet to ``sheets``, one of guided creation to ``creation``.

Discord cannot keep a secret of the player's, so each roll's contribution is the one the
server chooses, marked ``server_chosen`` in the log (docs/discord.md, docs/security.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from rulebound.core.canonical import to_jsonable
from rulebound.core.dice import parse as parse_dice
from rulebound.core.errors import InvalidForm, InvalidInput, RuleboundError
from rulebound.discord import creation, embeds, followups, sheets
from rulebound.discord.commands import CHARACTER, PRIVACY, GameOptions, flat, game_options
from rulebound.discord.common import (
    AUTOCOMPLETE,
    CHOICES,
    COMMAND,
    COMPONENT,
    MESSAGE,
    MODAL_SUBMIT,
    PING,
    PONG,
    Answer,
    Payload,
    Refusal,
    choices,
    pick_character,
    said,
)
from rulebound.discord.luck import luck_text
from rulebound.discord.signature import (
    MAX_AGE_SECONDS,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    Verifier,
    number,
)
from rulebound.rulesets.turns import lines
from rulebound.store import CharacterRow, Member, NewEntry, Role, TableRow
from rulebound.web.auth import Viewer
from rulebound.web.caps import MAX_NAME, clean_name
from rulebound.web.service import TableService

__all__ = ["PATH", "Answer", "Interactions", "Payload", "mount"]

PATH = "/discord/interactions"
UNLINKED = (
    "This channel is not linked to a rulebound table. A game master opens one for it with "
    "`/rulebound new`, or links one with "
    "`/rulebound link invite:<the table's game master invite link>`."
)
UNSEATED = "You have no seat at this channel's table: run `/rulebound join` first."
REVOKED = "The game master revoked your seat at this channel's table."
MANAGE_CHANNELS = 1 << 4
"""Discord's permission bit: whoever holds it in a channel may link it to another table."""
NOT_YOUR_CHANNEL = (
    "This channel plays at **{table}**: only its game master (or someone who may manage "
    "this channel) can link it to another table."
)


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
        self.followups = followups.FollowUps(service)
        self.sheet = sheets.SheetCommands(service)
        self.creation = creation.Creation(service, self.sheet)

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
        if name == "sheet" and sub is not None:
            return self.sheet_command(payload, str(sub.get("name")), given)
        if name in ("roll", "odds") and sub is not None:
            viewer = self.viewer(payload)
            game = self.game_of(viewer, str(sub.get("name")))
            try:
                if name == "odds":
                    return self.odds(viewer, game, given)
                return self.roll(viewer, game, given)
            except InvalidInput as exc:
                raise self.tipped(viewer, game, given, exc) from None
        return said(f"rulebound has no command {name!r}.")

    def rulebound(self, payload: Payload, sub: str, given: Mapping[str, Any]) -> Answer:
        user_id, name = user_of(payload)
        if sub == "new":
            return self.new_table(payload, user_id, name, given)
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

    def sheet_command(self, payload: Payload, sub: str, given: Mapping[str, Any]) -> Answer:
        """``/sheet show``, ``set`` and ``create`` (``sheets``, ``creation``)."""
        viewer = self.viewer(payload)
        chosen = str(given.get(CHARACTER) or "")
        if sub == "show":
            return self.sheet.show(viewer, chosen)
        if sub == "set":
            field, value = str(given.get("field") or ""), str(given.get("value") or "")
            return self.sheet.set(viewer, chosen, field, value)
        if sub == "create":
            return self.creation.start(viewer, str(given.get("name") or ""))
        return said(f"`/sheet` has no subcommand {sub!r}: show, set or create.")

    def new_table(
        self, payload: Payload, user_id: str, name: str, given: Mapping[str, Any]
    ) -> Answer:
        """A table opened from Discord, with the game's default variants, and linked to this
        channel as ``link`` links one: no web page is needed to start. Its founder's seat is
        the web table's; the Discord user is seated as its game master on the link."""
        opened = self.service.create_table(
            str(given.get("name") or ""),
            str(given.get("game") or ""),
            {},
            observers=True,
            gm_name=name,
        )
        return self.link(payload, user_id, name, opened.table.gm_token)

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
        return pick_character(self.service, viewer, str(given.get(CHARACTER) or ""))

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
        return self.followups.posted(viewer, entry, chances)

    def tipped(
        self, viewer: Viewer, game: GameOptions, given: Mapping[str, Any], exc: InvalidInput
    ) -> InvalidInput:
        """A refusal naming a field no option of this command has (a box of the web dialog,
        such as the target's trait a trick reads its DL from), with what to type instead:
        the option of the same group, and the values the game suggests for it."""
        if isinstance(exc, InvalidForm) or game.field(exc.field.replace(".", "-")) is not None:
            return exc
        try:
            dialog = game.game.table.dialog(self.character(viewer, given).sheet)
        except Refusal:
            return exc
        named = next((f for f in dialog if f.name == exc.field), None)
        if named is None or not named.group:
            return exc
        for field in game.fields:
            offered = self.suggested(game, field.name, given)
            if field.group == named.group and offered:
                option = field.name.replace(".", "-").lower()
                listed = ", ".join(c.value for c in offered[:12])
                tip = f"on Discord, give it as `{option}:{offered[0].value}` (one of {listed})"
                tip += f"; {named.help}" if named.help else ""
                return InvalidInput(exc.field, exc.value, exc.expected, tip=tip)
        return exc

    def suggested(self, game: GameOptions, name: str, given: Mapping[str, Any]) -> list[Any]:
        values = {f.name: v for n, v in given.items() if (f := game.field(n)) is not None}
        return list(game.game.table.game.suggestions(name, values))

    def free_roll(self, payload: Payload, given: Mapping[str, Any]) -> Answer:
        viewer = self.viewer(payload)
        expression = parse_dice(str(given.get("dice") or ""), "dice")
        privacy = str(given.get(PRIVACY) or "public")
        entry = self.service.talk(viewer, "/r " + expression.text(), privacy)
        return self.followups.posted(viewer, entry, None)

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

    # autocomplete

    def autocomplete(self, payload: Payload) -> Answer:
        data = payload.get("data") or {}
        options = data.get("options") or []
        sub = options[0] if options and options[0].get("type") == 1 else {}
        given = sub.get("options") or []
        focused = next((o for o in given if o.get("focused")), None)
        if focused is None:
            return {"type": CHOICES, "data": {"choices": []}}
        typed = str(focused.get("value") or "")
        viewer = self.viewer(payload)
        values = flat(given)
        name = str(focused.get("name"))
        if name == CHARACTER:
            rows = [row for row in self.service.characters(viewer) if viewer.may_edit(row)]
            return choices([(row.name, str(row.id)) for row in rows], typed)
        if data.get("name") == "sheet":
            chosen = str(values.get(CHARACTER) or "")
            if name == "field":
                return choices(self.sheet.field_choices(viewer, chosen), typed)
            field = str(values.get("field") or "")
            return choices(self.sheet.value_choices(viewer, chosen, field), typed)
        game = self.game_of(viewer, str(sub.get("name")))
        values.pop(name, None)
        return choices(self.field_choices(viewer, game, name, values), typed)

    def field_choices(
        self, viewer: Viewer, game: GameOptions, name: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """A field's choices as the character's roll dialog offers them (its skills), else
        the values the game suggests for it (its levels)."""
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
        found = [c for f in offered for c in f.choices] or list(field.choices)
        found = found or self.suggested(game, field.name, given)
        return [(c.label, c.value) for c in found]

    # buttons, select menus and forms

    def component(self, payload: Payload) -> Answer:
        data = payload.get("data") or {}
        parts = str(data.get("custom_id") or "").split(":")
        if len(parts) < 4 or parts[0] != "rb" or not number(parts[2]):
            return said("This button is not one of rulebound's.")
        viewer = self.viewer(payload)
        if parts[1] in followups.OPS:
            return self.followups.press(viewer, parts, data)
        if parts[1] in sheets.OPS:
            return self.sheet.press(viewer, parts, data)
        if parts[1] in creation.OPS:
            return self.creation.press(viewer, parts, payload)
        return said("This button is not one of rulebound's.")


def mount(app: FastAPI, public_key: str, now: Callable[[], float] = time.time) -> None:
    """Add the interactions endpoint (``PATH``) to the web app."""
    verifier = Verifier(public_key)
    handler = Interactions(app.state.service)
    app.state.discord = handler

    @app.post(PATH, include_in_schema=False)
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
