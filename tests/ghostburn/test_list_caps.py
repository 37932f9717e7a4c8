"""Gear and aug lists are capped like every other list a roll reads (issue 16): the
largest list the cap allows is answered exactly, one more item is refused with an error
naming the field, the count and what is accepted (never a dump of the whole list)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.rulesets import forms
from rulebound.rulesets.ghostburn.character import parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent
from rulebound.rulesets.ghostburn.odds import p_success
from rulebound.rulesets.ghostburn.request import raw_candidates, request_from_payload
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.variants import resolve

CAP = DEFAULT_LIMITS.max_list_items


def items(count: int) -> list[dict[str, Any]]:
    return [{"name": f"item {i}", "bonus": 1 + i % 4} for i in range(count)]


@pytest.mark.parametrize("field", ["gear", "augs"])
def test_a_payload_list_at_the_cap_is_answered_exactly(
    content: GhostburnContent, field: str
) -> None:
    request = request_from_payload({"dl": 12, "ability_score": 1, field: items(CAP)}, content)
    assert request.modifier == 1 + 4  # one item of each kind applies: the best
    total = 2 @ icepool.d10 + 5
    assert p_success(request.modifier, request.difficulty) == Fraction(total.probability(">=", 12))


@pytest.mark.parametrize("field", ["gear", "augs"])
def test_a_payload_list_over_the_cap_names_field_count_and_cap(
    content: GhostburnContent, field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        request_from_payload({"dl": 12, field: items(100_000)}, content)
    error = caught.value
    assert (error.field, error.value, error.expected) == (
        f"request.{field}",
        "100000 items",
        f"at most {CAP} items",
    )
    assert len(str(error)) < 200


@pytest.mark.parametrize("field", ["gear", "augs"])
def test_a_sheet_list_over_the_cap_is_refused(sheet: dict[str, Any], field: str) -> None:
    sheet[field] = [{"name": f"g{i}", "skill": "firearms", "bonus": 1} for i in range(CAP + 1)]
    with pytest.raises(InvalidInput) as caught:
        parse_character(sheet)
    assert (caught.value.field, caught.value.value) == (f"character.{field}", f"{CAP + 1} items")
    sheet[field] = sheet[field][:CAP]
    assert len(getattr(parse_character(sheet), field)) == CAP


def test_raw_candidates_take_the_limits_given() -> None:
    gear = [(f"g{i}", 1) for i in range(3)]
    assert len(raw_candidates(gear=gear, limits=Limits(max_list_items=3))) == 4
    with pytest.raises(LimitExceeded) as caught:
        raw_candidates(augs=iter(gear), limits=Limits(max_list_items=2))
    assert (caught.value.field, caught.value.value, caught.value.limit) == ("aug", "3 items", 2)


def test_the_command_line_form_is_capped_too() -> None:
    game = get_game("ghostburn")
    variants = resolve(game.variants, {})
    gear = [f"g{i}=1" for i in range(CAP + 1)]
    raw = {"dl": 12, "ability_score": 1, "gear": gear}
    with pytest.raises(InvalidInput) as caught:
        game.request(forms.read(game.fields, raw), variants)
    assert caught.value.value == f"{CAP + 1} items"
    raw["gear"] = gear[:CAP]
    assert game.chances(game.request(forms.read(game.fields, raw), variants)).success > 0
