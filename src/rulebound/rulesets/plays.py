"""Records, replay and plays, written once for every game.

A play is a roll or a follow-up, ready to store: the record that rebuilds it,
its card, and the sheet after it. ``replay`` rebuilds a stored chain by feeding
each record's draws back to the game: every draw must be of the kind the game
asks for, and every draw must be used, so a record with surplus or missing
draws is refused whichever game it belongs to.

``TableRules`` is what a table (web, Discord, the CLI with a character file)
asks of a game: forms in, plays out. It reads each form once by its fields'
kinds (``forms.read``) and validates the table's variants once
(``variants.resolve``), so no game parses forms or variants itself.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Generic, TypeVar

from rulebound.core.errors import (
    InvalidInput,
    RuleViolation,
    SheetFileError,
    problems_of,
    raise_all,
)
from rulebound.core.random_source import Draw, RandomSource, RecordingSource, ReplaySource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import (
    UNSEEN,
    ActionView,
    Card,
    Chain,
    Chances,
    CreationStep,
    Field,
    Game,
    Initiative,
    Params,
    Play,
    Record,
    Req,
    Res,
    Roster,
    Sheet,
    Sheets,
    SheetView,
    TablePlay,
    Variants,
)
from rulebound.rulesets.variants import resolve

RESERVED = ("kind", "draws")
ROLL = "roll"

AnyGame = Game[Any, Any]
T = TypeVar("T")


# --- records --------------------------------------------------------------------------


def draws_json(draws: Sequence[Draw]) -> list[list[int]]:
    return [[d.sides, d.face] for d in draws]


def record_draws(record: Mapping[str, Any]) -> tuple[Draw, ...]:
    raw = record.get("draws")
    if not isinstance(raw, list | tuple):
        raise InvalidInput("record.draws", raw, "a list of [sides, face] pairs")
    draws = []
    for pair in raw:
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair)
        ):
            raise InvalidInput("record.draws", pair, "a [sides, face] pair of whole numbers")
        draws.append(Draw(pair[0], pair[1]))
    return tuple(draws)


def record_object(record: Mapping[str, Any], key: str, expected: str) -> Mapping[str, Any]:
    """The JSON object a record holds at ``key``; InvalidInput names ``record.<key>``."""
    found = record.get(key)
    if not isinstance(found, Mapping):
        raise InvalidInput(f"record.{key}", found, expected)
    return found


def params_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record less its kind and draws: the request (for a roll) or the follow-up's params."""
    return {k: v for k, v in record.items() if k not in RESERVED}


def make_record(kind: str, params: Params, draws: Sequence[Draw]) -> Record:
    clash = [k for k in params if k in RESERVED]
    if clash:
        raise ValueError(f"record params may not use the keys {clash}")
    return {"kind": kind, **params, "draws": draws_json(draws)}


def replayed(
    record: Mapping[str, Any], run: Callable[[RandomSource], T], used_by: str = "the step"
) -> T:
    """``run`` fed the record's own draws: one it asks for and the record lacks, or of
    another die, stops it; one it leaves unused is refused after."""
    draws = record_draws(record)
    source = ReplaySource(draws)
    out = run(source)
    if not source.exhausted:
        expected = f"exactly the draws {used_by} uses, and no more"
        raise InvalidInput("record.draws", len(draws), expected)
    return out


def recorded(run: Callable[[RandomSource], T], source: RandomSource) -> tuple[T, tuple[Draw, ...]]:
    """``run`` on ``source``, and every draw it made (to store in its record)."""
    recording = RecordingSource(source)
    return run(recording), recording.draws


def _step(record: Mapping[str, Any], index: int) -> tuple[str, dict[str, Any]]:
    if not isinstance(record, Mapping):
        raise InvalidInput(f"chain[{index}]", record, "a record (a JSON object)")
    kind = record.get("kind")
    if not isinstance(kind, str):
        raise InvalidInput(f"chain[{index}].kind", kind, "the record's kind")
    return kind, params_of(record)


