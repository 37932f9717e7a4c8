"""Issue 16: a raw check's request built at once, a single roll without ``finish``, and
the shared die records give exactly what the classes give (or their errors)."""

from __future__ import annotations

from typing import Any
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import SeededSource
from rulebound.core.trace import DieRecord, DieState
from rulebound.rulesets import forms
from rulebound.rulesets.legacy import request as request_module
from rulebound.rulesets.legacy.checks import CheckRequest, plain_request, roll_check
from rulebound.rulesets.legacy.content import builtin_catalogue, using
from rulebound.rulesets.legacy.rules import Edge
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.variants import resolve

GAME = get_game("legacy")


def outcome(make: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        made = make(*args, **kwargs)
    except RuleboundError as exc:
        return type(exc).__name__, str(exc)
    return "made", made


numbers = st.integers(-3, 210) | st.sampled_from((None, True, 2.5))


@given(
    st.fixed_dictionaries(
        {
            "score": st.integers(-1, 201) | st.sampled_from((True, 3.0)),
            "bonus": numbers,
            "rank": st.sampled_from((None, 0, 1, 3, 6, 7, True)),
            "difficulty": st.sampled_from(("challenging", "Very Hard", "easy", "hard", "x", 3)),
            "advantage": st.booleans() | st.just(1),
            "disadvantage": st.booleans(),
            "scale": st.sampled_from(("as-written", "d100", "Halved", "d12")),
            "target": st.integers(-201, 201) | st.sampled_from((None, False)),
            "label": st.sampled_from(("", "opponent")),
            "affinity_bonus": st.sampled_from(("rank-table", "five per rank", "nope")),
        }
    )
)
def test_a_plain_request_is_the_classs_request_or_its_error(values: dict[str, Any]) -> None:
    with using(builtin_catalogue()):
        got = outcome(plain_request, **values)
        want = outcome(CheckRequest, **values)
    assert got == want
    if got[0] == "made":
        assert [type(getattr(got[1], n)) for n in CheckRequest.__slots__] == [
            type(getattr(want[1], n)) for n in CheckRequest.__slots__
        ]


forms_raw = st.fixed_dictionaries(
    {"target": st.integers(-5, 25) | st.none(), "score": st.sampled_from((None, 40, "55"))},
    optional={
        "bonus": st.integers(0, 4),
        "rank": st.integers(1, 6),
        "difficulty": st.sampled_from(("easy", "difficult")),
        "advantage": st.booleans(),
        "situations": st.sampled_from((["night"], [])),
        "opposed.target": st.integers(1, 20),
        "opposed.score": st.just(30),
        "success_threshold": st.just(10),
        "failure_threshold": st.just(5),
        "max_rolls": st.just(3),
        "rolls": st.just(2),
    },
)


@given(forms_raw, st.sampled_from(("as-written", "d100")))
def test_a_single_raw_roll_is_finishs_roll(raw: dict[str, Any], scale: str) -> None:
    variants = resolve(GAME.variants, {"scale": scale})
    try:
        values = forms.read(GAME.fields, raw)
    except RuleboundError:
        return
    fast = outcome(GAME.request, values, variants)
    # a check names a target or a score, so with these as "the other side" every roll
    # goes through ``finish``, as before this stop
    with mock.patch.object(request_module, "_OTHER_SIDE", ("score", "target")):
        general = outcome(GAME.request, values, variants)
    assert fast == general


@given(
    st.integers(0, 2**32),
    st.sampled_from((None, 8, 15)),
    st.booleans(),
    st.booleans(),
    st.sampled_from(("as-written", "d100")),
)
def test_shared_dice_are_the_records_the_roll_describes(
    seed: int, target: int | None, advantage: bool, disadvantage: bool, scale: str
) -> None:
    with using(builtin_catalogue()):
        request = CheckRequest(
            score=45, target=target, advantage=advantage, disadvantage=disadvantage, scale=scale
        )
        result = roll_check(request, SeededSource(seed))
    die = result.thresholds.die
    count = 1 if result.edge is Edge.NONE else 2
    faces = [draw.face for draw in result.provenance.draws]
    kept = 0
    if result.edge is Edge.ADVANTAGE:
        kept = faces.index(min(faces))
    elif result.edge is Edge.DISADVANTAGE:
        kept = faces.index(max(faces))
    want = tuple(
        DieRecord(
            f"d{die} #{i + 1}",
            die,
            face,
            role="check",
            state=DieState.KEPT if count > 1 and i == kept else DieState.ROLLED,
            marks=(() if count == 1 else ("kept",) if i == kept else ("dropped",)),
        )
        for i, face in enumerate(faces)
    )
    assert result.dice == want
    assert result.face == faces[kept]


def test_a_plain_request_and_its_numbers_are_remembered_by_value() -> None:
    from rulebound.rulesets.legacy.checks import _resolve, resolve

    with using(builtin_catalogue()):
        args = (40, None, 2, "difficult", False, True, "d100", None, "", "rank-table")
        first, again = plain_request(*args), plain_request(*args)
        assert first is again  # the same immutable request
        assert plain_request(*args[:-2], "opponent", args[-1]) is not first
        assert resolve(first) is resolve(again)
        assert resolve(first) == _resolve(first)
        other = CheckRequest(score=40, rank=2, difficulty="difficult", disadvantage=True)
        assert resolve(other) == _resolve(other) != resolve(first)  # another scale
