"""The Empty Reach's requests and content are hand-checked values, not pydantic models
(issue 16: `rulebound odds empty-reach` must not import pydantic).

Each value must accept exactly what its pydantic mirror (``schema``) accepts, hold the
same values, dump the same JSON (byte for byte, through ``core.canonical`` too), and
refuse everything else with the same errors; and the odds command's process must load
neither pydantic nor the roll, sheet and replay code.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rulebound.core.canonical import canonical_json, to_jsonable
from rulebound.core.errors import ContentError, InvalidForm, InvalidInput
from rulebound.rulesets.content import input_error, load_file
from rulebound.rulesets.empty_reach import schema
from rulebound.rulesets.empty_reach.check import CheckRequest, GearInUse, Options, checked
from rulebound.rulesets.empty_reach.content import (
    PACKAGE,
    SituationBook,
    SkillBook,
    SpecialtyBook,
    default_content,
)
from rulebound.rulesets.empty_reach.rules import StepDie
from rulebound.rulesets.registry import get_game

from ..hunt import examples

# --- random inputs: plausible requests, then at most one field spoilt ----------------------

dice = st.sampled_from(["D6", "D8", "d10", " D12 ", "12", StepDie.D8])
words = st.text(alphabet="abcxyz -", max_size=8)
gear = st.fixed_dictionaries(
    {"name": st.text(alphabet="ab", min_size=1, max_size=60), "bonus": st.integers(0, 10)},
    optional={"dice": st.lists(dice, max_size=6)},
)
plausible = st.fixed_dictionaries(
    {"attribute_die": dice},
    optional={
        "skill_die": st.none() | dice,
        "attribute": st.none() | st.sampled_from(["Strength", "Wits", "strength", "x" * 40]),
        "skill": st.none() | st.sampled_from(["Force", "Stamina", "Crafting"]),
        "helpers": st.integers(0, 5),
        "difficulty": st.integers(-10, 10),
        "difficulty_level": st.none() | st.sampled_from(["hard", "average"]),
        "situations": st.lists(words, max_size=20) | st.tuples(words),
        "specialties": st.lists(words, max_size=3),
        "modifiers": st.lists(
            st.fixed_dictionaries({"source": words.filter(bool), "value": st.integers(-10, 10)}),
            max_size=10,
        ),
        "gear": st.none() | gear,
        "unpushable": st.none() | st.sampled_from(["passive roll", "y" * 60]),
        "options": st.fixed_dictionaries(
            {},
            optional={
                "gear_banes": st.sampled_from(["base-dice", "gear-dice"]),
                "tie_break": st.sampled_from(["fail", "reroll"]),
            },
        ),
        "opposed": st.none()
        | st.fixed_dictionaries({"attribute_die": dice}, optional={"helpers": st.integers(0, 3)}),
        "second_wind": st.none()
        | st.fixed_dictionaries(
            {
                "damage": st.integers(0, 3),
                "max_health": st.integers(1, 4),
                "stress": st.integers(0, 3),
                "max_resolve": st.integers(1, 4),
            }
        ),
        "repair": st.none()
        | st.fixed_dictionaries(
            {"name": words.filter(bool), "bonus": st.integers(0, 3), "max_bonus": st.integers(0, 3)}
        ),
    },
)
FIELDS = [
    "attribute_die", "skill_die", "attribute", "skill", "helpers", "difficulty",
    "difficulty_level", "situations", "specialties", "modifiers", "gear", "unpushable",
    "options", "opposed", "second_wind", "repair", "colour",
]  # fmt: skip
spoilt = st.sampled_from(
    [
        None, True, False, 1.5, 2.0, "3", " 2 ", "", [], (), {}, -1, 0, 11, -11, 10**6, "D7", 8,
        "x" * 41, "y" * 61, ["D6"] * 7, ["a"] * 21, [1], [{"source": "", "value": 1}],
        [{"source": "a", "value": 11}], [{"source": "a", "value": "2"}] * 11,
        {"name": "", "bonus": 1}, {"name": "a", "bonus": 11}, {"name": "a", "bonus": "1"},
        {"name": "a", "bonus": 1, "dice": ["D6"] * 7}, {"name": "a", "bonus": 1, "x": 1},
        {"attribute_die": "D8", "helpers": -1}, {"attribute_die": "D5"}, {"gear_banes": "both"},
        {"tie_break": 1}, {"damage": -1, "max_health": 1, "stress": 0, "max_resolve": 1},
        {"name": "a", "bonus": 1, "max_bonus": 1, "tech": "t" * 41},
    ]
)  # fmt: skip
requests = st.tuples(plausible, st.none() | st.tuples(st.sampled_from(FIELDS), spoilt)).map(
    lambda pair: pair[0] if pair[1] is None else pair[0] | {pair[1][0]: pair[1][1]}
)
gears = st.tuples(
    gear, st.none() | st.tuples(st.sampled_from(["name", "bonus", "dice"]), spoilt)
).map(lambda pair: pair[0] if pair[1] is None else pair[0] | {pair[1][0]: pair[1][1]})


def problems(exc: InvalidInput) -> list[tuple[str, str, str]]:
    found = exc.problems if isinstance(exc, InvalidForm) else (exc,)
    return [(p.field, repr(p.value), p.expected) for p in found]


def mirrored(cls: Any, data: dict[str, Any]) -> tuple[str, Any]:
    """What the pydantic mirror makes of ``data``: its dumps, or its errors in our words."""
    try:
        model = getattr(schema, cls.__name__).model_validate(data)
    except ValidationError as exc:
        return "refused", problems(input_error(exc, prefix="record.request"))
    return "accepted", (model.model_dump(), model.model_dump(mode="json"))


def ours(cls: Any, data: dict[str, Any]) -> tuple[str, Any]:
    try:
        value = checked(cls, data, prefix="record.request")
    except InvalidInput as exc:
        return "refused", problems(exc)
    return "accepted", (value.model_dump(), value.model_dump(mode="json"))


@settings(max_examples=examples(400), deadline=None)
@given(requests)
def test_a_request_is_accepted_refused_and_dumped_as_its_pydantic_mirror_does(
    data: dict[str, Any],
) -> None:
    assert ours(CheckRequest, data) == mirrored(CheckRequest, data)


@settings(max_examples=examples(150), deadline=None)
@given(gears)
def test_gear_in_use_is_read_as_its_pydantic_mirror_reads_it(data: dict[str, Any]) -> None:
    assert ours(GearInUse, data) == mirrored(GearInUse, data)


@settings(max_examples=examples(150), deadline=None)
@given(requests)
def test_an_accepted_request_serialises_to_the_same_bytes(data: dict[str, Any]) -> None:
    """``core.canonical`` (the chain's seal, the records, the JSON views) converted the model
    through ``model_dump``; it converts the value to the same text."""
    try:
        model = schema.CheckRequest.model_validate(data)
    except ValidationError:
        return
    value = CheckRequest.model_validate(data)
    assert canonical_json(value) == canonical_json(model)
    assert to_jsonable({"request": value}) == {"request": model.model_dump(mode="json")}
    assert CheckRequest.model_validate(value.model_dump(mode="json")) == value  # round trip


def test_the_model_api_is_kept_and_values_are_immutable() -> None:
    request = CheckRequest(attribute_die="D8", skill_die="D10", gear={"name": "Rope", "bonus": 1})
    assert request.attribute_die is StepDie.D8
    assert request.gear == GearInUse(name="Rope", bonus=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.helpers = 2
    with pytest.raises(ValidationError):  # a constructor with bad values refuses, as before
        CheckRequest(attribute_die="D7")
    copied = request.model_copy(update={"helpers": 2})
    assert copied.helpers == 2
    assert request.helpers == 0
    again = CheckRequest.model_validate(request.model_dump(mode="json"))
    assert again == request
    assert hash(again) == hash(request)
    assert again is not request
    assert pickle.loads(pickle.dumps(request)) == request
    assert copy.deepcopy(request) == request
    assert CheckRequest.model_validate(request) is request
    assert request != copied
    assert Options() == Options.model_validate({})
    assert "opposed" not in request.model_dump()  # fields added later stay out when unset


def test_the_packaged_content_is_what_the_pydantic_models_made_of_it() -> None:
    from rulebound.rulesets.content import packaged_text, parse_content

    for name, ours_cls in (
        ("skills.toml", SkillBook),
        ("situations.toml", SituationBook),
        ("specialties.toml", SpecialtyBook),
    ):
        text = packaged_text(PACKAGE, name)
        plain = parse_content(name, text, ours_cls)
        model = parse_content(name, text, getattr(schema, ours_cls.__name__))
        assert plain.model_dump() == model.model_dump(), name
    assert default_content().specialties  # and the game's content is built from them


BROKEN = [
    '[[specialties]]\nname = ""\neffect = "swap"\nsummary = "x"\n',
    '[[specialties]]\nname = "Odd"\neffect = "juggling"\nsummary = "x"\n',
    '[[specialties]]\nname = "Odd"\neffect = "swap"\nsummary = "x"\nskill = "Force"\n',
    '[[specialties]]\nname = "Odd"\neffect = "max-health"\nsummary = "x"\nrepeatable = 4\n',
    '[[specialties]]\nname = "Odd"\neffect = "narrative"\nsummary = "x"\ncolour = "red"\n',
    '[[specialties]]\nname = "Odd"\neffect = "narrative"\nsummary = 3\nrepeatable = "2"\n',
    '[[specialties]]\nname = "Odd"\neffect = "narrative"\n',
    'specialties = "none"\n',
]


@pytest.mark.parametrize("text", BROKEN)
def test_a_broken_homebrew_file_is_refused_in_the_same_words(text: str, tmp_path: Path) -> None:
    path = tmp_path / "homebrew.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as plain:
        load_file(path, SpecialtyBook)
    with pytest.raises(ContentError) as model:
        load_file(path, schema.SpecialtyBook)
    assert str(plain.value) == str(model.value)
    assert [(p.field, p.value, p.expected) for p in plain.value.problems] == [
        (p.field, p.value, p.expected) for p in model.value.problems
    ]


def test_a_homebrew_value_pydantic_converts_is_converted_alike(tmp_path: Path) -> None:
    path = tmp_path / "homebrew.toml"
    path.write_text(
        '[[specialties]]\nname = "Odd"\neffect = "narrative"\nsummary = "x"\nrepeatable = 2.0\n'
    )
    assert load_file(path, SpecialtyBook).specialties[0].repeatable == 2


def test_the_game_s_request_errors_name_the_field_value_and_what_is_accepted() -> None:
    game = get_game("empty-reach")
    with pytest.raises(InvalidInput) as caught:
        game.request({"attribute_die": "D8", "helpers": -1, "unpushable": None}, {})
    assert problems(caught.value) == [("helpers", "-1", "a number of at least 0")]
    with pytest.raises(InvalidInput) as caught:
        game.request({"attribute_die": "D8"}, {"gear_banes": "both"})
    assert problems(caught.value) == [
        ("options.gear_banes", "'both'", "one of base-dice or gear-dice")
    ]


ODDS = ["odds", "empty-reach", "--attribute", "D8", "--skill", "D10", "--json"]


def test_the_odds_command_loads_no_pydantic_and_no_roll_sheet_or_replay_code() -> None:
    """Fails before issue 16's change: the odds command imported every module of the game."""
    code = (
        "import sys\nfrom rulebound.cli.app import app\n"
        f"app.main({ODDS!r}, standalone_mode=False)\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stderr.split())
    assert '"p_success": "11/16"' in done.stdout
    assert "pydantic" not in loaded
    for module in (
        "rulebound.cli.session",
        "rulebound.rulesets.plays",
        "rulebound.rulesets.empty_reach.character",
        "rulebound.rulesets.empty_reach.flow",
        "rulebound.rulesets.empty_reach.roll",
        "rulebound.rulesets.empty_reach.advisor",
        "rulebound.rulesets.empty_reach.schema",
        "rulebound.rulesets.rainwall.game",
        "rulebound.rulesets.views",
        "importlib.resources",
        "secrets",
    ):
        assert module not in loaded, module