def replay(game: AnyGame, chain: Sequence[Mapping[str, Any]]) -> Any:
    """The result a stored chain (roll first, then each follow-up) rebuilds."""
    if not chain:
        raise InvalidInput("chain", [], "a roll record first")
    kind, params = _step(chain[0], 0)
    if kind != ROLL:
        raise InvalidInput("chain", [r.get("kind") for r in chain], "a roll record first")
    result = replayed(chain[0], lambda source: game.roll(game.load(params), source), "the roll")
    for index, record in enumerate(chain[1:], start=1):
        kind, params = _step(record, index)
        if kind == ROLL:
            raise InvalidInput(f"chain[{index}].kind", kind, "a follow-up, not a second roll")
        result = replayed(record, partial(_follow, game, result, kind, params), f"the {kind}")
    return result


def _follow(game: AnyGame, result: Any, kind: str, params: Params, source: RandomSource) -> Any:
    return game.follow(result, kind, game.follow_params(result, kind, params), source)


def roll_play(game: Game[Req, Res], request: Req, source: RandomSource) -> tuple[Res, Record]:
    result, draws = recorded(partial(game.roll, request), source)
    return result, make_record(ROLL, game.dump(request), draws)


def offered(game: Game[Req, Res], result: Res, action: str) -> ActionView:
    """The follow-up ``action`` names, if the result offers it and it can still matter."""
    actions = game.follow_ups(result)
    for view in actions:
        if view.key == action:
            if not view.available:
                raise RuleViolation(view.label, view.reason or "it cannot change this result")
            return view
    if not actions:
        raise RuleViolation("follow-up", "this result offers no follow-up")
    raise InvalidInput("action", action, "one of " + ", ".join(a.key for a in actions))


def follow_play(
    game: Game[Req, Res],
    result: Res,
    action: str,
    params: Params,
    source: RandomSource,
    paid_from: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
    *,
    unseen: bool = False,
) -> tuple[Res, Record]:
    """Follow up ``result`` with the params the player gave (typed by the follow-up's fields);
    ``paid_from`` adds what a sheet holds (``Sheets.follow_params``) before the game's own.
    ``unseen``: its roller cannot see ``result``, so one of ``unseen_follow_ups`` is taken
    whether or not the result offers it (the game's ``follow_params`` sees ``UNSEEN``)."""
    blind = [v for v in game.unseen_follow_ups if v.key == action] if unseen else []
    view = blind[0] if blind else offered(game, result, action)
    typed: Mapping[str, Any] = typed_params(view.fields, params)
    if blind:
        typed = {**typed, UNSEEN: True}
    if paid_from is not None:
        typed = paid_from(typed)
    normalised = game.follow_params(result, action, typed)
    new, draws = recorded(partial(game.follow, result, action, normalised), source)
    return new, make_record(action, normalised, draws)


# --- the characters a game-master tool names ------------------------------------------


def character_id(sheets: Roster, token: str, field: str) -> str:
    """The character ``token`` names at a table: its id, or a name no other one shares."""
    if token in sheets:
        return token
    named = [key for key, s in sheets.items() if str(s.get("name", "")).lower() == token.lower()]
    if len(named) == 1:
        return named[0]
    known = ", ".join(f"{k} ({s.get('name')})" for k, s in sheets.items()) or "none"
    why = "a name two characters share; use the id" if named else "a character at this table"
    raise InvalidInput(field, token, f"{why}: {known}")


def character_ids(sheets: Roster, params: Params, field: str) -> list[str]:
    """The characters a field lists (ids or names, by commas or lines), each once."""
    tokens = [t.strip() for t in str(params.get(field) or "").replace("\n", ",").split(",")]
    return list(dict.fromkeys(character_id(sheets, t, field) for t in tokens if t))


# --- the table's view of a game -------------------------------------------------------


