"""Everything a table can do, once: the JSON API and the HTML pages both call this.

It checks permissions, asks the ruleset's ``TableRules`` adapter for the play,
and has the store commit the log entry with the sheet change it causes. It
never looks at which ruleset it is driving.

Plays that draw dice go through ``_logged_play``: by default the store hands
the play the table's committed seed and the roller's own contribution (or one it
chooses, marked so, when the roller sent none) inside the transaction that logs
it, so every logged die can be recomputed after a reveal.

Characters are read as the viewer sees them (``Store.character`` with the viewer's
scope): a play is computed from that sheet, and its change lands on the stored one
(``SheetChange.of``), so hidden plays never show on the sheets of those who may not
see them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial, wraps
from typing import Any, Concatenate, ParamSpec

from rulebound.core.dice import odds as dice_odds
from rulebound.core.dice import parse as parse_dice
from rulebound.core.dice import parse_inline
from rulebound.core.errors import InvalidInput, RuleViolation, UnknownRuleset
from rulebound.core.random_source import RandomSource
from rulebound.core.verifiable import CONTRIBUTION_PATTERN, DIGEST_PATTERN
from rulebound.rulesets import turns
from rulebound.rulesets.contract import Chances, Play, TablePlay
from rulebound.rulesets.free_roll import inline_play
from rulebound.rulesets.views import card_json
from rulebound.store import (
    PRIVACY_MODES,
    CharacterRow,
    Conflict,
    Contribution,
    EntryOutline,
    LogEntry,
    Member,
    NewEntry,
    NotFound,
    Privacy,
    Scope,
    SheetChange,
    Staged,
    Stale,
    StillOpen,
    Store,
    Stored,
    TableRow,
)
from rulebound.web.auth import Forbidden, Viewer
from rulebound.web.caps import check_caps, check_sheet, clean_name, shown
from rulebound.web.play import VOIDS, free_roll, superseded, voided
from rulebound.web.settings import SourceFactory, TableGame, system_source
from rulebound.web.views import HIDDEN

MAX_TABLE_NAME = 200
MAX_TALK = 500
EMOTE = "/me "
TURN_PAGE = 200
"""Turn entries read at a time, newest first, back to the latest start of an order."""
LATER = 500
"""Entries read after a chain's root to tell whether it is still open."""
CONTRIBUTION = re.compile(CONTRIBUTION_PATTERN)
COMMITMENT = re.compile(DIGEST_PATTERN)


