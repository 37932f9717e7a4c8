"""The turn tracker, for every game: who is in the fight, in what order, whose turn, which round.

Its state is never stored. It is folded from the table's log entries of kind ``turn``
(``fold``), one move each, so the log stays the one source of truth and an order rolled
with the table's dice is checked like any roll (``replay``). Each entry's record is a move:

- ``start``: ``method`` ("game": the game's own initiative rules, ``Game.initiative``;
  "roll": the plain ``die`` the game master picks, for each; "set": as given),
  ``combatants`` in the order they were given and rolled, ``order`` (their keys, first to
  act first), the ``sheets`` the game rolled from, and the ``draws``;
- ``add``: one ``combatant``, rolled as the start was (its ``method`` and ``die``), placed
  ``at`` its rank among the ranked (or where the game master says);
- ``next`` (ends the turn of ``ends`` in round ``round``), ``round`` (ends round
  ``round``), ``remove`` and ``move`` (a ``key``, to place ``at``), ``end``.

A ranked combatant carries ``rank``: the greater acts first, compared element by element
(the roll, then the game's tie-breaks), and equal ranks are ties the rules leave to the
table; the game master moves them. Others (no sheet to roll from, or a set order) have
none and stay where they are put.

``next`` and ``round`` name the turn they end: one that no longer matches the state (two
clicks on the same turn) changes nothing, so a double click never skips a combatant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from rulebound.core.dice import parse, roll
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import Card, DieView, Record, Roster, Sheet, Variants
from rulebound.rulesets.free_roll import die_views
from rulebound.rulesets.plays import AnyGame, TableRules, make_record, recorded, replayed

KIND = "turn"
"""The log entries the tracker folds."""
METHODS = ("game", "roll", "set")
MOVES = ("start", "add", "next", "round", "remove", "move", "end")
BOUNDS = ("start", "end")
"""Moves after which nothing earlier matters to the state."""
DEFAULT_DIE = "1d20"
MAX_COMBATANTS = 50

Rules = TableRules[Any, Any]


@dataclass(frozen=True, slots=True)
class Combatant:
    """One place in the order: a character (``character_id``) or another, with its rank."""

    key: str
    name: str
    character_id: int | None = None
    rank: tuple[int, ...] | None = None
    said: str = ""

    def json(self) -> dict[str, Any]:
        rank = None if self.rank is None else list(self.rank)
        return {
            "key": self.key,
            "name": self.name,
            "character_id": self.character_id,
            "rank": rank,
            "said": self.said,
        }

    @classmethod
    def of(cls, data: Any) -> Combatant:
        """A combatant as a record holds it (InvalidInput names what is wrong)."""
        if not isinstance(data, Mapping):
            raise InvalidInput("record.combatant", data, "a combatant (a JSON object)")
        key, name, cid, rank = (data.get(k) for k in ("key", "name", "character_id", "rank"))
        if not isinstance(key, str) or not isinstance(name, str):
            raise InvalidInput("record.combatant", data, "a key and a name")
        if cid is not None and not _whole(cid):
            raise InvalidInput("record.combatant.character_id", cid, "a character id or null")
        if rank is not None and not (isinstance(rank, list) and all(map(_whole, rank))):
            raise InvalidInput("record.combatant.rank", rank, "a list of whole numbers or null")
        return cls(key, name, cid, None if rank is None else tuple(rank), str(data.get("said", "")))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class TurnState:
    """The turn order as the log stands: no ``round`` (0) means none is under way."""

    order: tuple[Combatant, ...] = ()
    up: str | None = None
    """The key of whose turn it is."""
    round: int = 0
    method: str = ""
    die: str = ""

    @property
    def active(self) -> bool:
        return self.round > 0

    @property
    def current(self) -> Combatant | None:
        return next((c for c in self.order if c.key == self.up), None)

    def place(self, key: str) -> int:
        """The index of ``key`` in the order (InvalidInput if it is not in it)."""
        for index, combatant in enumerate(self.order):
            if combatant.key == key:
                return index
        known = ", ".join(f"{c.key} ({c.name})" for c in self.order) or "none"
        raise InvalidInput("key", key, f"a combatant in the turn order: {known}")

    def tied(self) -> set[str]:
        """The keys of ranked combatants next to one of equal rank: ties for the table."""
        found: set[str] = set()
        for a, b in zip(self.order, self.order[1:], strict=False):
            if a.rank is not None and a.rank == b.rank:
                found |= {a.key, b.key}
        return found


@dataclass(frozen=True, slots=True)
class Entrant:
    """Someone the game master puts in the order: a character (its id, and its sheet as the
    game master sees it) or another, by name alone."""

    name: str
    character_id: int | None = None
    sheet: Sheet | None = None

    @property
    def key(self) -> str:
        return f"c{self.character_id}" if self.character_id is not None else ""


@dataclass(frozen=True, slots=True)
class Move:
    """A move ready to log: its record, what it did in words (after the mover's name), its
    card when it rolled or set an order, and the sheets its rolls changed (by combatant key)."""

    record: Record
    summary: str
    card: Card | None = None
    sheets: Roster = field(default_factory=dict)


# --- folding the log ------------------------------------------------------------------------


def fold(records: Iterable[Mapping[str, Any]]) -> TurnState:
    """The state the moves make, oldest first."""
    state = TurnState()
    for record in records:
        state = step(state, record)
    return state


def step(state: TurnState, record: Mapping[str, Any]) -> TurnState:
    """The state after one move. A move that no longer fits (the turn it ends has ended, the
    combatant it names has gone) changes nothing."""
    kind = record.get("kind")
    if kind == "start":
        given = {c.key: c for c in map(Combatant.of, _list(record, "combatants"))}
        order = tuple(given[str(k)] for k in _list(record, "order") if str(k) in given)
        method, die = str(record.get("method", "")), str(record.get("die", ""))
        return TurnState(order, order[0].key if order else None, 1, method, die)
    if kind == "end":
        return TurnState()
    if not state.active:
        return state
    if kind == "add":
        newcomer = Combatant.of(record.get("combatant"))
        if any(c.key == newcomer.key for c in state.order):
            return state
        at = min(_index(record), len(state.order))
        order = (*state.order[:at], newcomer, *state.order[at:])
        return replace(state, order=order, up=state.up or newcomer.key)
    if kind == "next":
        if record.get("round") != state.round or record.get("ends") != state.up or not state.order:
            return state
        after = state.place(str(state.up)) + 1
        if after < len(state.order):
            return replace(state, up=state.order[after].key)
        return replace(state, up=state.order[0].key, round=state.round + 1)
    if kind == "round":
        if record.get("round") != state.round or not state.order:
            return state
        return replace(state, up=state.order[0].key, round=state.round + 1)
    keys = [c.key for c in state.order]
    key = str(record.get("key"))
    if key not in keys:
        return state
    at = keys.index(key)
    rest = state.order[:at] + state.order[at + 1 :]
    if kind == "remove":
        if key != state.up:
            return replace(state, order=rest)
        if not rest:
            return replace(state, order=rest, up=None)
        if at < len(rest):
            return replace(state, order=rest, up=rest[at].key)
        return replace(state, order=rest, up=rest[0].key, round=state.round + 1)
    if kind == "move":
        to = min(_index(record), len(rest))
        return replace(state, order=(*rest[:to], state.order[at], *rest[to:]))
    raise InvalidInput("record.kind", kind, "a turn move: " + ", ".join(MOVES))


def _list(record: Mapping[str, Any], key: str) -> list[Any]:
    found = record.get(key)
    if not isinstance(found, list):
        raise InvalidInput(f"record.{key}", found, "a list")
    return found


def _index(record: Mapping[str, Any]) -> int:
    at = record.get("at")
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise InvalidInput("record.at", at, "a place in the order, from 0")
    return at


# --- the moves ------------------------------------------------------------------------------


def start(
    rules: Rules,
    entrants: Sequence[Entrant],
    method: str,
    die: str,
    variants: Variants,
    source: RandomSource,
) -> Move:
    """A new turn order over ``entrants``: rolled by the game's initiative rules, by a plain
    die for each, or set as given; round 1 begins with the first."""
    if not entrants:
        raise InvalidInput("combatants", [], "at least one character or other combatant")
    if len(entrants) > MAX_COMBATANTS:
        raise InvalidInput("combatants", len(entrants), f"at most {MAX_COMBATANTS} combatants")
    keys = [e.key for e in entrants if e.key]
    if len(set(keys)) != len(keys):
        raise InvalidInput("characters", keys, "each character once")
    die = _method(rules, method, die)
    others = iter(range(1, len(entrants) + 1))
    stored = _inputs(method, die, [(e.key or f"n{next(others)}", e) for e in entrants])
    (given, dice, sheets), draws = recorded(partial(_roll, rules, variants, stored), source)
    order = ordered(given)
    record = make_record("start", stored | {"combatants": [c.json() for c in given]}, draws)
    record["order"] = [c.key for c in order]
    state = TurnState(order, order[0].key, 1, method, die)
    summary = f"started the turn order ({_how(rules, method, die)}): " + _names(order)
    return Move(record, summary, _order_card(state, dice, _how(rules, method, die)), sheets)


def add(
    state: TurnState,
    rules: Rules,
    entrant: Entrant,
    variants: Variants,
    source: RandomSource,
    place: int | None = None,
) -> Move:
    """A newcomer joins: rolled as the start was, and placed by rank (the order of those
    already fighting does not change), or at ``place`` (1 first) when it has no rank."""
    _running(state)
    if len(state.order) >= MAX_COMBATANTS:
        raise RuleViolation("turn order", f"it holds {MAX_COMBATANTS} combatants already")
    if entrant.key and any(c.key == entrant.key for c in state.order):
        raise RuleViolation("turn order", f"{entrant.name} is in it already")
    numbers = [int(c.key[1:]) for c in state.order if c.key[:1] == "n" and c.key[1:].isdigit()]
    key = entrant.key or f"n{max(numbers, default=0) + 1}"
    stored = _inputs(state.method, state.die, [(key, entrant)])
    (given, dice, sheets), draws = recorded(partial(_roll, rules, variants, stored), source)
    newcomer = given[0]
    at = _ranked_place(state.order, newcomer)
    if newcomer.rank is None:
        at = len(state.order) if place is None else _bounded(place, len(state.order) + 1)
    params = stored | {"combatant": newcomer.json(), "at": at}
    record = make_record("add", {k: v for k, v in params.items() if k != "combatants"}, draws)
    summary = f"added {newcomer.name} to the turn order, at place {at + 1}"
    card = None
    if draws:
        card = Card(
            title=f"{newcomer.name} joins the turn order",
            outcome=f"Place {at + 1} of {len(state.order) + 1}",
            succeeded=None,
            dice=dice,
            steps=(f"{newcomer.name}: {newcomer.said}",),
        )
    return Move(record, summary + (f" ({newcomer.said})" if newcomer.said else ""), card, sheets)


def check_ends(state: TurnState, ends: str | None) -> None:
    """A click to end a turn that is already over (a double click, or two movers at once)
    is refused, whoever made it: the turn it meant has passed."""
    current = _up(state)
    if ends is not None and ends != current.key:
        raise RuleViolation("turn", f"{current.name}'s turn is under way now: look again")


def advance(state: TurnState, ends: str | None = None) -> Move:
    """The turn passes to the next combatant (past the last: round on, the first's turn).
    ``ends``: whose turn the mover saw, so a click on a turn already over does nothing."""
    current = _up(state)
    check_ends(state, ends)
    after = step(state, {"kind": "next", "round": state.round, "ends": current.key})
    record = make_record("next", {"round": state.round, "ends": current.key}, ())
    return Move(record, f"ended {current.name}'s turn. {_now(after)}")


def new_round(state: TurnState) -> Move:
    """The round ends at once: the next begins with the first in the order."""
    _up(state)
    after = step(state, {"kind": "round", "round": state.round})
    record = make_record("round", {"round": state.round}, ())
    return Move(record, f"ended round {state.round}. {_now(after)}")


def remove(state: TurnState, key: str) -> Move:
    """A combatant leaves the order (if it was their turn, it passes on)."""
    _running(state)
    gone = state.order[state.place(key)]
    after = step(state, {"kind": "remove", "key": key})
    record = make_record("remove", {"key": key}, ())
    now = f" {_now(after)}" if gone.key == state.up and after.up else ""
    return Move(record, f"took {gone.name} out of the turn order.{now}")


def move(state: TurnState, key: str, place: int) -> Move:
    """A combatant moves to ``place`` (1 first): a tie the table settles, or a set order."""
    _running(state)
    moved = state.order[state.place(key)]
    at = _bounded(place, len(state.order))
    record = make_record("move", {"key": key, "at": at}, ())
    return Move(record, f"moved {moved.name} to place {at + 1} of the turn order")


def end(state: TurnState) -> Move:
    _running(state)
    record = make_record("end", {"round": state.round}, ())
    return Move(record, f"ended the turn order after round {state.round}")


def ordered(combatants: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """Ranked combatants first, the greatest rank first (equal ranks keep the order given);
    then the unranked, in the order given."""
    ranked = sorted((c for c in combatants if c.rank is not None), key=_rank, reverse=True)
    return (*ranked, *(c for c in combatants if c.rank is None))


def _rank(combatant: Combatant) -> tuple[int, ...]:
    return combatant.rank or ()


def _ranked_place(order: Sequence[Combatant], newcomer: Combatant) -> int:
    """After every ranked combatant whose rank is at least the newcomer's."""
    at = 0
    if newcomer.rank is None:
        return len(order)
    for index, combatant in enumerate(order):
        if combatant.rank is not None and combatant.rank >= newcomer.rank:
            at = index + 1
    return at


def _bounded(place: int, places: int) -> int:
    if not 1 <= place <= places:
        raise InvalidInput("place", place, f"a place from 1 to {places}")
    return place - 1


def _running(state: TurnState) -> None:
    if not state.active:
        raise RuleViolation("turn order", "none is under way: start one first")


def _up(state: TurnState) -> Combatant:
    _running(state)
    current = state.current
    if current is None:
        raise RuleViolation("turn order", "nobody is in it: add a combatant first")
    return current


def _now(state: TurnState) -> str:
    current = state.current
    return f"Round {state.round}: {current.name}'s turn" if current else f"Round {state.round}"


def _names(order: Sequence[Combatant]) -> str:
    return ", ".join(c.name for c in order)


def _method(rules: Rules, method: str, die: str) -> str:
    """The die a start rolls (none unless "roll"), once the method fits the game."""
    if method not in METHODS:
        raise InvalidInput("method", method, "one of " + ", ".join(METHODS))
    if method == "game" and not rules.has_initiative:
        expected = f"roll or set: {rules.game.title} has no initiative rules"
        raise InvalidInput("method", method, expected)
    return parse(die or DEFAULT_DIE, "die").text() if method == "roll" else ""


def _how(rules: Rules, method: str, die: str) -> str:
    ways = {"game": f"{rules.game.title}'s initiative", "roll": f"{die} each", "set": "as set"}
    return ways[method]


# --- rolling, and rolling again for ``verify`` ----------------------------------------------


def _inputs(method: str, die: str, entrants: Sequence[tuple[str, Entrant]]) -> Record:
    """What a start or an add rolls from, as its record keeps it (the sheets in roll order)."""
    stored: Record = {"method": method, "die": die}
    stored["combatants"] = [
        {"key": key, "name": e.name, "character_id": e.character_id} for key, e in entrants
    ]
    if method == "game":
        stored["sheets"] = [
            {"key": key, "sheet": dict(e.sheet)} for key, e in entrants if e.sheet is not None
        ]
    return stored


Rolled = tuple[list[Combatant], tuple[DieView, ...], Roster]


def _roll(
    rules: Rules, variants: Variants, stored: Mapping[str, Any], source: RandomSource
) -> Rolled:
    """Each combatant (the record's ``combatants``, in order) ranked by the record's method,
    from ``source``; the dice, and the sheets the game's rolls changed (by combatant key)."""
    given = [Combatant.of({**c, "rank": None, "said": ""}) for c in _list(stored, "combatants")]
    method = stored.get("method")
    if method == "roll":
        return _plain(str(stored.get("die") or DEFAULT_DIE), given, source)
    if method != "game":
        return given, (), {}
    sheets = {str(s.get("key")): s.get("sheet") for s in _list(stored, "sheets")}
    roster = {c.key: sheets[c.key] for c in given if c.key in sheets}
    standings = {}
    found = None
    if roster:
        found = rules.initiative(roster, variants, source)
        standings = {s.key: s for s in found.standings}
    ranked = [
        replace(c, rank=standings[c.key].rank, said=standings[c.key].said)
        if c.key in standings
        else replace(c, said=UNRANKED)
        for c in given
    ]
    return ranked, (found.dice if found else ()), (found.sheets if found else {})


UNRANKED = "no sheet to roll from: placed by hand"


def _plain(die: str, given: list[Combatant], source: RandomSource) -> Rolled:
    expression = parse(die, "die")
    ranked, dice = [], []
    for combatant in given:
        rolled = roll(expression, source)
        if len(rolled.totals) != 1:
            raise InvalidInput("die", die, "dice with one total (1d20, 2d6+1), not repeats")
        ranked.append(replace(combatant, rank=(rolled.total,), said=f"rolled {rolled.total}"))
        dice += [replace(d, label=f"{combatant.name} {d.label}") for d in die_views(rolled)]
    return ranked, tuple(dice), {}


def replay(record: Mapping[str, Any], game: AnyGame, variants: Variants) -> str | None:
    """Whether a start's or an add's record follows from its draws: each rank and standing
    rolled again (and a start's order sorted again) gives what it logged. None when it
    does; else what differs, in words."""
    kind = record.get("kind")
    if kind not in ("start", "add"):
        return None
    stored = dict(record)
    if kind == "add":
        stored["combatants"] = [record.get("combatant")]
    logged = [Combatant.of(c) for c in _list(stored, "combatants")]
    run = partial(_roll, TableRules(game), variants, stored)
    given, _, _ = replayed(record, run, f"the turn {kind}")
    if [(c.rank, c.said) for c in given] != [(c.rank, c.said) for c in logged]:
        return "rolling its draws again gives other ranks than it logged"
    if kind == "start" and [c.key for c in ordered(given)] != record.get("order"):
        return "its order is not its combatants sorted by their rolls"
    return None


# --- what a front end shows -----------------------------------------------------------------


def _order_card(state: TurnState, dice: tuple[DieView, ...], how: str) -> Card:
    tied = state.tied()
    steps = tuple(
        f"{n}. {c.name}" + (f": {c.said}" if c.said else "") + (" (tied)" if c.key in tied else "")
        for n, c in enumerate(state.order, start=1)
    )
    details: tuple[str, ...] = ()
    if tied:
        who = _names([c for c in state.order if c.key in tied])
        details = (f"Tied: {who}. The rules leave these to the table: move them to settle it.",)
    return Card(
        title=f"Turn order ({how})",
        outcome="Order: " + _names(state.order),
        succeeded=None,
        dice=dice,
        steps=steps,
        details=details,
    )


def state_json(state: TurnState) -> dict[str, Any]:
    """The state as the API and the table page show it."""
    tied = state.tied()
    return {
        "active": state.active,
        "round": state.round,
        "up": state.up,
        "method": state.method,
        "die": state.die,
        "order": [c.json() | {"tied": c.key in tied, "up": c.key == state.up} for c in state.order],
    }


def lines(state: TurnState) -> list[str]:
    """The state in words, one line each (Discord, a text view)."""
    if not state.active:
        return ["No turn order is under way."]
    tied = state.tied()
    shown = [_now(state) + "."]
    for n, c in enumerate(state.order, start=1):
        mark = "▶ " if c.key == state.up else ""
        said = f" ({c.said})" if c.said else ""
        shown.append(f"{mark}{n}. {c.name}{said}" + (" (tied)" if c.key in tied else ""))
    return shown
