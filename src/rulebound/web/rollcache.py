"""What a roll computes that its dice do not change, computed once per shape.

A roll from a sheet is ``request(sheet, form, variants)``, then the game's roll on the
dice, then its card and the sheet after it (``TableRules.rolled``). Everything but the
roll itself is a pure function of what it is given: the request of the sheet, the form
and the table's variants; the card and the sheet after it of the request and the dice
drawn (the result is rebuilt from exactly these by ``replay``, which is how a log is
verified). So a busy table, whose players roll the same few checks from the same
sheets, need not work them out again:

- the request (with its record's params, ``Game.dump``, and their canonical texts for the
  record's seal) is kept per (game, sheet, form, variants), and so are the chances the
  live dialog asks for;
- the card and the sheet after the roll are kept per (that key, the dice drawn).

The game's own roll runs every time, on the play's own dice. A key is the canonical
JSON of its parts, so equal sheets share it however their dicts are ordered; a part
that is not JSON is not kept. A refusal (bad form) is never kept: it is worked out,
and raised, each time. Each reader gets its own copy of anything mutable (the record's
params, the sheet after); the card is a frozen dataclass of tuples. A roll's sheet is the
store's own cached row (``Store.character(shared=True)``, which nothing changes): its key
is worked out once per sheet object, and the rules, when they run, get a copy.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from functools import partial
from typing import Any, Generic, TypeVar

from rulebound.core.canonical import json_copy, to_jsonable
from rulebound.core.random_source import RandomSource
from rulebound.core.stored import Template
from rulebound.rulesets.contract import Card, Chances, Play, Sheet, Variants
from rulebound.rulesets.plays import ROLL, TableRules, make_record, recorded
from rulebound.store import Stored

REQUESTS = 2048
CARDS = 8192
STORED = 1024
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A bounded map, least recently used first out; safe across threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._held: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K, make: Callable[[], V]) -> V:
        with self._lock:
            found = self._held.get(key, _MISSING)
            if found is not _MISSING:
                self._held.move_to_end(key)
                self.hits += 1
                return found  # type: ignore[return-value]
            self.misses += 1
        value = make()  # outside the lock: a slow rule blocks no other reader
        if self.size > 0:
            with self._lock:
                self._held[key] = value
                while len(self._held) > self.size:
                    self._held.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._held)


_MISSING = object()
Key = tuple[int, str, str, str]
"""A roll's shape: its game (by ``id``), and its sheet, form and variants as JSON."""


_SHAPE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False)
"""``json.dumps`` with these options builds this on every call; it holds only its options."""


def shape_key(value: Any) -> str | None:
    """The canonical JSON of a sheet, form or variants (None: not JSON, not kept)."""
    try:
        return _SHAPE.encode(value)
    except (TypeError, ValueError):
        return None


class RollCache:
    """The request, chances and card of each roll shape, shared by every table of a
    process (a table's sheets are part of the key, so nothing crosses between tables
    that would not be equal anyway)."""

    def __init__(self, requests: int = REQUESTS, cards: int = CARDS) -> None:
        self.requests: Lru[Key, tuple[Any, dict[str, Any], Template]] = Lru(requests)
        self.chances_of: Lru[tuple[int, str, str, str], Chances] = Lru(requests)
        self.cards: Lru[tuple[Hashable, ...], tuple[Card, Sheet | None]] = Lru(cards)
        self.stored: Lru[int, tuple[Card, Stored]] = Lru(min(cards, STORED))
        """Each card's JSON, by the card object (held, so that its id is not reused)."""
        self.sheets: Lru[int, tuple[Sheet, str | None]] = Lru(min(requests, STORED))
        """Each shared sheet's key, by the sheet (held, so that its id is not reused)."""
        self._games: dict[int, object] = {}
        """Each game a key names by ``id``, held so that the id is never reused."""

    def _key(
        self,
        rules: TableRules[Any, Any],
        sheet: Sheet,
        form: Mapping[str, Any],
        variants: Variants,
        shared: bool = False,
    ) -> tuple[int, str, str, str] | None:
        if shared:  # the store's own row: keyed once per sheet object
            shown = self.sheets.get(id(sheet), lambda: (sheet, shape_key(sheet)))[1]
        else:
            shown = shape_key(sheet)
        parts = (shown, shape_key(form), shape_key(variants))
        if parts[0] is None or parts[1] is None or parts[2] is None:
            return None
        self._games.setdefault(id(rules.game), rules.game)
        return (id(rules.game), parts[0], parts[1], parts[2])

    def stored_card(self, card: Card) -> Stored:
        """The card as its entry stores it, serialised once per card object: a card this
        cache hands out again is the same frozen object, so its JSON is the same too."""
        return self.stored.get(id(card), lambda: (card, Stored.of(to_jsonable(card))))[1]

    def chances(
        self, rules: TableRules[Any, Any], sheet: Sheet, form: Mapping[str, Any], variants: Variants
    ) -> Chances:
        """``rules.chances``: the odds of a roll from this sheet and form."""
        key = self._key(rules, sheet, form, variants)
        if key is None:
            return rules.chances(sheet, form, variants)
        return self.chances_of.get(key, partial(rules.chances, sheet, form, variants))

    def rolled(
        self,
        rules: TableRules[Any, Any],
        sheet: Sheet,
        form: Mapping[str, Any],
        variants: Variants,
        source: RandomSource,
        *,
        shared: bool = False,
    ) -> tuple[Play, Stored]:
        """``rules.roll``, the same play, its request and card worked out once per shape; and
        its record as the log stores it, whose params' texts are made once per shape too, so
        a roll serialises only its draws (the record is the play's own dict).
        ``shared``: the sheet is the store's own row, which nothing changes (``Store.character``):
        its key is worked out once per sheet object, and the rules get a copy."""
        key = self._key(rules, sheet, form, variants, shared)

        def mine() -> Sheet:  # what the rules are given: a copy of a shared sheet
            return json_copy(sheet) if shared else sheet

        if key is None:
            play = rules.roll(mine(), form, variants, source)
            return play, Stored.of(play.record)
        game = rules.game

        def request() -> tuple[Any, dict[str, Any], Template]:
            made = rules.request(mine(), form, variants)
            params = json.loads(json.dumps(game.dump(made)))
            return made, params, Template(make_record(ROLL, params, ()), ["draws"])

        made, params, template = self.requests.get(key, request)
        result, draws = recorded(partial(game.roll, made), source)
        record = make_record(ROLL, json_copy(params), draws)

        def card() -> tuple[Card, Sheet | None]:
            return game.card(result), rules.sheets.settle(mine(), result)

        shown, after = self.cards.get((key, draws), card)
        play = Play(record, shown, None if after is None else json_copy(after), shown.outcome)
        return play, template.of(record)
