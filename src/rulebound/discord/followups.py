"""A result's follow-ups as buttons: the message of a result, and every press on it.

A custom id names what a press does, ``rb:OP:ENTRY:ACTION[:DICE]`` (``embeds``): ``f``
press a follow-up (a menu of dice, a form, or a confirmation), ``a`` take it as the rules'
default (the dice the rules would reroll), ``d`` the dice chosen, ``c`` confirm, ``m`` a
form submitted, ``k`` keep, ``x`` cancel. Each goes through the web table's
``TableService``, which checks again that the press is the viewer's to make.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.discord import embeds
from rulebound.discord.common import MESSAGE, UPDATE, Answer, Refusal, said
from rulebound.discord.forms import modal, modal_params
from rulebound.discord.signature import number
from rulebound.rulesets.contract import Chances
from rulebound.rulesets.plays import ROLL, params_of, replay
from rulebound.store import LogEntry, TableRow
from rulebound.web.auth import Viewer
from rulebound.web.service import TableService

NOT_YOURS = "Only the player who rolled, or the game master, can press this."
UNSEEN = "That roll is not one you may see."
OPS = ("f", "a", "d", "c", "m", "k", "x")


class FollowUps:
    def __init__(self, service: TableService) -> None:
        self.service = service

    # a result's message

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
        self,
        entry: LogEntry,
        chances: Chances | None,
        after: Chances | None = None,
        decided: embeds.Decided | None = None,
    ) -> dict[str, Any]:
        card = entry.card or {}
        return {
            "embeds": [embeds.card_embed(card, entry.summary, chances, after, decided)],
            "components": embeds.buttons(entry.id, card.get("actions") or (), card.get("dice")),
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

    def decided(self, table: TableRow, entry: LogEntry) -> embeds.Decided | None:
        """What the follow-up ``entry`` did to its roll's chance of success, as the game says
        (``Game.decision``): the odds after it, beside those of keeping the result."""
        chain = self.service.store.chain(table.id, entry.id)
        records = [e.record for e in chain]
        if entry.kind != "follow-up" or len(chain) < 2 or records[0].get("kind") != ROLL:
            return None
        game = self.service.game(table.ruleset).table.game
        before, after = replay(game, records[:-1]), replay(game, records)
        action = str(records[-1].get("kind"))
        decision = game.decision(before, action, params_of(records[-1]), after)
        if decision is None:
            return None
        offered = (chain[-2].card or {}).get("actions") or ()
        label = next((str(a.get("label")) for a in offered if a.get("key") == action), action)
        success = game.chances(game.load(params_of(records[0]))).success_label
        return embeds.Decided(label, success, decision.before, decision.after)

    def followed(self, table: TableRow, entry: LogEntry) -> dict[str, Any]:
        """The message of a follow-up's result: the chance its roll had, and the chance the
        follow-up gave it."""
        return self.message(entry, *self.odds_of(table, entry), self.decided(table, entry))

    # presses

    def press(self, viewer: Viewer, parts: list[str], data: Mapping[str, Any]) -> Answer:
        op, entry_id, action = parts[1], int(parts[2]), parts[3]
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
            return {"type": UPDATE, "data": self.followed(viewer.table, leaf)}
        if op in ("f", "a", "d", "m"):
            # before a menu or a confirmation: the checks the follow-up itself will make
            self.service.open_chain(viewer, leaf.id)
        if op == "k":
            kept = self.service.keep(viewer, leaf.id)
            if blind:
                return {"type": UPDATE, "data": self.blind(viewer, root, kept)}
            words = f"{leaf.summary}\n{kept.summary}"
            odds = self.odds_of(viewer.table, leaf)
            embed = embeds.card_embed(card, words, *odds, self.decided(viewer.table, leaf))
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
            self.sheet_allows(viewer, leaf, action)
        if op == "f" and len(dice_fields) < len(fields):
            return modal(leaf.id, action, str(view.get("label") or action), spends, fields)
        if op == "m":
            entry = self.service.follow_up(viewer, leaf.id, action, modal_params(fields, data))
            return self.after(viewer, root, entry)
        if op == "f" and dice_fields:
            rows = embeds.dice_menu(leaf.id, action, card.get("dice") or ())
            return {"type": UPDATE, "data": {"components": rows}}
        chosen = ""
        if op == "a" and dice_fields:
            chosen = embeds.default_dice(dice_fields[0])
            if not chosen:
                raise Refusal(f"{view.get('label')}: the rules choose no dice; choose them.")
        elif op == "d":
            chosen = ".".join(str(int(v)) for v in data.get("values") or () if number(str(v)))
        elif op == "c" and len(parts) > 4:
            chosen = parts[4]
        if op in ("f", "a", "d") and (spends or blind):
            words = str(view.get("label"))
            if chosen:
                words += f" {embeds.dice_words(chosen)}"
            words += f" (spends {spends})" if spends else ""
            rows = embeds.confirm(leaf.id, action, words + (", blind" if blind else ""), chosen)
            return {"type": UPDATE, "data": {"components": rows}}
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

    def sheet_allows(self, viewer: Viewer, leaf: LogEntry, action: str) -> None:
        """Refuse, saying why, an unseen follow-up the character's sheet refuses (no Luck
        Point left): the web service's answer once it acts says only that the hidden result
        does not allow it, yet the sheet's reason tells nothing of the result."""
        try:
            self.service.check_unseen_payment(viewer, leaf.id, action)
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