def contribution_of(value: object, commitment: object) -> Contribution | None:
    """The roller's part of a play's dice, as sent (None: the roller sent none)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not CONTRIBUTION.fullmatch(value):
        expected = "32 to 64 lowercase hex digits, fresh random for this roll"
        raise InvalidInput("contribution", shown(value), expected)
    if not isinstance(commitment, str) or not COMMITMENT.fullmatch(commitment):
        expected = "the commitment shown when the contribution was made (64 hex digits)"
        raise InvalidInput("commitment", shown(commitment), expected)
    return Contribution(value, commitment)


PLAY_MODES = tuple(mode for mode in PRIVACY_MODES if mode != "whisper")
"""Who may see a play: a whisper is table talk, sent to one member (``TableService.talk``)."""


def privacy_of(value: object, modes: tuple[Privacy, ...] = PLAY_MODES) -> Privacy:
    for mode in modes:
        if value == mode:
            return mode
    expected = "one of " + ", ".join(modes)
    if value == "whisper":
        expected += " (a whisper is table talk: say it with the member it is for)"
    raise InvalidInput("privacy", value, expected)


def capped(form: Mapping[str, Any]) -> Mapping[str, Any]:
    """Every form passes here on its way to the rules, so its values are held to the caps."""
    check_caps(form)
    return form


P = ParamSpec("P")


def fresh_on_stale(
    play: Callable[Concatenate[TableService, Viewer, P], LogEntry],
) -> Callable[Concatenate[TableService, Viewer, P], LogEntry]:
    """The play, made once more from fresh sheets if the sheets it read had changed by the
    time it was written (another process changed one, unheard): a play is never logged
    from an old sheet, and the player need not try again."""

    @wraps(play)
    def fresh(
        service: TableService, viewer: Viewer, /, *args: P.args, **kwargs: P.kwargs
    ) -> LogEntry:
        try:
            return play(service, viewer, *args, **kwargs)
        except Stale:
            service.store.forget(viewer.table.id, ("characters",))
            return play(service, viewer, *args, **kwargs)

    return fresh


@dataclass(frozen=True, slots=True)
class Seat:
    """A new member and the session token to hand them once."""

    table: TableRow
    member: Member
    session: str


class TableService:
    def __init__(
        self, store: Store, games: Mapping[str, TableGame], source: SourceFactory | None
    ) -> None:
        self.store = store
        self.games = games
        self.committed = source is None
        """Logged plays draw from the table's committed seed; ``source`` then serves only
        draws that are never logged (guided creation's)."""
        self.source = source or system_source

    def game(self, key: str) -> TableGame:
        try:
            return self.games[key]
        except KeyError:
            expected = "a ruleset the table supports: " + ", ".join(sorted(self.games))
            raise UnknownRuleset("ruleset", key, expected) from None

    # tables and members

    def create_table(
        self,
        name: str,
        ruleset: str,
        variants: Mapping[str, str],
        *,
        observers: bool,
        gm_name: str,
    ) -> Seat:
        title, gm = clean_name("name", name, MAX_TABLE_NAME), clean_name("gm_name", gm_name)
        chosen = self.variants(self.game(ruleset), variants)
        summary = f"{gm} opened the table as game master"
        table, member, session = self.store.create_table(
            title, ruleset, chosen, observers=observers, founder=gm, summary=summary
        )
        return Seat(table, member, session)

    def variants(self, game: TableGame, given: Mapping[str, str]) -> dict[str, str]:
        return game.table.variants(given)

    def join(self, token: str, name: str) -> Seat:
        table, role = self.store.table_by_token(token)
        words = {"gm": "game master", "player": "player", "observer": "observer"}[role]
        who = clean_name("name", name)
        member, session = self.store.add_member(table.id, role, who, f"{who} joined as {words}")
        return Seat(table, member, session)

    def rotate(self, viewer: Viewer, role: Any, *, disable: bool) -> TableRow:
        self.require_gm(viewer)
        return self.store.rotate_token(viewer.table.id, role, disable=disable)

    def update_member(
        self, viewer: Viewer, member_id: int, *, revoked: bool | None, grant_all: bool | None
    ) -> Member:
        """Revoke or restore a seat, or let a player play any character (the game master).
        Revoking replaces the seat's invite link too; the table's creator keeps their seat."""
        self.require_gm(viewer)
        if member_id == viewer.member.id and revoked:
            raise RuleViolation("revoke", "a game master cannot revoke their own seat")
        seated = self.store.members(viewer.table.id)
        member = next((m for m in seated if m.id == member_id), None)
        if member is None:
            raise NotFound("member", member_id)
        if revoked and member.id == seated[0].id:
            raise RuleViolation("revoke", "the seat of the table's creator cannot be revoked")
        if grant_all and member.role == "observer":
            raise InvalidInput("grant_all", grant_all, "false for an observer, who plays nothing")
        changes = []
        if revoked is not None:
            changes.append("revoked" if revoked else "restored")
        if grant_all is not None:
            changes.append("may play any character" if grant_all else "plays own characters")
        entry = None
        if changes:
            summary = f"{viewer.member.name}: {member.name} " + ", ".join(changes)
            entry = NewEntry(viewer.table.id, "member", "public", viewer.member.id, summary)
        return self.store.update_member(
            viewer.table.id, member_id, revoked=revoked, grant_all=grant_all, entry=entry
        )

    def set_owner(self, viewer: Viewer, character_id: int, owner_id: int | None) -> CharacterRow:
        self.require_gm(viewer)
        players = {m.id for m in self.members(viewer) if m.role != "observer" and not m.revoked}
        if owner_id is not None and owner_id not in players:
            expected = "a player or game master seated at this table (not revoked)"
            raise InvalidInput("owner_id", owner_id, expected)
        return self.store.set_owner(viewer.table.id, character_id, owner_id)

    def members(self, viewer: Viewer) -> list[Member]:
        return self.store.members(viewer.table.id)

    @staticmethod
    def require_gm(viewer: Viewer) -> None:
        if not viewer.is_gm:
            raise Forbidden("only the game master can do that")

    # characters

    def character(self, viewer: Viewer, character_id: int) -> CharacterRow:
        """The character as ``viewer`` sees it (without the changes hidden from them)."""
        return self.store.character(viewer.table.id, character_id, viewer.scope)

    def characters(self, viewer: Viewer) -> list[CharacterRow]:
        return self.store.characters(viewer.table.id, viewer.scope)

    def editable(self, viewer: Viewer, character_id: int, *, shared: bool = False) -> CharacterRow:
        """``shared``: the caller only reads the row (``Store.character``)."""
        row = self.store.character(viewer.table.id, character_id, viewer.scope, shared=shared)
        if not viewer.may_edit(row):
            raise Forbidden("you may only act for your own characters")
        return row

    def new_character(
        self,
        viewer: Viewer,
        name: str | None,
        sheet: Mapping[str, Any] | None = None,
        *,
        nonce: str | None = None,
    ) -> CharacterRow:
        if viewer.member.role == "observer":
            raise Forbidden("observers watch the table; they cannot act")
        rules = self.game(viewer.table.ruleset).table
        if sheet is not None:
            check_sheet(sheet)
        made = (
            rules.validate_sheet(sheet)
            if sheet is not None
            else rules.new_sheet(clean_name("name", name))
        )
        check_sheet(made)
        summary = f"{viewer.member.name} created {str(made.get('name') or 'Unnamed')[:200]}"
        return self.store.create_character(
            viewer.table.id, viewer.member.id, made, summary, nonce=nonce
        )

    def edit_sheet(
        self, viewer: Viewer, character_id: int, form: Mapping[str, Any], version: int | None
    ) -> CharacterRow:
        row = self._current(viewer, character_id, version)
        check_caps(form)
        sheet = self.game(viewer.table.ruleset).table.apply_sheet_form(row.sheet, form)
        if sheet == row.sheet:
            return row  # nothing changed: nothing to log, and the version stands
        return self._save(viewer, row, sheet, "edited")

    def replace_sheet(
        self, viewer: Viewer, character_id: int, sheet: Mapping[str, Any], version: int | None
    ) -> CharacterRow:
        row = self._current(viewer, character_id, version)
        check_sheet(sheet)
        valid = self.game(viewer.table.ruleset).table.validate_sheet(sheet)
        return self._save(viewer, row, valid, "imported a sheet for")

    def _current(self, viewer: Viewer, character_id: int, version: int | None) -> CharacterRow:
        row = self.editable(viewer, character_id)
        if version is not None and version != row.version:
            raise Conflict("character", f"the sheet is at version {row.version}, not {version}")
        return row

    def _save(
        self, viewer: Viewer, row: CharacterRow, sheet: dict[str, Any], verb: str
    ) -> CharacterRow:
        check_sheet(sheet)
        summary = f"{viewer.member.name} {verb} {row.name}"
        entry = NewEntry(viewer.table.id, "sheet", "public", viewer.member.id, summary, row.id)
        self.store.append(entry, [SheetChange.of(row, sheet)])
        return self.character(viewer, row.id)

    # rolls and follow-ups

    def chances(self, viewer: Viewer, character_id: int, form: Mapping[str, Any]) -> Chances:
        row = self.character(viewer, character_id)
        rules = self.game(viewer.table.ruleset).table
        return rules.chances(row.sheet, capped(form), viewer.table.variants)

    def roll(
        self,
        viewer: Viewer,
        character_id: int,
        form: Mapping[str, Any],
        privacy: object,
        contribution: Contribution | None = None,
    ) -> LogEntry:
        return self._sheet_play(viewer, character_id, form, privacy, contribution)

    def sheet_act(
        self,
        viewer: Viewer,
        character_id: int,
        action: str,
        params: Mapping[str, Any],
        privacy: object,
        contribution: Contribution | None = None,
    ) -> LogEntry:
        return self._sheet_play(viewer, character_id, params, privacy, contribution, action)

    @fresh_on_stale
    def _sheet_play(
        self,
        viewer: Viewer,
        character_id: int,
        form: Mapping[str, Any],
        privacy: object,
        contribution: Contribution | None,
        action: str | None = None,
    ) -> LogEntry:
        """A roll (no ``action``) or a sheet action, by a character the viewer may play."""
        mode = privacy_of(privacy)
        row = self.editable(viewer, character_id)
        rules = self.game(viewer.table.ruleset).table
        form, variants = capped(form), viewer.table.variants

        def stage(source: RandomSource) -> Staged:
            if action is None:
                play = rules.roll(row.sheet, form, variants, source)
                return self._staged(viewer, "roll", mode, row, play)
            play = rules.sheet_act(row.sheet, action, form, variants, source)
            return self._staged(viewer, "sheet-action", mode, row, play)

        return self._logged_play(viewer, stage, contribution)

    @fresh_on_stale
    def follow_up(
        self,
        viewer: Viewer,
        entry_id: int,
        action: str,
        params: Mapping[str, Any],
        contribution: Contribution | None = None,
    ) -> LogEntry:
        chain = self._known_chain(viewer, entry_id)
        root, leaf = chain[0], chain[-1]
        if not viewer.sees_fully(leaf) and root.actor_id != viewer.member.id:
            # its roller may still push or spend on a blind roll, unseen (it stays blind)
            raise Forbidden("a blind roll's result is the game master's to follow up")
        row, still_open = self._open_chain(viewer, root, leaf)
        rules = self.game(viewer.table.ruleset).table
        records = [entry.record for entry in chain]
        sheet = {} if row is None else row.sheet
        params, variants = capped(params), viewer.table.variants

        unseen = not viewer.sees_fully(leaf)

        def stage(source: RandomSource) -> Staged:
            try:
                play = rules.act(sheet, records, action, params, variants, source, unseen=unseen)
            except (InvalidInput, RuleViolation):
                if not unseen:
                    raise
                # why the rules refuse it would tell of the result: say only that they do
                raise RuleViolation("follow-up", "the hidden result does not allow it") from None
            if row is None:
                staged = self._staged_unowned(viewer, root.privacy, play, leaf.id)
            else:
                staged = self._staged(viewer, "follow-up", root.privacy, row, play, leaf.id)
            return replace(staged, still_open=still_open)

        return self._logged_play(viewer, stage, contribution)

    def _known_chain(self, viewer: Viewer, entry_id: int) -> list[LogEntry]:
        """``entry_id``'s chain, root first; one the viewer may not know of is answered as a
        missing one is, so that no answer hints that it exists."""
        chain = self.store.chain(viewer.table.id, entry_id)
        if not viewer.knows_of(chain[-1]):
            raise NotFound("log entry", entry_id)
        return chain

    def open_chain(self, viewer: Viewer, entry_id: int) -> LogEntry:
        """The latest entry of ``entry_id``'s chain, once the viewer may still follow it up or
        keep it (else the error ``follow_up`` would raise). A front end that asks before it
        acts (a menu of dice, a confirmation) checks this first; nothing is written."""
        chain = self._known_chain(viewer, entry_id)
        if not viewer.sees_fully(chain[-1]) and chain[0].actor_id != viewer.member.id:
            raise Forbidden("a blind roll's result is the game master's to follow up")
        self._open_chain(viewer, chain[0], chain[-1])
        return chain[-1]

    def check_unseen_payment(self, viewer: Viewer, entry_id: int, action: str) -> None:
        """For a front end that asks before it acts on a blind roll: once the chain is open,
        refuse with the sheet's own reason a follow-up the character's sheet cannot pay for
        (``TableRules.check_unseen_payment``); nothing is written."""
        chain = self.store.chain(viewer.table.id, entry_id)
        self.open_chain(viewer, entry_id)
        root = chain[0]
        if root.character_id is None:
            return
        sheet = self.store.character(viewer.table.id, root.character_id).sheet
        rules = self.game(viewer.table.ruleset).table
        rules.check_unseen_payment(sheet, [entry.record for entry in chain], action)

    def _open_chain(
        self, viewer: Viewer, root: LogEntry, leaf: LogEntry
    ) -> tuple[CharacterRow | None, StillOpen]:
        """The character a chain's next step acts for, once the chain is still open (not
        followed up, kept, voided, closed with its scene, or superseded by the character's
        next roll), and that check, for the append to make again under the table's lock."""
        if leaf.card is None or not root.record:
            raise RuleViolation("follow-up", "this entry has nothing to follow up")
        if root.character_id is None:
            self.require_gm(viewer)
        row = None if root.character_id is None else self.editable(viewer, root.character_id)
        return row, self._still_open(viewer, root, partial(_refuse_closed, root, leaf))

    def _still_open(
        self,
        viewer: Viewer,
        root: LogEntry,
        check: Callable[[Sequence[EntryOutline]], None],
        kinds: tuple[str, ...] = VOIDS,
    ) -> StillOpen:
        """``check`` run on the entries after ``root`` that ``viewer`` may know of now (the
        records of ``kinds`` read), and kept to run on those logged after them when the
        append is written. A roll hidden from the viewer closes nothing for them: a refusal
        would tell them that it exists."""
        scope = Scope(viewer.member.id, viewer.is_gm)
        later = self._later(viewer.table.id, root, kinds, scope)
        check(later)
        return StillOpen(later[-1].seq if later else root.seq, check, kinds, scope)

    def _later(
        self, table_id: int, root: LogEntry, kinds: tuple[str, ...], scope: Scope
    ) -> list[EntryOutline]:
        """The entries after a chain's root that may close it: what follows it up, a newer
        roll, a void (its record names what it voids), a scene's end."""
        return self.store.outlines(table_id, scope, after=root.seq, limit=LATER, kinds=kinds)

    def close_scene(self, viewer: Viewer) -> LogEntry:
        """End the scene (the game master): every result's open follow-ups close."""
        self.require_gm(viewer)
        summary = f"{viewer.member.name} closed the scene"
        return self.store.append(
            NewEntry(viewer.table.id, "scene", "public", viewer.member.id, summary)
        )

    def void(self, viewer: Viewer, entry_id: int) -> LogEntry:
        """Void a roll and its follow-ups (the game master): a new entry that marks them so;
        nothing is deleted, and a voided roll takes no more follow-ups."""
        self.require_gm(viewer)
        chain = self._known_chain(viewer, entry_id)
        root, leaf = chain[0], chain[-1]
        if leaf.card is None or root.kind == turns.KIND:
            raise RuleViolation("void", "only a roll or another play with a result is voided")
        still_open = self._still_open(viewer, root, partial(_refuse_voided, root))
        summary = f"{viewer.member.name} voided: {leaf.summary}"
        record = {"voids": [entry.id for entry in chain]}
        entry = NewEntry(
            viewer.table.id,
            "void",
            root.privacy,
            viewer.member.id,
            summary,
            root.character_id,
            None,
            record,
        )
        return self.store.append(entry, still_open=still_open)

    def keep(self, viewer: Viewer, entry_id: int) -> LogEntry:
        """Keep a result as it stands (a new entry): its follow-ups close, nothing is spent."""
        chain = self._known_chain(viewer, entry_id)
        root, leaf = chain[0], chain[-1]
        if not viewer.sees_fully(leaf) and root.actor_id != viewer.member.id:
            raise Forbidden("a blind roll's result is the game master's to keep")
        row, still_open = self._open_chain(viewer, root, leaf)
        who = f"{row.name}: " if row is not None else ""
        summary = f"{who}{viewer.member.name} kept the result"
        entry = NewEntry(
            viewer.table.id,
            "keep",
            root.privacy,
            viewer.member.id,
            summary,
            root.character_id,
            leaf.id,
        )
        return self.store.append(entry, still_open=still_open)

    def reveal(self, viewer: Viewer, entry_id: int) -> LogEntry:
        """Show a blind or GM-only result to the whole table (the game master): a new public
        entry with the result as it stands; the hidden entries themselves stay as logged, and
        from its commit every viewer's sheets show their changes (the store indexes the
        entries a reveal names, ``revealed_entries``)."""
        self.require_gm(viewer)
        chain = self._known_chain(viewer, entry_id)
        root, leaf = chain[0], chain[-1]
        if not viewer.sees_fully(leaf) or root.privacy not in HIDDEN:
            raise RuleViolation("reveal", "only a blind or game-master-only result is revealed")
        if leaf.card is None:
            raise RuleViolation("reveal", "this entry has no result to reveal")
        check = partial(_refuse_revealed, leaf)
        still_open = self._still_open(viewer, root, check, ("reveal",))
        summary = f"{viewer.member.name} revealed: {leaf.summary}"
        record = {"reveals": [entry.id for entry in chain], "rolled_by": root.actor_id}
        entry = NewEntry(
            viewer.table.id,
            "reveal",
            "public",
            viewer.member.id,
            summary,
            root.character_id,
            None,
            record,
            {**leaf.card, "actions": []},
        )
        return self.store.append(entry, still_open=still_open)

    def talk(
        self,
        viewer: Viewer,
        text: str,
        privacy: object,
        contribution: Contribution | None = None,
        *,
        to: int | None = None,
    ) -> LogEntry:
        """Table talk: a short message; "/me ducks" (an emote: "Pia ducks"); "/r 2d6+3" rolled
        with the table's dice (a free roll needs no sheet, so the game master rolls for an
        NPC with it); inline "[[1d20+3]]" rolls in a message. ``to``: a whisper to that
        member, which only they, the sender and the game masters ever see."""
        mode = privacy_of(privacy, PRIVACY_MODES)
        if to is not None or mode == "whisper":
            mode, addressee = "whisper", self._addressee(viewer, to, mode)
        try:
            words = clean_name("text", text, MAX_TALK)
        except InvalidInput as exc:
            raise InvalidInput("text", exc.value, exc.expected.replace("name", "message")) from None
        addressed: dict[str, Any] = {} if mode != "whisper" else {"to": addressee}
        if words[:3].lower() == "/r ":
            expression = parse_dice(words[3:], "text")
            found = dice_odds(expression)  # bounded, and worked out before the dice are drawn

            def stage(source: RandomSource) -> Staged:
                play = free_roll(expression, source, found)
                return Staged(_entry(viewer, "free-roll", mode, play, addressed=addressed))

            return self._logged_play(viewer, stage, contribution)
        emote = words[: len(EMOTE)].lower() == EMOTE
        if emote:
            words = clean_name("text", words[len(EMOTE) :], MAX_TALK)
            addressed["emote"] = True
        message = parse_inline(words, "text")
        if message is not None:  # "Opening the door [[1d20+3]]": its rolls are logged plays

            def say(source: RandomSource) -> Staged:
                play = inline_play(message, source, viewer.member.name)
                if emote:  # "Pia swings [1d20+3 = 17]", an action line
                    said = play.summary.removeprefix(f"{viewer.member.name}: ")
                    play = replace(play, summary=f"{viewer.member.name} {said}")
                return Staged(_entry(viewer, "free-roll", mode, play, addressed=addressed))

            return self._logged_play(viewer, say, contribution)
        if mode == "blind":  # it keeps a result from its roller: a message has none
            raise InvalidInput(
                "privacy", mode, "public, gm, self or a whisper for a message (blind is for rolls)"
            )
        summary = f"{viewer.member.name}{' ' if emote else ': '}{words}"
        return self.store.append(
            NewEntry(
                viewer.table.id,
                "talk",
                mode,
                viewer.member.id,
                summary,
                record=addressed,
                to_id=addressed.get("to"),
            )
        )

    def _addressee(self, viewer: Viewer, to: int | None, mode: Privacy) -> int:
        """The member a whisper is for: another seated member of this table."""
        if mode not in ("public", "whisper"):
            raise InvalidInput("privacy", mode, "public or whisper with to (a whisper's own)")
        seated = {m.id: m for m in self.store.members(viewer.table.id) if not m.revoked}
        if to is None or isinstance(to, bool) or to not in seated or to == viewer.member.id:
            raise InvalidInput("to", to, "the id of another member seated at this table")
        return to

    def _logged_play(
        self,
        viewer: Viewer,
        stage: Callable[[RandomSource], Staged],
        contribution: Contribution | None,
    ) -> LogEntry:
        """Compute a play from dice and log it: with the table's committed seed and the
        roller's contribution (the default), drawn and logged in one transaction; else with
        the injected source."""
        if not self.committed:
            staged = stage(self.source(viewer.table.id))
            return self.store.append(
                staged.entry, staged.changes, read=staged.read, still_open=staged.still_open
            )
        return self.store.append_drawn(
            viewer.table.id, lambda dice: stage(dice.source()), contribution
        )

    def _staged_unowned(self, viewer: Viewer, privacy: Privacy, play: Play, parent: int) -> Staged:
        """A follow-up of a game-master tool (an extended check's next turn): no sheet to change."""
        if play.sheet is not None:
            raise RuleViolation("follow-up", "a game-master tool's follow-up changes no sheet")
        return Staged(_entry(viewer, "follow-up", privacy, play, parent=parent))

    @fresh_on_stale
    def table_act(
        self,
        viewer: Viewer,
        action: str,
        params: Mapping[str, Any],
        privacy: object,
        contribution: Contribution | None = None,
    ) -> LogEntry:
        mode = privacy_of(privacy)
        self.require_gm(viewer)
        rows = {str(row.id): row for row in self.characters(viewer)}
        rules = self.game(viewer.table.ruleset).table
        sheets = {key: row.sheet for key, row in rows.items()}
        params, variants = capped(params), viewer.table.variants

        def stage(source: RandomSource) -> Staged:
            play: TablePlay = rules.table_act(sheets, action, params, variants, source)
            changes = []
            for key, sheet in play.sheets.items():
                if key not in rows:
                    raise InvalidInput("sheets", key, "characters of this table")
                changes.append(SheetChange.of(rows[key], dict(sheet)))
            changed = {change.character_id for change in changes}
            read = [(r.id, r.stored_version) for r in rows.values() if r.id not in changed]
            return Staged(_entry(viewer, "table-action", mode, play), changes, read)

        return self._logged_play(viewer, stage, contribution)

    # the turn tracker

    def turn_order(self, viewer: Viewer) -> turns.TurnState:
        """The table's turn order, folded from its turn entries (``rulesets.turns``)."""
        return turns.fold(entry.record for entry in self._turn_entries(viewer.table.id))

    def _turn_entries(self, table_id: int) -> list[LogEntry]:
        """The turn entries from the latest start or end of an order on, oldest first (read
        newest first, a page at a time: nothing before one of those matters)."""
        found: list[LogEntry] = []
        before = None
        while True:
            page = self.store.entries(
                table_id, Scope(0, True), before=before, limit=TURN_PAGE, kind=turns.KIND
            )
            for entry in page:
                found.append(entry)
                if entry.record.get("kind") in turns.BOUNDS:
                    return found[::-1]
            if len(page) < TURN_PAGE:
                return found[::-1]
            before = page[-1].seq

    @fresh_on_stale
    def turn(
        self,
        viewer: Viewer,
        action: str,
        params: Mapping[str, Any],
        contribution: Contribution | None = None,
    ) -> LogEntry:
        """One move of the turn tracker, logged as a public "turn" entry: the game master's,
        or "next" by the player of the character whose turn it is. A start or an add that
        rolls draws the table's committed dice, and changes the sheets its rolls change,
        in the transaction that logs it."""
        params = capped(params)
        seen = StillOpen(self.store.last_seq(viewer.table.id), _refuse_turn_moved)
        state = self.turn_order(viewer)  # read after ``seen``: a move between is caught
        if action == "next" and not viewer.is_gm:
            turns.check_ends(state, _ends(params))
            self._may_end_turn(viewer, state)
        else:
            self.require_gm(viewer)
        if action in ("start", "add"):
            return self._turn_roll(viewer, state, action, params, contribution, seen)
        key, place = str(params.get("key") or ""), _place(params.get("place"))
        moves: dict[str, Callable[[], turns.Move]] = {
            "next": lambda: turns.advance(state, _ends(params)),
            "round": lambda: turns.new_round(state),
            "remove": lambda: turns.remove(state, key),
            "move": lambda: turns.move(state, key, place or 0),
            "end": lambda: turns.end(state),
        }
        if action not in moves:
            raise InvalidInput("action", action, "one of " + ", ".join(turns.MOVES))
        return self.store.append(_turn_entry(viewer, moves[action]()), still_open=seen)

    def _may_end_turn(self, viewer: Viewer, state: turns.TurnState) -> None:
        current = state.current
        cid = None if current is None else current.character_id
        if cid is None or not viewer.may_edit(self.store.character(viewer.table.id, cid)):
            raise Forbidden("only the game master, or the player whose turn it is, ends a turn")

    def _turn_roll(
        self,
        viewer: Viewer,
        state: turns.TurnState,
        action: str,
        params: Mapping[str, Any],
        contribution: Contribution | None,
        seen: StillOpen,
    ) -> LogEntry:
        """A start or an add: its combatants (characters as the game master sees them, and
        others by name), rolled as the method says; refused if the order has moved since it
        was read (``seen``)."""
        rows = {row.id: row for row in self.characters(viewer)}
        picks, naming = ("characters", "others") if action == "start" else ("character", "name")
        chosen = _ids(params.get(picks))
        unknown = [cid for cid in chosen if cid not in rows]
        if unknown:
            raise InvalidInput(picks, unknown[0], "characters of this table")
        names = params.get(naming) or ""
        named = names if isinstance(names, list) else str(names).replace("\n", ",").split(",")
        entrants = [turns.Entrant(rows[cid].name, cid, rows[cid].sheet) for cid in chosen]
        entrants += [turns.Entrant(clean_name(naming, n)) for n in named if str(n).strip()]
        rules = self.game(viewer.table.ruleset).table
        variants = viewer.table.variants
        if action == "add" and len(entrants) != 1:
            field, given = (naming, names) if len(named) > 1 else (picks, chosen or None)
            raise InvalidInput(field, given, "one character, or one name")
        method = str(params.get("method") or ("game" if rules.has_initiative else "roll"))
        die = str(params.get("die") or "")
        by_key = {f"c{cid}": rows[cid] for cid in chosen}

        def stage(source: RandomSource) -> Staged:
            if action == "start":
                made = turns.start(rules, entrants, method, die, variants, source)
            else:
                place = _place(params.get("place"))
                made = turns.add(state, rules, entrants[0], variants, source, place)
            changes = [SheetChange.of(by_key[k], dict(sheet)) for k, sheet in made.sheets.items()]
            changed = {change.character_id for change in changes}
            read = [(r.id, r.stored_version) for r in by_key.values() if r.id not in changed]
            return Staged(_turn_entry(viewer, made), changes, read, seen)

        how = method if action == "start" else state.method
        if how == "set" or (how == "game" and not chosen):  # nobody rolls: no dice drawn
            staged = stage(self.source(viewer.table.id))
            return self.store.append(
                staged.entry, staged.changes, read=staged.read, still_open=seen
            )
        return self._logged_play(viewer, stage, contribution)

    def _staged(
        self,
        viewer: Viewer,
        kind: str,
        privacy: Privacy,
        row: CharacterRow,
        play: Play,
        parent: int | None = None,
    ) -> Staged:
        """A play of ``row``'s: its entry, and its sheet change, or else the version of the
        sheet it was computed from (the append refuses it if the sheet has changed since)."""
        entry = _entry(viewer, kind, privacy, play, row, parent)
        if play.sheet is None:
            return Staged(entry, read=[(row.id, row.stored_version)])
        return Staged(entry, [SheetChange.of(row, play.sheet)])


def _refuse_closed(root: LogEntry, leaf: LogEntry, later: Sequence[EntryOutline]) -> None:
    """Conflict if an entry after ``root`` closes its chain to a next step after ``leaf``."""
    if any(e.parent_id == leaf.id for e in later):  # the store refuses a second one too
        raise Conflict(
            "follow-up", "this result was already followed up or kept; act on the latest one"
        )
    if superseded(later, root):
        raise Conflict("follow-up", "the character has rolled again since: this roll is closed")
    if voided(later, root.id):
        raise Conflict("follow-up", "the game master voided this roll")
    if any(e.kind == "scene" for e in later):
        raise Conflict("follow-up", "the game master closed the scene since this roll")


def _refuse_voided(root: LogEntry, later: Sequence[EntryOutline]) -> None:
    if voided(later, root.id):
        raise Conflict("void", "this roll is already void")


def _refuse_turn_moved(later: Sequence[EntryOutline]) -> None:
    """A move made from the order as it was read: another move logged since changed it."""
    if any(e.kind == turns.KIND for e in later):
        raise Conflict("turn", "the turn order changed meanwhile: look at it again")


def _refuse_revealed(leaf: LogEntry, later: Sequence[EntryOutline]) -> None:
    """A result is revealed once: a second public copy would tell nothing new."""
    if any(e.kind == "reveal" and leaf.id in (e.record.get("reveals") or ()) for e in later):
        raise Conflict("reveal", "this result is already revealed to the table")


def _turn_entry(viewer: Viewer, move: turns.Move) -> NewEntry:
    """A turn move's entry: public, for the whole table, its card (when it rolled) stored."""
    card = None if move.card is None else Stored.native(card_json(move.card))
    summary = f"{viewer.member.name} {move.summary}"
    return NewEntry(
        viewer.table.id,
        turns.KIND,
        "public",
        viewer.member.id,
        summary,
        None,
        None,
        move.record,
        card,
    )


def _ids(value: object) -> list[int]:
    """Character ids as a form or a JSON body gives them: numbers, or text of numbers."""
    given = value if isinstance(value, list | tuple) else [] if value in (None, "") else [value]
    found = []
    for item in given:
        text = str(item).strip()
        if isinstance(item, bool) or not text.isdecimal():
            raise InvalidInput("characters", shown(item), "character ids")
        found.append(int(text))
    return found


def _ends(params: Mapping[str, Any]) -> str | None:
    """Whose turn a click to end one meant (None: whoever's it is)."""
    ends = params.get("ends")
    return None if ends in (None, "") else str(ends)


def _place(value: object) -> int | None:
    """A place in the order (1 first) as a form or a JSON body gives it; None: not given."""
    if value in (None, ""):
        return None
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdecimal():
        raise InvalidInput("place", shown(value), "a place in the order, 1 first")
    return int(text)


def _entry(
    viewer: Viewer,
    kind: str,
    privacy: Privacy,
    play: Play | TablePlay,
    row: CharacterRow | None = None,
    parent: int | None = None,
    *,
    addressed: Mapping[str, Any] | None = None,
) -> NewEntry:
    """A play's log entry: its record and card, summed up (after its character's name).
    ``addressed``: what table talk adds to its record (a whisper's ``to``, an emote)."""
    summary = play.summary or play.card.outcome
    record = dict(play.record) | dict(addressed or {})
    return NewEntry(
        viewer.table.id,
        kind,
        privacy,
        viewer.member.id,
        summary if row is None else f"{row.name}: {summary}",
        None if row is None else row.id,
        parent,
        record,
        Stored.native(card_json(play.card)),
        record.get("to") if privacy == "whisper" else None,
    )
