"""The roll cache (``web/rollcache``, issue 13) changes nothing a roll logs: for every game
with sheets, each of its quick rolls from a starter sheet, rolled on the same dice, gives
byte for byte the record, card, sheet after and summary the rules give uncached; refusals
are raised each time and never kept; what a reader gets is its own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleboundError
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.contract import Play
from rulebound.rulesets.plays import TableRules
from rulebound.web.rollcache import STORED, RollCache
from rulebound.web.settings import registry_games

GAMES = {key: game.table for key, game in registry_games().items() if game.table.game.sheets}
SEEDS = range(12)


def _bytes(play: Play) -> bytes:
    shown = {
        "record": play.record,
        "card": to_jsonable(play.card),
        "sheet": play.sheet,
        "summary": play.summary,
    }
    return json.dumps(to_jsonable(shown), sort_keys=True).encode()


def _shapes(rules: TableRules[Any, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    sheet = rules.sheets.starter("Ana")
    defaults = rules.sheets.dialog_values(sheet)
    quick = rules.sheets.quick_rolls(sheet)[:4]
    forms = [defaults | dict(q.values) for q in quick] or [defaults]
    return [(sheet, form) for form in forms]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_cached_roll_is_the_uncached_roll_byte_for_byte(key: str) -> None:
    rules, cache = GAMES[key], RollCache()
    shapes = _shapes(rules)
    compared = 0
    for sheet, form in shapes:
        for seed in SEEDS:
            try:
                plain = rules.roll(sheet, form, {}, SeededSource(seed))
            except RuleboundError:
                with pytest.raises(RuleboundError):
                    cache.rolled(rules, sheet, form, {}, SeededSource(seed))[0]
                continue
            for _ in range(2):  # the first fills the cache, the second reads it
                cached = cache.rolled(rules, sheet, form, {}, SeededSource(seed))[0]
                assert _bytes(cached) == _bytes(plain), (key, form, seed)
                compared += 1
    assert compared, f"{key}: no quick roll could be rolled"
    assert cache.requests.hits > 0
    assert cache.cards.hits > 0


@pytest.mark.parametrize("key", sorted(GAMES))
def test_cached_chances_are_the_uncached_chances(key: str) -> None:
    rules, cache = GAMES[key], RollCache()
    for sheet, form in _shapes(rules):
        try:
            plain = rules.chances(sheet, form, {})
        except RuleboundError:
            continue
        for _ in range(2):
            assert to_jsonable(cache.chances(rules, sheet, form, {})) == to_jsonable(plain)


def test_a_refused_form_is_refused_every_time_and_never_kept() -> None:
    rules, cache = GAMES["empty-reach"], RollCache()
    sheet = rules.sheets.starter("Ana")
    for _ in range(2):
        with pytest.raises(InvalidInput):
            cache.rolled(rules, sheet, {"skill": "No such skill"}, {}, SeededSource(1))[0]
    assert len(cache.requests) == 0
    assert cache.requests.misses == 2


def test_equal_shapes_share_a_key_and_another_sheet_does_not() -> None:
    rules, cache = GAMES["empty-reach"], RollCache()
    sheet = rules.sheets.starter("Ana")
    reordered = dict(reversed(list(sheet.items())))
    cache.rolled(rules, sheet, {"skill": "Force"}, {}, SeededSource(1))[0]
    cache.rolled(rules, reordered, {"skill": "Force"}, {}, SeededSource(2))[0]
    assert (len(cache.requests), cache.requests.hits) == (1, 1)
    cache.rolled(rules, dict(sheet, name="Bea"), {"skill": "Force"}, {}, SeededSource(3))[0]
    assert len(cache.requests) == 2


def test_what_a_reader_gets_is_its_own() -> None:
    rules, cache = GAMES["empty-reach"], RollCache()
    sheet = rules.sheets.starter("Ana")
    first = cache.rolled(rules, sheet, {"skill": "Force"}, {}, SeededSource(5))[0]
    before = _bytes(first)
    first.record.clear()
    if first.sheet is not None:
        first.sheet.clear()
    again = cache.rolled(rules, sheet, {"skill": "Force"}, {}, SeededSource(5))[0]
    assert _bytes(again) == before


class Meddling:
    """A game's rules that write on the sheets they are given (no real game does)."""

    def __init__(self, rules: TableRules[Any, Any]) -> None:
        self.rules, self.game, self.sheets = rules, rules.game, rules.sheets

    def request(self, sheet: dict[str, Any], form: Any, variants: Any) -> Any:
        made = self.rules.request(sheet, form, variants)
        sheet["meddled"] = True
        return made

    def roll(self, sheet: dict[str, Any], form: Any, variants: Any, source: Any) -> Play:
        sheet["meddled"] = True
        return self.rules.roll(sheet, form, variants, source)


def test_a_shared_sheet_is_keyed_once_and_never_reaches_the_rules() -> None:
    """The store's own row (``Store.character(shared=True)``) is keyed once per sheet object
    and the rules get a copy of it: a roll from it is the roll from a copy."""
    rules, cache = GAMES["empty-reach"], RollCache()
    sheet = rules.sheets.starter("Ana")
    before = json.dumps(sheet, sort_keys=True)
    meddling: Any = Meddling(rules)
    for seed in range(3):
        shared, record = cache.rolled(
            meddling, sheet, {"skill": "Force"}, {}, SeededSource(seed), shared=True
        )
        plain = rules.roll(dict(sheet), {"skill": "Force"}, {}, SeededSource(seed))
        assert _bytes(shared) == _bytes(plain)
        assert record.value is shared.record
    assert json.dumps(sheet, sort_keys=True) == before
    assert (len(cache.sheets), cache.sheets.hits) == (1, 2)
    odd = {"name": "Ana", "tags": {1, 2}}  # not JSON: no key, rolled uncached, still a copy
    with pytest.raises(RuleboundError):
        cache.rolled(meddling, odd, {"skill": "Force"}, {}, SeededSource(1), shared=True)
    assert "meddled" not in odd


def test_the_cache_is_bounded() -> None:
    rules, cache = GAMES["empty-reach"], RollCache(requests=2, cards=3)
    sheet = rules.sheets.starter("Ana")
    for n in range(6):
        cache.rolled(rules, dict(sheet, name=f"N{n}"), {"skill": "Force"}, {}, SeededSource(n))[0]
    assert len(cache.requests) == 2
    assert len(cache.cards) == 3


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_cards_json_is_made_once_per_card_and_is_the_card_as_stored(key: str) -> None:
    rules, cache = GAMES[key], RollCache()
    for sheet, form in _shapes(rules):
        for seed in SEEDS[:4]:
            try:
                play = cache.rolled(rules, sheet, form, {}, SeededSource(seed))[0]
            except RuleboundError:
                continue
            stored = cache.stored_card(play.card)
            assert stored.text == json.dumps(to_jsonable(play.card))
            assert stored.value == json.loads(stored.text)
            again = cache.rolled(rules, sheet, form, {}, SeededSource(seed))[0]
            assert again.card is play.card  # the cards cache hands out the same object
            assert cache.stored_card(again.card) is stored
    assert cache.stored.hits > 0


def test_the_cards_json_is_bounded() -> None:
    rules, cache = GAMES["empty-reach"], RollCache(cards=3)
    sheet = rules.sheets.starter("Ana")
    for n in range(6):
        play = cache.rolled(
            rules, dict(sheet, name=f"N{n}"), {"skill": "Force"}, {}, SeededSource(n)
        )[0]
        cache.stored_card(play.card)
    assert len(cache.stored) == 3
    assert RollCache().stored.size == STORED
