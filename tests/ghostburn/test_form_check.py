"""A raw check from a form skips the JSON request's second validation (issue 16): for
every payload, ``form_check`` must give the check ``make_check`` gives, or its error."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import RuleboundError
from rulebound.rulesets import forms
from rulebound.rulesets.ghostburn.content import builtin_content
from rulebound.rulesets.ghostburn.request import form_check, make_check
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.variants import resolve

CONTENT = builtin_content()
GAME = get_game("ghostburn")
VARIANTS = resolve(GAME.variants, {})


def outcome(make: Any, *args: Any) -> tuple[str, Any]:
    try:
        check = make(*args)
    except RuleboundError as exc:
        return type(exc).__name__, str(exc)
    return "check", (check.payload, check.request, check.dump())


numbers = st.integers(-25, 25) | st.sampled_from((True, 2.0, "3", None))
items = st.lists(
    st.fixed_dictionaries({"name": st.text("ab ", min_size=0, max_size=62), "bonus": numbers}),
    max_size=22,
) | st.sampled_from(((), "scope", [["scope", 2]], [{"name": "x", "bonus": 1, "skill": "a"}]))
variants = st.sampled_from(
    (
        VARIANTS,
        resolve(GAME.variants, {v.key: v.choices[-1] for v in GAME.variants}),
        {},
        {**VARIANTS, "extra": "x"},
        {GAME.variants[0].key: "Snap To Ladder"},
    )
)
payloads = st.fixed_dictionaries(
    {
        "dl": st.sampled_from(("Hard", "hard", "12", 12, "0", 0, 101, "Brutal", None, 1.5)),
        "dl_shift": st.sampled_from((0, 1, -2, 3, "1", None)),
        "chart": st.sampled_from(("default", "", None, "nonesuch", 3)),
        "ability_score": numbers,
        "skill_bonus": numbers,
        "gear": items,
        "augs": items,
    },
    optional={
        "luck_points": numbers,
        "luck_bonus": numbers,
        "skill": st.just("firearms"),
        "character": st.just({"name": "x"}),
    },
)


@given(payloads, variants)
def test_a_form_check_is_the_json_requests_check_or_its_error(
    payload: dict[str, Any], chosen: dict[str, str]
) -> None:
    full = {**payload, "variants": dict(chosen)}
    want = outcome(make_check, dict(full), CONTENT)
    assert outcome(form_check, dict(full), chosen, CONTENT) == want


@given(
    st.fixed_dictionaries(
        {
            "dl": st.sampled_from(("Hard", "12", "Brutal", "")),
            "ability_score": st.integers(-25, 25),
            "skill_bonus": st.integers(-2, 25),
            "gear": st.lists(st.sampled_from(("scope=2", "grip=1", "x" * 61 + "=1")), max_size=3),
            "aug": st.lists(st.sampled_from(("eye=3", "leg=12")), max_size=2),
            "luck_bonus": st.sampled_from(("", "2", "30")),
        }
    )
)
def test_the_games_raw_request_keeps_the_json_it_was_checked_as(raw: dict[str, Any]) -> None:
    try:
        values = forms.read(GAME.fields, raw)
    except RuleboundError:
        return
    got = outcome(GAME.request, values, VARIANTS)
    if got[0] == "check":
        payload = got[1][0]
        assert outcome(make_check, payload, CONTENT) == got
    else:
        assert got[1]  # refused with a message (the JSON request's own, as above)


def test_the_benchmarks_form_is_answered_without_revalidating() -> None:
    raw = {"dl": 12, "ability_score": 3, "skill_bonus": 2, "gear": ["scope=2"]}
    check = GAME.request(forms.read(GAME.fields, raw), VARIANTS)
    assert check.request.modifier == 3 + 2 + 2
    assert check.dump()["request"]["gear"] == [{"name": "scope", "bonus": 2}]
    assert check == make_check(check.dump()["request"], CONTENT)


PLAIN = {
    "dl": "Hard",
    "dl_shift": 0,
    "chart": "default",
    "ability_score": 2,
    "skill_bonus": 1,
    "gear": [{"name": "scope", "bonus": 2}],
    "augs": [],
}
EDGES: list[tuple[dict[str, Any], dict[str, str]]] = [
    ({}, VARIANTS),
    ({}, {**VARIANTS, "extra": "x"}),
    ({}, {GAME.variants[0].key: "Snap To Ladder"}),
    ({}, {}),
    ({"gear": [{"name": "x" * 60, "bonus": 1}]}, VARIANTS),
    ({"gear": [{"name": "x" * 61, "bonus": 1}]}, VARIANTS),
    ({"gear": [{"name": "", "bonus": 1}]}, VARIANTS),
    ({"augs": [{"name": f"a{i}", "bonus": 1} for i in range(20)]}, VARIANTS),
    ({"augs": [{"name": f"a{i}", "bonus": 1} for i in range(21)]}, VARIANTS),
    ({"gear": [{"name": "scope", "bonus": True}]}, VARIANTS),
    ({"ability_score": 2.0}, VARIANTS),
    ({"dl": None}, VARIANTS),
    ({"luck_bonus": 3}, VARIANTS),
    ({"luck_points": 2}, VARIANTS),
    ({"luck_points": 1, "luck_bonus": 0}, VARIANTS),
    ({"skill": "firearms"}, VARIANTS),
]


def test_each_edge_of_the_plain_form_reads_as_the_json_request() -> None:
    for change, chosen in EDGES:
        payload = {**PLAIN, **change, "variants": dict(chosen)}
        want = outcome(make_check, dict(payload), CONTENT)
        assert outcome(form_check, dict(payload), chosen, CONTENT) == want, change or chosen
