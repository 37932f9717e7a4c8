"""Every registered game honours the one contract that every front end relies on.

Generic over the registry, so a new game (or a plug-in) is checked by the same tests:
requests round-trip through their JSON, rolls replay exactly from their records and
refuse surplus or missing draws, chances are a true partition, cards and follow-ups
are well formed, sheets validate what they make.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rulebound.core.errors import InvalidInput, RuleboundError, UnknownRuleset
from rulebound.core.random_source import SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Chances, Field, Game, Params
from rulebound.rulesets.plays import TableRules, follow_play, replay, roll_play
from rulebound.rulesets.registry import game_keys, get_game
from rulebound.rulesets.variants import resolve

SAMPLES: dict[str, dict[str, Any]] = {
    "empty-reach": {"attribute": "D8", "skill": "D10", "skill_name": "Force", "helpers": "1"},
    "rainwall": {"dice": "7", "skill": "5", "dr": "4", "bonus": "3"},
    "ghostburn": {"dl": "Hard", "ability_score": "3", "skill_bonus": "1"},
    "legacy": {"score": "35", "difficulty": "challenging"},
}
"""A raw request per game, as a CLI or API client would type it (by field name or flag)."""

KEYS = [key for key in game_keys() if key in SAMPLES]


def test_the_four_games_are_registered() -> None:
    assert sorted(KEYS) == ["empty-reach", "ghostburn", "legacy", "rainwall"]
    assert set(SAMPLES) <= set(game_keys())


def test_unknown_key_names_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset) as error:
        get_game("not-a-game")
    assert "empty-reach" in str(error.value)


def values(game: Game[Any, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Raw values keyed by field name, or by a field's CLI flag (with dashes)."""
    by_flag = {f.cli_flag.replace("-", "_"): f.name for f in game.fields}
    keyed = {by_flag.get(k, k): v for k, v in raw.items()}
    return forms.read(game.fields, keyed)


def sample(key: str) -> tuple[Game[Any, Any], Any]:
    game = get_game(key)
    return game, game.request(values(game, SAMPLES[key]), resolve(game.variants, {}))


@pytest.mark.parametrize("key", KEYS)
def test_game_implements_the_contract(key: str) -> None:
    game = get_game(key)
    assert isinstance(game, Game)
    assert game.key == key
    assert game.title
    for variant in game.variants:
        assert variant.default in variant.choices
        assert variant.summary
        assert variant.label, f"{key}: variant {variant.key} needs a label in words"
        assert len(variant.choice_labels) == len(variant.choices), variant.key
        assert len(variant.hints) in (0, len(variant.choices)), variant.key  # one per choice
        assert variant.choices[0] == variant.default, variant.key  # listed default first
    names = [f.name for f in (*game.fields, *game.odds_fields)]
    assert len(names) == len(set(names)), f"{key}: a field name is repeated"
    for spec in game.follow_flags:
        assert spec.flag
        assert spec.action


@pytest.mark.parametrize("key", KEYS)
def test_request_round_trips_through_its_json(key: str) -> None:
    game, request = sample(key)
    dumped = json.loads(json.dumps(game.dump(request)))
    assert "kind" not in dumped
    assert "draws" not in dumped
    assert game.load(dumped) == request


def _strategy(field: Field) -> st.SearchStrategy[Any] | None:
    if field.kind == "int":
        low = field.minimum if field.minimum is not None else -5
        high = field.maximum if field.maximum is not None else low + 30
        return st.integers(low, min(high, low + 60)).map(str)
    if field.kind == "bool":
        return st.booleans()
    if field.kind == "select" and field.choices:
        return st.sampled_from([c.value for c in field.choices])
    if field.kind == "multiselect" and field.choices:
        return st.lists(st.sampled_from([c.value for c in field.choices]), max_size=3, unique=True)
    return None


@st.composite
def raw_requests(draw: st.DrawFn, key: str) -> dict[str, Any]:
    game = get_game(key)
    raw = dict(SAMPLES[key])
    for field in game.fields:
        strategy = _strategy(field)
        if strategy is not None and draw(st.booleans()):
            raw[field.name] = draw(strategy)
    return raw


@pytest.mark.parametrize("key", KEYS)
def test_any_valid_request_round_trips(key: str) -> None:
    game = get_game(key)
    variants = resolve(game.variants, {})

    @given(raw_requests(key), st.sampled_from([v.key for v in game.variants] or [""]))
    def check(raw: dict[str, Any], flipped: str) -> None:
        chosen = dict(variants)
        if flipped:
            variant = next(v for v in game.variants if v.key == flipped)
            chosen[flipped] = variant.choices[-1]
        try:
            request = game.request(values(game, raw), chosen)
        except RuleboundError:
            assume(False)
            return
        assert game.load(json.loads(json.dumps(game.dump(request)))) == request

    check()


@pytest.mark.parametrize("key", KEYS)
def test_roll_replays_exactly_from_its_record(key: str) -> None:
    game, request = sample(key)
    for seed in range(20):
        result, record = roll_play(game, request, SeededSource(seed))
        assert record["kind"] == "roll"
        again = replay(game, [json.loads(json.dumps(record))])
        assert game.card(again) == game.card(result)