class Remembered:
    """The requests (and their chances) of the sheets and forms a table rolls most, kept by
    their canonical JSON: a request and its chances are immutable values of the sheet, the
    form and the table's variants, and a group rolls the same few checks from the same
    sheets all session. Bounded, least recently used first out; a refusal is never kept."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._held: OrderedDict[str, list[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str | None, make: Callable[[], Any], part: int = 0) -> Any:
        """Part ``part`` of the entry at ``key`` (0: the request, 1: its chances), made once."""
        if key is None:
            return make()
        with self._lock:
            entry = self._held.get(key)
            if entry is not None:
                self._held.move_to_end(key)
                if entry[part] is not _UNSET:
                    return entry[part]
        value = make()  # outside the lock: a slow rule holds up no other reader
        with self._lock:
            entry = self._held.setdefault(key, [_UNSET, _UNSET])
            entry[part] = value
            while len(self._held) > self.size:
                self._held.popitem(last=False)
        return value


_UNSET = object()
_KEY = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False)


def memo_key(*parts: Any) -> str | None:
    """The canonical JSON of ``parts`` (None: not JSON, so not kept)."""
    try:
        return _KEY.encode(parts)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class TableRules(Generic[Req, Res]):
    """Forms in, plays out: what a table asks of any game."""

    game: Game[Req, Res]
    remembered: Remembered = field(default_factory=Remembered, compare=False, repr=False)

    @property
    def sheets(self) -> Sheets[Req, Res]:
        sheets = self.game.sheets
        if sheets is None:
            raise RuleViolation("characters", f"{self.game.title} has no character sheets")
        return sheets

    def variants(self, given: Mapping[str, Any] | None) -> dict[str, str]:
        return resolve(self.game.variants, given)

    # sheets

    def validate_sheet(self, sheet: Mapping[str, Any]) -> Sheet:
        if not isinstance(sheet, Mapping):
            raise InvalidInput("sheet", sheet, f"a {self.game.title} character as a JSON object")
        try:
            return self.sheets.validate(sheet)
        except InvalidInput as exc:
            raise SheetFileError(problems_of(exc), self.game.title) from None

    def new_sheet(self, name: str) -> Sheet:
        return self.sheets.new(name)

    def sheet_view(self, sheet: Sheet) -> SheetView:
        return self.sheets.view(sheet)

    def apply_sheet_form(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """The sheet with the edit form's fields applied. A key outside every group of the
        form is named, never dropped without a word; one inside a group ("skills.x") is the
        game's to judge, which can say more (which skills there are, how to add one)."""
        groups = list(dict.fromkeys(f.name.split(".")[0] for f in self.sheets.view(sheet).fields))
        unknown = [k for k in form if k.split(".")[0] not in groups]
        expected = "a field of the sheet: " + ", ".join(groups)
        raise_all([InvalidInput(k, form[k], expected) for k in unknown])
        return self.sheets.edit(sheet, form)

    def dialog(self, sheet: Sheet) -> tuple[Any, ...]:
        return self.sheets.dialog(sheet)

    def request(self, sheet: Sheet, form: Mapping[str, Any], variants: Mapping[str, Any]) -> Req:
        """The request a form makes of a sheet (``Remembered``)."""
        key = memo_key(sheet, form, variants)
        request: Req = self.remembered.get(key, partial(self._request, sheet, form, variants))
        return request

    def _request(self, sheet: Sheet, form: Mapping[str, Any], variants: Mapping[str, Any]) -> Req:
        values = forms.read(self.sheets.dialog(sheet), form)
        return self.sheets.request(sheet, values, self.variants(variants))

    # rolls

    def chances(self, sheet: Sheet, form: Mapping[str, Any], variants: Variants) -> Chances:
        def chances() -> Chances:
            return self.game.chances(self.request(sheet, form, variants))

        found: Chances = self.remembered.get(memo_key(sheet, form, variants), chances, part=1)
        return found

    def rolled(
        self, sheet: Sheet, form: Mapping[str, Any], variants: Variants, source: RandomSource
    ) -> tuple[Res, Play]:
        """Roll from a sheet: the result, and the play (record, card, sheet after) to store."""
        result, record = roll_play(self.game, self.request(sheet, form, variants), source)
        card = self.game.card(result)
        return result, Play(record, card, self.sheets.settle(sheet, result), card.outcome)

    def roll(
        self, sheet: Sheet, form: Mapping[str, Any], variants: Variants, source: RandomSource
    ) -> Play:
        return self.rolled(sheet, form, variants, source)[1]

    def followed(
        self,
        sheet: Sheet | None,
        result: Res,
        action: str,
        params: Params,
        source: RandomSource,
        *,
        unseen: bool = False,
    ) -> tuple[Res, Play]:
        """Follow up ``result``, paid from ``sheet`` when there is one (None: a raw roll)."""
        sheets = self.game.sheets
        paid_from = None
        if sheets is not None and sheet:
            paid_from = partial(sheets.follow_params, sheet, result, action)
        new, record = follow_play(
            self.game, result, action, params, source, paid_from, unseen=unseen
        )
        card = self.game.card(new)
        after = sheets.settle(sheet, new) if sheets is not None and sheet else None
        return new, Play(record, card, after, card.outcome)

    def act(
        self,
        sheet: Sheet,
        chain: Chain,
        action: str,
        params: Params,
        variants: Variants,
        source: RandomSource,
        *,
        unseen: bool = False,
    ) -> Play:
        """Follow up a stored chain: a roll's (through the sheet) or a tool's; ``unseen``: by a
        roller who cannot see its result (``follow_play``)."""
        if not chain or chain[0].get("kind") != ROLL:
            return self.game.tool_follow(chain, action, params, self.variants(variants), source)
        result = replay(self.game, chain)
        return self.followed(sheet, result, action, params, source, unseen=unseen)[1]

    def check_unseen_payment(self, sheet: Sheet, chain: Chain, action: str) -> None:
        """Raise what the sheet alone says against an unseen follow-up of a roll (no Luck
        Point left): unlike the rules' other refusals, it tells nothing of the hidden result
        (``Sheets.follow_params`` reads what the sheet holds)."""
        sheets = self.game.sheets
        if sheets is None or not sheet or not chain or chain[0].get("kind") != ROLL:
            return
        sheets.follow_params(sheet, replay(self.game, chain), action, {UNSEEN: True})

    def card(self, chain: Chain) -> Card:
        if chain and chain[0].get("kind") == ROLL:
            return self.game.card(replay(self.game, chain))
        return self.game.tool_card(chain)

    # tools

    def sheet_actions(self, sheet: Sheet, variants: Variants) -> tuple[ActionView, ...]:
        return self.game.sheet_actions(sheet, self.variants(variants))

    def sheet_act(
        self, sheet: Sheet, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        offered = self.game.sheet_actions(sheet, self.variants(variants))
        typed = _typed(offered, action, params, "none: nothing to do now")
        return self.game.sheet_act(sheet, action, typed, self.variants(variants), source)

    def table_actions(self) -> tuple[ActionView, ...]:
        return self.game.table_actions()

    def table_act(
        self, sheets: Roster, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> TablePlay:
        typed = _typed(self.game.table_actions(), action, params, "none (this game has no tools)")
        return self.game.table_act(sheets, action, typed, self.variants(variants), source)

    @property
    def has_initiative(self) -> bool:
        """Whether the game rolls initiative by rules of its own (overrides ``initiative``)."""
        return type(self.game).initiative is not Game.initiative

    def initiative(self, sheets: Roster, variants: Variants, source: RandomSource) -> Initiative:
        return self.game.initiative(sheets, self.variants(variants), source)

    def creation(
        self, state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
    ) -> CreationStep | None:
        return self.game.creation(state, form, source)


def _typed(offered: Sequence[ActionView], action: str, params: Params, none: str) -> dict[str, Any]:
    """An offered action's params, typed by its fields (``none``: what to say when none is)."""
    views = {a.key: a for a in offered}
    if action not in views:
        raise InvalidInput("action", action, "one of " + ", ".join(views) if views else none)
    return typed_params(views[action].fields, params)


def typed_params(fields: Sequence[Field], params: Params) -> dict[str, Any]:
    """Params typed by their fields. A field's raw value never reaches the game: one that
    reads as not given (a blank box) is left out. Keys that name no field pass on as they
    are, for the game to judge."""
    named = {field.name for field in fields}
    given = {key: value for key, value in params.items() if key not in named}
    return given | forms.read(fields, params, defaults=False)


def closed(card: Card) -> Card:
    """The card with its follow-ups closed (a later roll, or the scene ended)."""
    return replace(card, actions=())
