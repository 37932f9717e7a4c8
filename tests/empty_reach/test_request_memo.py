"""The Empty Reach remembers a repeated form's request and prepared check (issue 16).

A hit must be the very value a fresh game works out (byte for byte through a roll, a
push and a replay); a refusal is never kept and reads the same every time; the memos
are bounded; and forms that differ only in a value's type are told apart.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.core.canonical import canonical_json
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.empty_reach import roll as roll_module
from rulebound.rulesets.empty_reach.flow import offers
from rulebound.rulesets.empty_reach.game import MAX_REMEMBERED, EmptyReach
from rulebound.rulesets.empty_reach.roll import EmptyReachResult
from rulebound.rulesets.form_memo import plain_key
from rulebound.rulesets.plays import follow_play, replay, roll_play
from rulebound.rulesets.variants import resolve

DICE = ("D6", "D8", "D10", "D12")
GAME = EmptyReach()


def _written(game: EmptyReach, raw: dict[str, Any], chosen: dict[str, str], seed: int) -> str:
    """Everything a roll and its push write, as canonical JSON."""
    variants = resolve(game.variants, chosen)
    request = game.request(forms.read(game.fields, raw), variants)
    result, record = roll_play(game, request, SeededSource(seed))
    assert isinstance(result, EmptyReachResult)
    parts = [canonical_json(result), canonical_json(record), canonical_json(game.card(result))]
    records = [json.loads(json.dumps(record))]
    chosen_dice = result.default_reroll() or result.rerollable()
    if "push" in offers(result) and chosen_dice:
        params = {"reroll": list(chosen_dice)}
        pushed, follow = follow_play(game, result, "push", params, SeededSource(seed + 1))
        parts += [canonical_json(pushed), canonical_json(follow), canonical_json(game.card(pushed))]
        records.append(json.loads(json.dumps(follow)))
    parts.append(canonical_json(replay(game, records)))
    return "\n".join(parts)


forms_drawn = st.fixed_dictionaries(
    {"attribute_die": st.sampled_from(DICE), "skill_die": st.sampled_from(DICE)},
    optional={
        "helpers": st.integers(0, 3),
        "difficulty": st.integers(-3, 3),
        "modifier": st.integers(-2, 2),
        "passive": st.booleans(),
        "gear": st.sampled_from(["rope:1", "scope:2:D8", "kit:3:D6,D6"]),
    },
)


@settings(max_examples=40, deadline=None)
@given(
    raw=forms_drawn, gear_banes=st.sampled_from(["base-dice", "gear-dice"]), seed=st.integers(0, 99)
)
def test_a_remembered_form_writes_what_a_fresh_game_writes(
    raw: dict[str, Any], gear_banes: str, seed: int
) -> None:
    chosen = {"gear_banes": gear_banes}
    first = _written(GAME, raw, chosen, seed)
    again = _written(GAME, raw, chosen, seed)  # the shared game's memos hit now
    memos = (roll_module._PLANS, roll_module._CHECK_PLANS, roll_module._REROLLS)
    for memo in (*memos, roll_module._CARRIED):
        memo.clear()
    fresh = _written(EmptyReach(GAME.game_content), raw, chosen, seed)
    assert first == again == fresh


def test_a_repeated_form_gives_the_same_request_and_check() -> None:
    game = EmptyReach()
    variants = resolve(game.variants, {})
    raw = {"attribute_die": "D8", "skill_die": "D10", "helpers": 2}
    first = game.request(forms.read(game.fields, raw), variants)
    second = game.request(forms.read(game.fields, raw), variants)
    assert first is second
    assert game.prepare(first) is game.prepare(second)
    fresh = EmptyReach(game.game_content)
    assert fresh.prepare(fresh.request(forms.read(fresh.fields, raw), variants)) == game.prepare(
        first
    )


@pytest.mark.parametrize(
    ("values", "error"),
    [
        ({"attribute_die": "D7", "skill_die": "D10"}, InvalidInput),
        ({"attribute_die": "D8", "skill_die": "D10", "opposed_skill": "D8"}, InvalidInput),
        ({"attribute_die": "D8", "skill_die": "D10", "gear": "rope"}, InvalidInput),
    ],
)
def test_a_refused_form_is_never_kept(values: dict[str, Any], error: type[Exception]) -> None:
    game = EmptyReach()
    variants = resolve(game.variants, {})
    with pytest.raises(error) as first:
        game.request(values, variants)
    with pytest.raises(error) as second:
        game.request(values, variants)
    assert str(first.value) == str(second.value)
    assert not game._requests


def test_a_refused_check_is_never_kept() -> None:
    game = EmptyReach()
    request = game.request(
        {"attribute_die": "D8", "skill_die": "D10", "gear": "rope:0"}, resolve(game.variants, {})
    )
    for _ in range(2):
        with pytest.raises(RuleViolation, match="gear bonus 0"):
            game.prepare(request)
    assert not game._prepared


def test_the_memos_are_bounded() -> None:
    game = EmptyReach()
    roll_module._PLANS.clear()
    variants = resolve(game.variants, {})
    for difficulty in range(-9, 10):
        for modifier in range(-9, 10):
            values = {"attribute_die": "D8", "skill_die": "D6", "difficulty": difficulty}
            request = game.request(values | {"modifier": modifier}, variants)
            game.roll(request, SeededSource(modifier))
            assert len(game._requests) <= MAX_REMEMBERED
            assert len(game._prepared) <= MAX_REMEMBERED
            assert len(roll_module._CHECK_PLANS) <= roll_module.MAX_REMEMBERED
    assert len(roll_module._PLANS) <= 4 * 5  # one per pool (no extra dice here), not per form
    assert MAX_REMEMBERED < 19 * 19


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ({"helpers": 1}, {"helpers": True}),
        ({"passive": 0}, {"passive": False}),
        ({"situations": ["stealth-blend-in"]}, {"situations": ("stealth-blend-in",)}),
    ],
)
def test_forms_that_differ_in_a_type_are_told_apart(
    one: dict[str, Any], other: dict[str, Any]
) -> None:
    variants = resolve(GAME.variants, {})
    base = {"attribute_die": "D8", "skill_die": "D10"}
    assert plain_key(base | one, variants) != plain_key(base | other, variants)
    for first, second in ((one, other), (other, one)):
        game = EmptyReach(GAME.game_content)
        outcomes = []
        for values in (first, second):
            try:
                outcomes.append(repr(game.request(base | values, variants)))
            except (InvalidInput, RuleViolation) as exc:
                outcomes.append(f"{type(exc).__name__}: {exc}")
        fresh = EmptyReach(GAME.game_content)
        try:
            expected = repr(fresh.request(base | second, variants))
        except (InvalidInput, RuleViolation) as exc:
            expected = f"{type(exc).__name__}: {exc}"
        assert outcomes[1] == expected


def test_forms_with_other_values_are_not_remembered() -> None:
    variants = resolve(GAME.variants, {})
    base = {"attribute_die": "D8", "skill_die": "D10"}
    assert plain_key(base | {"helpers": 1.0}, variants) is None
    assert plain_key(base | {"situations": [1]}, variants) is None
    assert plain_key(base, {"gear_banes": 1}) is None  # type: ignore[dict-item]
    assert plain_key(base, variants) is not None


def test_record_memos_are_bounded_and_share_equal_records() -> None:
    from rulebound.core.trace import DieRecord, DieState

    for face in range(1, 2 * roll_module.MAX_REMEMBERED + 2):
        die = DieRecord("D8", 8, face % 8 + 1, "skill")
        made = roll_module._rerolled(die, 3, True)
        assert made == die.rerolled(3, roll_module._marks(3, True))
        assert roll_module._carried(die) == die.with_state(
            DieState.KEPT if face % 8 + 1 != 1 else DieState.LOCKED
        )
        assert len(roll_module._REROLLS) <= roll_module.MAX_REMEMBERED
        assert len(roll_module._CARRIED) <= roll_module.MAX_REMEMBERED


# ``HEAD_DIGEST``: the SHA-256 of what the tree at 6562abf (before the memos) wrote for this
# corpus: each form twice (the second time the memos hit), both gear-bane readings, two
# seeds; the roll, its record and card, the push (the default choice) with its record and
# card, and the replayed chain, or a refused form's error text.
HEAD_DIGEST = "399b59ac7f1267fc232b6ba5e2ea6a64e6539456b7b422d2bf3a4d108c98dd6b"
EXTRAS: tuple[dict[str, Any], ...] = (
    {},
    {"helpers": 2},
    {"difficulty": -2},
    {"modifier": 3},
    {"passive": True},
    {"gear": "scope:2:D8"},
    {"gear": "kit:1:D6,D6"},
    {"situations": ["stealth-blend-in"]},
    {"helpers": 9},
    {"attribute_die": "D7"},
)


def test_the_corpus_writes_what_it_wrote_before_the_memos() -> None:
    game, digest, written = EmptyReach(), hashlib.sha256(), 0
    cases = itertools.product(DICE, DICE, EXTRAS, ("base-dice", "gear-dice"), range(2))
    for attribute, skill, extra, banes, seed in cases:
        raw = {"attribute_die": attribute, "skill_die": skill} | extra
        for _ in range(2):
            try:
                text = _written(game, raw, {"gear_banes": banes}, seed)
            except (InvalidInput, RuleViolation) as exc:
                text = f"{type(exc).__name__}: {exc}"
            digest.update(text.encode())
            written += 1
    assert written == 1280
    assert digest.hexdigest() == HEAD_DIGEST
