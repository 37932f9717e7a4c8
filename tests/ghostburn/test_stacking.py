"""At most one bonus of each kind: the highest; every candidate is still shown."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core.random_source import SeededSource
from rulebound.rulesets.ghostburn.character import parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent, builtin_content
from rulebound.rulesets.ghostburn.request import character_request, raw_request
from rulebound.rulesets.ghostburn.roll import roll
from rulebound.rulesets.ghostburn.rules import Bonus, BonusKind, applied_total, stack


def test_several_gear_and_aug_items_each_contribute_only_their_highest(
    sheet: dict[str, Any], content: GhostburnContent
) -> None:
    sheet["gear"] += [
        {"name": "smart scope", "skill": "firearms", "bonus": 3},
        {"name": "grip tape", "skill": "firearms", "bonus": 2},
    ]
    sheet["augs"] = [
        {"name": "reflex wiring", "skill": "firearms", "bonus": 1},
        {"name": "eye implant", "skill": "firearms", "bonus": 2},
        {"name": "leg pistons", "skill": "athletics", "bonus": 4},
    ]
    request = character_request(parse_character(sheet), content, skill="firearms", dl="Hard")
    shown = {(b.kind, b.source): b.applied for b in request.bonuses}
    assert shown == {
        (BonusKind.ABILITY, "Agility"): True,
        (BonusKind.SKILL, "Firearms"): True,
        (BonusKind.GEAR, "laser sight"): False,
        (BonusKind.GEAR, "smart scope"): True,
        (BonusKind.GEAR, "grip tape"): False,
        (BonusKind.AUG, "reflex wiring"): False,
        (BonusKind.AUG, "eye implant"): True,
    }
    assert request.modifier == 3 + 1 + 3 + 2


def test_a_loser_names_the_bonus_that_applied() -> None:
    lines = stack([Bonus(BonusKind.GEAR, "a", 1), Bonus(BonusKind.GEAR, "b", 2)])
    assert "b (+2) applies" in lines[0].note
    assert lines[1].note == ""


def test_equal_bonuses_apply_once_the_first_listed() -> None:
    lines = stack([Bonus(BonusKind.AUG, "first", 2), Bonus(BonusKind.AUG, "second", 2)])
    assert [line.applied for line in lines] == [True, False]
    assert applied_total(lines) == 2


def test_a_missing_skill_adds_no_skill_bonus(vex: Any, content: GhostburnContent) -> None:
    request = character_request(vex, content, skill="athletics", dl="Moderate")
    kinds = [b.kind for b in request.bonuses]
    assert BonusKind.SKILL not in kinds
    assert request.modifier == 1 + 2  # Strength 1, tow rope +2


bonus_values = st.integers(min_value=0, max_value=4)


@given(
    gear=st.lists(bonus_values, min_size=1, max_size=4),
    augs=st.lists(bonus_values, max_size=4),
    extra_kind=st.sampled_from(["gear", "augs"]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_adding_a_bonus_no_higher_than_the_best_never_changes_the_roll(
    gear: list[int], augs: list[int], extra_kind: str, seed: int
) -> None:
    content = builtin_content()
    kinds = {"gear": gear, "augs": augs}
    lower = min(kinds[extra_kind], default=0)

    def check(extra: list[int]) -> tuple[int, str]:
        pools = {k: [(f"{k} {i}", v) for i, v in enumerate(vs)] for k, vs in kinds.items()}
        pools[extra_kind] += [("extra", v) for v in extra]
        request = raw_request(
            content, dl="Hard", ability_score=2, gear=pools["gear"], augs=pools["augs"]
        )
        result = roll(request, SeededSource(seed))
        return result.total, result.band.key

    assert check([lower]) == check([])


@given(st.lists(st.tuples(st.sampled_from(list(BonusKind)[:4]), bonus_values), max_size=8))
def test_stacking_applies_exactly_the_maximum_of_each_kind(
    items: list[tuple[BonusKind, int]],
) -> None:
    lines = stack(Bonus(kind, f"item {i}", value) for i, (kind, value) in enumerate(items))
    assert len(lines) == len(items)
    for kind in {k for k, _ in items}:
        applied = [line for line in lines if line.kind is kind and line.applied]
        assert len(applied) == 1
        assert applied[0].value == max(v for k, v in items if k is kind)
