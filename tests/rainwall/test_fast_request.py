"""Issue 16: a form's request built at once, the shared die records and the outcome
table give exactly what the classes and the rules functions give (or their errors)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.errors import RuleboundError
from rulebound.core.trace import DieRecord, DieState, Provenance
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.request import RainwallRequest, form_request
from rulebound.rulesets.rainwall.roll import evaluate
from rulebound.rulesets.rainwall.rules import Options

numbers = st.integers(-2, 101) | st.sampled_from((True, False, 2.0, "3", None))
OPTIONS = [
    Options.from_mapping({}),
    Options.from_mapping({"success-face": "strictly-under", "miss-ios": "skip-zero"}),
    Options.from_mapping({"barely": "below-critical"}),
]


def outcome(make: Any, *args: Any) -> tuple[str, Any]:
    try:
        made = make(*args)
    except RuleboundError as exc:
        return type(exc).__name__, str(exc)
    return "request", (made, [type(getattr(made, n)) for n in made.__slots__])


def by_class(values: dict[str, Any], options: Options) -> RainwallRequest:
    return RainwallRequest(
        dice=values["dice"],
        skill=values["skill"],
        dr=values["dr"],
        bonus=values.get("bonus", 0),
        options=options,
        trait_name=values.get("trait_name") or "",
        skill_name=values.get("skill_name") or "",
    ).checked()


@given(
    st.fixed_dictionaries(
        {"dice": numbers, "skill": numbers, "dr": numbers},
        optional={
            "bonus": numbers,
            "trait_name": st.sampled_from(("", "Body", None, 3)),
            "skill_name": st.sampled_from(("", "Climb", None)),
        },
    ),
    st.sampled_from(OPTIONS),
)
def test_a_form_request_is_the_classs_request_or_its_error(
    values: dict[str, Any], options: Options
) -> None:
    assert outcome(form_request, values, options) == outcome(by_class, values, options)


def fresh_dice(faces: tuple[int, ...], allocation: tuple[int, ...], top: int) -> tuple[Any, ...]:
    out = []
    for n, (face, spent) in enumerate(zip(faces, allocation, strict=True), start=1):
        won = face - spent <= top
        marks: tuple[str, ...] = (f"bonus {spent}",) if spent else ()
        marks += ("success",) if won else ("failure",)
        out.append(DieRecord(f"d{n}", 10, face, "pool", DieState.ROLLED, (), marks))
    return tuple(out)


@given(
    st.lists(st.integers(1, 10), min_size=1, max_size=30).flatmap(
        lambda faces: st.tuples(
            st.just(tuple(faces)),
            st.tuples(*(st.integers(0, face - 1) for face in faces)),
        )
    ),
    st.integers(1, 10),
    st.integers(1, 40),
    st.sampled_from(OPTIONS),
)
def test_evaluate_gives_the_records_and_degree_the_rules_give(
    rolled: tuple[tuple[int, ...], tuple[int, ...]], skill: int, dr: int, options: Options
) -> None:
    faces, allocation = rolled
    request = RainwallRequest(
        dice=min(len(faces), 10), skill=skill, dr=dr, bonus=sum(allocation), options=options
    )
    result = evaluate(request, faces, allocation, Provenance((), ()))
    top = rules.highest_success_face(skill, options)
    assert result.dice == fresh_dice(faces, allocation, top)
    raw = sum(face <= top for face in faces)
    successes = sum(face - spent <= top for face, spent in zip(faces, allocation, strict=True))
    flubbed = rules.is_flub(request.dice, skill, faces.count(10))
    assert (result.raw_successes, result.successes) == (raw, successes)
    assert result.ios == rules.ios(successes, dr, options)
    assert result.degree is rules.degree(raw, successes, dr, flubbed, options, dice=request.dice)
