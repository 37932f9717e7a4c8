"""Answering Discord's interactions: PING, the commands, autocomplete and the buttons.

Every request's signature is checked on the raw bytes first (``signature``); only then is
the body parsed. Each answer is one JSON response (Discord waits about three seconds for
it). Plays go through the web table's ``TableService`` with a ``Viewer`` for the Discord
user's seat, so a Discord roll is a log entry like any other: the table's committed dice,
shown live on the web table, verified by ``rulebound verify``.

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
from rulebound.core.dice_expr import parse as parse_dice
from rulebound.core.errors import RuleboundError
from rulebound.discord import embeds
from rulebound.discord.commands import CHARACTER, PRIVACY, GameOptions, flat, game_options
from rulebound.discord.links import Links
from rulebound.discord.signature import SIGNATURE_HEADER, TIMESTAMP_HEADER, Verifier, number
from rulebound.rulesets.contract import Chances
from rulebound.store import CharacterRow, LogEntry, TableRow
from rulebound.web.auth import Viewer
from rulebound.web.service import TableService

PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, MESSAGE, UPDATE, CHOICES, MODAL = 1, 4, 7, 8, 9
MAX_INPUTS = 5
"""Discord's cap on a modal's inputs: a follow-up that takes more is the web table's."""
PATH = "/discord/interactions"
UNLINKED = (
    "This channel is not linked to a rulebound table. A game master links it with "
    "`/rulebound link invite:<the table's game master invite link>`."
)
UNSEATED = "You have no seat at this channel's table: run `/rulebound join` first."
REVOKED = "The game master revoked your seat at this channel's table."
NOT_YOURS = "Only the player who rolled, or the game master, can press this."

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
    name = member.get("nick") or user.get("global_name") or user.get("username") or user_id
    return user_id, str(name)[:100]


class Interactions:
    def __init__(self, service: TableService, links: Links) -> None:
        self.service = service
        self.links = links
        self.options = game_options(service.games)

    # the parts every answer needs

    def table(self, payload: Payload) -> TableRow:
        table = self.links.table(str(payload.get("channel_id") or ""))
        if table is None:
            raise Refusal(UNLINKED)
        return table

    def viewer(self, payload: Payload) -> Viewer:
        table = self.table(payload)
        user_id, _ = user_of(payload)
        member = self.links.member(table.id, user_id)
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
            member = self.links.member(table.id, user_id)
            if member is not None:
                return said(f"You already have a seat at {table.name}, as {member.name}.")
            seated = self.links.seat(table.id, user_id, "player", name)
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
        member = self.links.member(table.id, user_id)
        if member is None or member.role != "gm":
            member = self.links.seat(table.id, user_id, "gm", name)
        guild = payload.get("guild_id")
        self.links.link(
            str(payload.get("channel_id") or ""), guild and str(guild), table.id, member.id
        )
        title = self.service.game(table.ruleset).title
        return said(
            f"This channel now plays at **{table.name}** ({title}), with {member.name} as "
            "game master. Players: `/rulebound join`, then `/roll`.",
            ephemeral=False,
        )

    def game_of(self, viewer: Viewer, sub: str) -> GameOptions:
        key = viewer.table.ruleset
        if sub != key or key not in self.options:
            title = self.service.game(key).title
            raise Refusal(f"This channel's table plays {title}: use `/roll {key}`.")
        return self.options[key]

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
        chances = self.service.chances(viewer, row.id, game.form(given))
        embed = embeds.odds_embed(f"{row.name}, {game.game.title}", chances)
        return {"type": MESSAGE, "data": {"embeds": [embed], "flags": embeds.EPHEMERAL}}

    def roll(self, viewer: Viewer, game: GameOptions, given: Mapping[str, Any]) -> Answer:
        row = self.character(viewer, given)
        form = game.form(given)
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

    def posted(self, viewer: Viewer, entry: LogEntry, chances: Chances | None) -> Answer:
        """The message of a new roll, as its privacy allows: a blind roll says only that it
        happened; game-master-only and self rolls answer the roller alone."""
        if entry.privacy == "blind":
            text = f"{viewer.member.name} made a blind roll: the game master sees the result."
            return said(text, ephemeral=False)
        data = self.message(entry, chances)
        if entry.privacy in ("gm", "self"):
            data["flags"] = embeds.EPHEMERAL
        return {"type": MESSAGE, "data": data}

    def message(self, entry: LogEntry, chances: Chances | None) -> dict[str, Any]:
        card = entry.card or {}
        return {
            "embeds": [embeds.card_embed(card, entry.summary, chances)],
            "components": embeds.buttons(entry.id, card.get("actions") or ()),
        }

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
        if root.actor_id != viewer.member.id and not viewer.is_gm:
            raise Refusal(NOT_YOURS)
        card = leaf.card or {}
        offered = {str(a.get("key")): a for a in card.get("actions") or ()}
        if op == "x":
            return self.updated(leaf)
        if op in ("f", "d", "m"):
            # before a menu or a confirmation: the checks the follow-up itself will make
            self.service._open_chain(viewer, root, leaf)
        if op == "k":
            kept = self.service.keep(viewer, leaf.id)
            embed = embeds.card_embed(card, f"{leaf.summary}\n{kept.summary}")
            return {"type": UPDATE, "data": {"embeds": [embed], "components": []}}
        view = offered.get(action)
        if view is None:
            raise Refusal(f"{action!r} is not a follow-up this result offers now.")
        fields = list(view.get("fields") or ())
        dice_fields = [f for f in fields if f.get("kind") == "dice"]
        spends = str(view.get("spends") or "")
        if op == "f" and len(dice_fields) < len(fields):
            return modal(leaf.id, action, str(view.get("label") or action), spends, fields)
        if op == "m":
            params = modal_params(fields, data)
            entry = self.service.follow_up(viewer, leaf.id, action, params)
            return {"type": UPDATE, "data": self.message(entry, None)}
        if op == "f" and dice_fields:
            rows = embeds.dice_menu(leaf.id, action, card.get("dice") or ())
            return {"type": UPDATE, "data": {"components": rows}}
        chosen = ""
        if op == "d":
            chosen = ".".join(str(int(v)) for v in data.get("values") or () if number(str(v)))
        elif op == "c" and len(parts) > 4:
            chosen = parts[4]
        if op in ("f", "d") and spends:
            words = f"{view.get('label')} (spends {spends})"
            rows = embeds.confirm(leaf.id, action, words, chosen)
            return {"type": UPDATE, "data": {"components": rows}}
        if op not in ("f", "c", "d"):
            return said("This button is not one of rulebound's.")
        params = {}
        if dice_fields:
            picked = [int(i) for i in chosen.split(".") if number(i)]
            params[str(dice_fields[0].get("name"))] = picked
        entry = self.service.follow_up(viewer, leaf.id, action, params)
        return {"type": UPDATE, "data": self.message(entry, None)}

    def updated(self, entry: LogEntry) -> Answer:
        return {"type": UPDATE, "data": self.message(entry, None)}