@pytest.mark.parametrize("key", KEYS)
def test_surplus_or_missing_draws_are_refused(key: str) -> None:
    game, request = sample(key)
    _, record = roll_play(game, request, SeededSource(3))
    surplus = {**record, "draws": [*record["draws"], record["draws"][0], record["draws"][0]]}
    missing = {**record, "draws": record["draws"][:-1]}
    wrong_kind = {**record, "draws": [[7, 1], *record["draws"][1:]]}
    for bad in (surplus, missing, wrong_kind):
        with pytest.raises(RuleboundError):
            replay(game, [bad])


def _check_partition(chances: Chances) -> None:
    assert chances.outcomes
    assert sum(o.probability for o in chances.outcomes) == 1
    assert all(0 <= o.probability <= 1 for o in chances.outcomes)
    assert chances.success == sum(o.probability for o in chances.outcomes if o.success)
    mapping = chances.as_mapping()
    assert next(iter(mapping)) == chances.success_label
    for extra in chances.extras:
        assert isinstance(extra.value, Fraction)
        if extra.kind == "probability":
            assert 0 <= extra.value <= 1, extra.key


@pytest.mark.parametrize("key", KEYS)
def test_chances_are_a_true_partition(key: str) -> None:
    game, request = sample(key)
    _check_partition(game.chances(request))
    _check_partition(game.odds(values(game, SAMPLES[key]), resolve(game.variants, {})))


@pytest.mark.parametrize("key", KEYS)
def test_chances_match_the_dice_in_the_long_run(key: str) -> None:
    """A loose check that the exact chance and the roller read the same rules."""
    game, request = sample(key)
    p = float(game.chances(request).success)
    wins = sum(
        bool(game.card(roll_play(game, request, SeededSource(s))[0]).succeeded) for s in range(600)
    )
    assert abs(wins / 600 - p) < 0.08


@pytest.mark.parametrize("key", KEYS)
def test_cards_and_follow_ups_are_well_formed(key: str) -> None:
    game, request = sample(key)
    for seed in range(10):
        result, _ = roll_play(game, request, SeededSource(seed))
        card = game.card(result)
        assert card.title
        assert card.outcome
        assert [a.key for a in card.actions] == [a.key for a in game.follow_ups(result)]
        for action in card.actions:
            assert action.label
            assert action.available or action.reason
            for field in action.fields:
                assert field.label


@pytest.mark.parametrize("key", KEYS)
def test_sheets_validate_what_they_make(key: str) -> None:
    game = get_game(key)
    assert game.sheets is not None, f"{key} has character sheets"
    table = TableRules(game)
    sheet = table.new_sheet("Ana")
    assert table.validate_sheet(sheet) == sheet
    assert table.validate_sheet(json.loads(json.dumps(sheet))) == sheet
    view = table.sheet_view(sheet)
    assert any(f.name == "name" for f in view.fields)
    assert all(f.label for f in table.dialog(sheet))
    assert game.sheets.choice_fields
    with pytest.raises(InvalidInput) as error:
        table.validate_sheet({**sheet, "name": ""})
    assert error.value.field.startswith("name")


BLANKS = ("", " ", "\x85", "\t\n")
"""What a form box left empty (or holding only white space) posts: a value not given."""


def _outcome(act: Callable[[], Any]) -> Any:
    """What a call gives: its play's record, or the kind of refusal and the field named."""
    try:
        play = act()
    except RuleboundError as refused:
        return type(refused).__name__, getattr(refused, "field", None)
    return getattr(play, "record", play)


def _blank_reads_as_nothing(act: Callable[[Params], Any], given: Params, field: Field) -> int:
    """``act`` gives the same with ``field`` blank as with it left out (a list field: as with
    it chosen empty); how many blanks were tried."""
    without = {k: v for k, v in given.items() if k != field.name}
    nothing = {**without, field.name: []} if field.repeated else without
    expected = _outcome(partial(act, nothing))
    for blank in BLANKS:
        got = _outcome(partial(act, {**without, field.name: blank}))
        assert got == expected, (field.name, blank)
    return len(BLANKS)


@pytest.mark.parametrize("key", KEYS)
def test_a_blank_param_is_a_param_not_given(key: str) -> None:
    """Every follow-up and sheet action of every game reads a blank param as not given (a
    list as chosen empty): the game never sees the raw text (a whitespace-only Health once
    reached the Empty Reach's heal as a string, and the server answered 500)."""
    game, request = sample(key)
    checked = 0
    for seed in range(20):
        result, _ = roll_play(game, request, SeededSource(seed))
        for view in game.follow_ups(result):
            if not view.available:
                continue
            defaults = {f.name: f.default for f in view.fields if f.default is not None}

            def follow(
                params: Params, rolled: Any = result, action: str = view.key, seed: int = seed
            ) -> Any:
                return follow_play(game, rolled, action, params, SeededSource(seed))

            for field in view.fields:
                checked += _blank_reads_as_nothing(follow, defaults, field)
    table = TableRules(game)
    sheet = table.new_sheet("Ana")
    for view in table.sheet_actions(sheet, {}):

        def act(params: Params, action: str = view.key) -> Any:
            return table.sheet_act(sheet, action, params, {}, SeededSource(1))

        for field in view.fields:
            checked += _blank_reads_as_nothing(act, {}, field)
    assert checked > 0
