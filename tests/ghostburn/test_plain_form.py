"""Issue 16: a raw check's plainly valid form is built at once (``plain_form_check``) and
its stacking and bands are remembered; each gives what the general path gives."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.canonical import canonical_json
from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import SeededSource
from rulebound.core.trace import Modifier
from rulebound.rulesets import forms
from rulebound.rulesets.ghostburn import game as game_module
from rulebound.rulesets.ghostburn.content import builtin_content
from rulebound.rulesets.ghostburn.game import Ghostburn
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.options import Options
from rulebound.rulesets.ghostburn.request import plain_form_check
from rulebound.rulesets.ghostburn.rules import (
    Bonus,
    BonusKind,
    band_thresholds,
    stack,
    stacked,
    thresholds_of,
)
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.variants import resolve

GAME = get_game("ghostburn")
CONTENT = builtin_content()
VARIANTS = [
    resolve(GAME.variants, {}),
    resolve(GAME.variants, {"off-ladder-dl": "snap-to-ladder", "bottom-fade": "open"}),
    {"off-ladder-dl": "keep-offset"},
]


def outcome(values: dict[str, Any], variants: dict[str, str]) -> tuple[str, Any]:
    """What the game reads ``values`` as, past its memo of forms (so a patch reaches it)."""
    try:
        check = GAME._request(values, variants)
    except RuleboundError as exc:
        return type(exc).__name__, str(exc)
    return "check", (check.payload, check.request, check.dump())


items = st.lists(
    st.sampled_from(("scope=2", "grip = 1", "x" * 61 + "=1", "a=21", "b=+2", "c", "=3", "d=007")),
    max_size=3,
) | st.sampled_from(([f"i{n}=1" for n in range(21)], None, "scope=2"))
numbers = st.integers(-25, 25) | st.sampled_from((None, True, "2"))


@given(
    st.fixed_dictionaries(
        {
            "dl": st.sampled_from(("Hard", "12", 12, "0", "101", "Brutal", None, "", 17)),
            "dl_shift": st.sampled_from((0, 1, -2, 6, None)),
            "chart": st.sampled_from(("default", "graded", "", None, "nonesuch")),
            "ability_score": numbers,
            "skill_bonus": numbers,
            "gear": items,
            "aug": items,
        },
        optional={
            "luck_points": st.sampled_from((0, 2, 120, None, True)),
            "luck_bonus": st.sampled_from((1, 3, 0, 25, None)),
            "trait": st.sampled_from((["resolve=Hard"], ["x"], [])),
        },
    ),
    st.sampled_from(VARIANTS),
)
def test_a_plain_form_is_the_general_paths_check_or_its_error(
    values: dict[str, Any], variants: dict[str, str]
) -> None:
    try:
        values = forms.read(GAME.fields, values)  # typed as the game gets them
    except RuleboundError:
        return
    fast = outcome(values, variants)
    with mock.patch.object(game_module, "plain_form_check", return_value=None):
        general = outcome(values, variants)
    assert fast == general


def test_the_benchmarks_form_takes_the_plain_path() -> None:
    raw = {"dl": 12, "ability_score": 3, "skill_bonus": 2, "gear": ["scope=2"]}
    values = forms.read(GAME.fields, raw)
    check = plain_form_check(values, VARIANTS[0], CONTENT)
    assert check is not None
    assert check == GAME.request(values, VARIANTS[0])


def test_a_remembered_form_is_the_check_and_roll_a_fresh_game_makes() -> None:
    game = Ghostburn()
    raw = {"dl": "Hard", "ability_score": 2, "gear": ["scope=2", "grip=1"], "luck_points": 1}
    first = game.request(forms.read(game.fields, raw), VARIANTS[0])
    again = game.request(forms.read(game.fields, raw), VARIANTS[0])
    assert again is first  # remembered
    fresh = Ghostburn()._request(forms.read(game.fields, raw), VARIANTS[0])
    assert first == fresh
    assert first.dump() == fresh.dump()
    rolled = [canonical_json(game.roll(check, SeededSource(7))) for check in (first, fresh)]
    assert rolled[0] == rolled[1]
    other = game.request(forms.read(game.fields, raw | {"ability_score": 3}), VARIANTS[0])
    assert other != first


def test_a_refused_form_is_never_remembered() -> None:
    game = Ghostburn()
    values = forms.read(game.fields, {"dl": "nonesuch"})
    errors = []
    for _ in range(2):
        with pytest.raises(RuleboundError) as refused:
            game.request(values, VARIANTS[0])
        errors.append(str(refused.value))
    assert errors[0] == errors[1]
    assert not len(game._requests)


kinds = st.sampled_from(list(BonusKind)[:4])
bonuses = st.builds(
    Bonus, kinds, st.sampled_from(("a", "b", "c")), st.integers(0, 5), st.sampled_from(("", "n"))
)


@given(st.lists(bonuses, min_size=1, max_size=6))
def test_stacked_lines_and_modifiers_are_stacks(candidates: list[Bonus]) -> None:
    lines, modifiers, total = stacked(tuple(candidates))
    assert lines == stack(candidates)
    want = tuple(Modifier(b.source, b.value, b.kind.value) for b in lines if b.applied)
    assert modifiers == want
    assert [type(m.kind) for m in modifiers] == [str] * len(modifiers)
    assert total == sum(m.value for m in want)
    assert stacked(list(candidates)) == (lines, modifiers, total)


def test_a_bool_bonus_is_not_taken_for_an_int_one() -> None:
    one = stacked((Bonus(BonusKind.ABILITY, "a", 1),))
    odd = stacked((Bonus(BonusKind.ABILITY, "a", True),))
    assert type(one[0][0].value) is int
    assert type(odd[0][0].value) is bool


@given(
    st.integers(1, 30),
    st.integers(-2, 2),
    st.sampled_from(("default", "graded")),
    st.sampled_from([Options(), Options.from_mapping(VARIANTS[1])]),
)
def test_remembered_bands_are_the_bands(
    base: int, shift: int, chart: str, options: Options
) -> None:
    try:
        difficulty = Difficulty.make(base, CONTENT.ladder, options, shift=shift)
    except RuleboundError:
        return
    the_chart = CONTENT.chart(chart)
    assert thresholds_of(difficulty, the_chart) == band_thresholds(difficulty, the_chart)
    assert thresholds_of(difficulty, the_chart) == band_thresholds(difficulty, the_chart)