def modal(
    entry_id: int, action: str, label: str, spends: str, fields: list[Mapping[str, Any]]
) -> Answer:
    """A follow-up's inputs as a form (a modal): submitting it is the confirmation, and its
    title says what the follow-up spends. Dice are asked for by their numbers (#1, #2...)."""
    if len(fields) > MAX_INPUTS:
        raise Refusal(
            f"{label} takes {len(fields)} inputs, more than Discord's form holds: "
            "follow it up on the web table."
        )
    rows = []
    for field in fields:
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
        default = field.get("default")
        if default not in (None, "", [], ()) and not dice:
            shown = ",".join(map(str, default)) if isinstance(default, list) else str(default)
            text["value"] = shown[:200]
        rows.append({"type": embeds.ROW, "components": [text]})
    title = f"{label}: spends {spends}" if spends else label
    return {
        "type": MODAL,
        "data": {
            "custom_id": f"rb:m:{entry_id}:{action}"[:100],
            "title": title[:45],
            "components": rows,
        },
    }


def modal_params(fields: list[Mapping[str, Any]], data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted modal's values as the follow-up's params (dice numbers made indices)."""
    sent = {
        str(c.get("custom_id")): str(c.get("value") or "")
        for row in data.get("components") or ()
        for c in row.get("components") or ()
    }
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
    store = app.state.store
    handler = Interactions(app.state.service, Links(store, store.engine))
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
        except ValueError:
            return JSONResponse({"detail": "the body is not JSON"}, status_code=400)
        if not isinstance(payload, dict):
            return JSONResponse({"detail": "the body is not a JSON object"}, status_code=400)
        try:
            answer = await run_in_threadpool(handler.handle, payload)
        except (AttributeError, TypeError, KeyError, ValueError):
            # signed, so Discord's, yet not the shape documented: say so rather than fail
            return JSONResponse({"detail": "not an interaction rulebound reads"}, status_code=400)
        return JSONResponse(to_jsonable(answer))

    app.include_router(router)
