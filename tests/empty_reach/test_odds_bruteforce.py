"""Exact odds equal an exhaustive enumeration of every face, push and gear d6 (as Fractions).

The oracle here does not use the odds module: it walks every face combination with
``itertools.product``, pushes with the default choice as the policy says, charges the
banes each push adds, and rolls every gear d6 on every charged bane.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from itertools import product
from math import prod
from typing import TypeVar

import pytest

from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    GearInUse,
    Options,
    PreparedCheck,
    prepare,
)
from rulebound.rulesets.empty_reach.odds import (
    PUSH_POLICIES,
    PushPolicy,
    cost_distribution,
    outcome_distribution,
    p_bane_charged,
    p_success,
    success_distribution,
    tally_distribution,
)
from rulebound.rulesets.empty_reach.rules import LADDER, GearBanes

Final = tuple[int, int, int, int, bool]
"""(successes, banes, points of damage or stress, gear points lost, pushed at all)."""

K = TypeVar("K", bound=Hashable)


def successes(face: int) -> int:
    return 2 if face >= 10 else 1 if face >= 6 else 0


def brute(check: PreparedCheck, policy: PushPolicy) -> dict[Final, Fraction]:
    """Every path, weighted by integers: each push level splits into prod(sides) * 6**dice."""
    sides = tuple(d.value for d in check.pool.dice) + tuple(d.value for d in check.gear_dice)
    gear_role = tuple([False] * len(check.pool.dice) + [True] * len(check.gear_dice))
    gear_dice_rule = check.request.options.gear_banes == "gear-dice"
    counted = tuple(not g or gear_dice_rule for g in gear_role)
    checked = tuple((g if gear_dice_rule else not g) for g in gear_role)
    gear = check.request.gear
    pushes = 0 if policy == "never" else check.max_pushes
    per_push = prod(sides) * 6 ** len(sides)

    @cache
    def charge(banes: tuple[int, ...], gear_left: int) -> dict[tuple[int, int, int], int]:
        """(points, loss, gear left) for every d6 the charged banes may roll, out of 6**dice."""
        eligible = [i for i in banes if gear is not None and checked[i]]
        plain = len(banes) - len(eligible)
        out: dict[tuple[int, int, int], int] = defaultdict(int)
        for d6s in product(range(1, 7), repeat=len(eligible)):
            points, loss, left = plain, 0, gear_left
            for face in d6s:
                if left > 0 and face <= 2:
                    loss, left = loss + 1, left - 1
                else:
                    points += 1
            out[(points, loss, left)] += 6 ** (len(sides) - len(eligible))
        return dict(out)

    @cache
    def settle(faces: tuple[int, ...], done: int, gear_left: int) -> dict[Final, int]:
        """Final outcomes from here, out of per_push ** (pushes - done)."""
        total = sum(map(successes, faces))
        banes = sum(1 for i, f in enumerate(faces) if f == 1 and counted[i])
        chosen = [i for i, f in enumerate(faces) if f != 1 and not successes(f)]
        wants = policy == "always" or (policy == "if-failed" and total == 0)
        if done >= pushes or not wants or not chosen:
            return {(total, banes, 0, 0, done > 0): per_push ** (pushes - done)}
        kept = prod(sides[i] for i in range(len(sides)) if i not in chosen)
        out: dict[Final, int] = defaultdict(int)
        for new in product(*(range(1, sides[i] + 1) for i in chosen)):
            after = list(faces)
            for i, face in zip(chosen, new, strict=True):
                after[i] = face
            if done == 0:
                charged = tuple(i for i, f in enumerate(after) if f == 1 and counted[i])
            else:
                charged = tuple(i for i in chosen if after[i] == 1 and counted[i])
            for (points, loss, left), ways in charge(charged, gear_left).items():
                for (s, b, pts, lost, pushed), w in settle(tuple(after), done + 1, left).items():
                    out[(s, b, points + pts, loss + lost, pushed)] += kept * ways * w
        return dict(out)

    weights: dict[Final, int] = defaultdict(int)
    starts = list(product(*(range(1, s + 1) for s in sides)))
    for faces in starts:
        for final, w in settle(faces, 0, gear.bonus if gear else 0).items():
            weights[final] += w
    whole = len(starts) * per_push**pushes
    assert sum(weights.values()) == whole
    return {final: Fraction(w, whole) for final, w in weights.items()}


def marginal(dist: dict[Final, Fraction], pick: Callable[[Final], K]) -> dict[K, Fraction]:
    out: dict[K, Fraction] = defaultdict(Fraction)
    for final, p in dist.items():
        out[pick(final)] += p
    return dict(out)


def assert_matches(check: PreparedCheck, policy: PushPolicy) -> None:
    truth = brute(check, policy)
    assert sum(truth.values()) == 1
    assert outcome_distribution(check, policy).probabilities() == marginal(
        truth, lambda f: (f[0], f[1])
    )
    assert success_distribution(check, policy).probabilities() == marginal(truth, lambda f: f[0])
    assert p_success(check, policy) == sum(p for f, p in truth.items() if f[0] >= 1)
    if policy != "never":
        charged = sum(p for f, p in truth.items() if f[4] and f[1] > 0)
        assert p_bane_charged(check, policy) == charged
        costs = cost_distribution(check, policy).probabilities()
        assert costs == marginal(truth, lambda f: (f[2], f[3]))


POOLS = [(a.label, None if s is None else s.label) for a in LADDER for s in (None, *LADDER)]


@pytest.mark.parametrize("policy", PUSH_POLICIES)
@pytest.mark.parametrize("pool", POOLS)
def test_every_pool_every_policy_one_push(pool: tuple[str, str | None], policy: PushPolicy) -> None:
    check = prepare(CheckRequest(attribute_die=pool[0], skill_die=pool[1], skill="Force"))
    assert check.max_pushes == 1
    assert_matches(check, policy)


@pytest.mark.parametrize("policy", ["always", "if-failed"])
@pytest.mark.parametrize("pool", POOLS)
def test_every_pool_two_pushes(pool: tuple[str, str | None], policy: PushPolicy) -> None:
    check = prepare(
        CheckRequest(
            attribute_die=pool[0], skill_die=pool[1], skill="Insight", specialties=("Compassion",)
        )
    )
    assert check.max_pushes == 2
    assert_matches(check, policy)


GEARED = [
    ("D6", None, 1, ()),
    ("D8", "D6", 2, ("D6",)),
    ("D10", None, 3, ("D12",)),
]


def geared(
    attribute: str, skill: str | None, bonus: int, dice: tuple[str, ...], rule: GearBanes
) -> PreparedCheck:
    return prepare(
        CheckRequest(
            attribute_die=attribute,
            skill_die=skill,
            skill="Stealth",
            gear=GearInUse(name="kit", bonus=bonus, dice=dice),
            options=Options(gear_banes=rule),
        )
    )


@pytest.mark.parametrize("rule", ["base-dice", "gear-dice"])
@pytest.mark.parametrize("policy", PUSH_POLICIES)
@pytest.mark.parametrize(("attribute", "skill", "bonus", "dice"), GEARED)
def test_pools_with_gear_and_gear_checks(
    attribute: str,
    skill: str | None,
    bonus: int,
    dice: tuple[str, ...],
    policy: PushPolicy,
    rule: GearBanes,
) -> None:
    check = geared(attribute, skill, bonus, dice, rule)
    assert len(check.gear_dice) == len(dice)
    assert_matches(check, policy)


@pytest.mark.parametrize("rule", ["base-dice", "gear-dice"])
@pytest.mark.parametrize("policy", PUSH_POLICIES)
def test_two_base_dice_and_two_gear_dice(policy: PushPolicy, rule: GearBanes) -> None:
    check = geared("D6", None, 1, ("D6", "D6"), rule)
    assert len(check.pool.dice) + len(check.gear_dice) == 4
    assert_matches(check, policy)


def test_gear_checks_over_two_pushes() -> None:
    check = prepare(
        CheckRequest(
            attribute_die="D6",
            skill="Force",
            specialties=("True Grit",),
            gear=GearInUse(name="bar", bonus=1, dice=("D6",)),
        )
    )
    for policy in PUSH_POLICIES:
        assert_matches(check, policy)


def test_passive_rolls_have_the_same_odds_under_every_policy() -> None:
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D10", unpushable="passive"))
    for policy in PUSH_POLICIES:
        assert success_distribution(check, policy) == success_distribution(check)
        assert_matches(check, policy)


def test_hand_checked_values() -> None:
    check = prepare(CheckRequest(attribute_die="D8", skill_die="D10"))
    assert p_success(check, "never") == Fraction(11, 16)
    assert p_success(check, "always") == Fraction(139, 160)
    # if-failed: 5/16 fail; each D8 then has 1/5 bane kept, else 3/8 success; D10 1/5 / 1/2
    fail_d8 = Fraction(1, 5) + Fraction(4, 5) * Fraction(5, 8)
    fail_d10 = Fraction(1, 5) + Fraction(4, 5) * Fraction(1, 2)
    assert p_success(check, "if-failed") == Fraction(11, 16) + Fraction(5, 16) * (
        1 - fail_d8 * fail_d10
    )
    assert success_distribution(check).probabilities() == {
        0: Fraction(5, 16),
        1: Fraction(3, 8) * Fraction(1, 2) + Fraction(5, 8) * Fraction(2, 5),
        2: Fraction(3, 8) * Fraction(2, 5) + Fraction(5, 8) * Fraction(1, 10),
        3: Fraction(3, 8) * Fraction(1, 10),
    }


def test_if_failed_pushes_again_when_allowed() -> None:
    once = prepare(CheckRequest(attribute_die="D6", skill_die="D6", attribute="Empathy"))
    twice = prepare(
        CheckRequest(
            attribute_die="D6", skill_die="D6", attribute="Empathy", specialties=("Compassion",)
        )
    )
    assert p_success(twice, "if-failed") > p_success(once, "if-failed")
    assert p_success(twice, "if-failed") == 1 - Fraction(1225, 2916)


def test_tally_flags_whether_a_push_rerolled_anything() -> None:
    check = prepare(CheckRequest(attribute_die="D6"))
    tally = tally_distribution(check, "always").probabilities()
    assert tally == {
        (0, 1, 0, 0): Fraction(1, 6),
        (0, 1, 0, 1): Fraction(4, 36),
        (0, 0, 0, 1): Fraction(16, 36),
        (1, 0, 0, 0): Fraction(1, 6),
        (1, 0, 0, 1): Fraction(4, 36),
    }
