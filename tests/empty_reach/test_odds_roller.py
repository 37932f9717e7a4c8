"""The roller itself, driven down every branch, agrees with the odds; so does the push advisor.

``branches`` runs the real ``roll_check`` or ``push`` with a source that stops at the first
unanswered draw; each face of that die then becomes its own branch. A play is a roll and
then pushes, each explored that way, so every leaf is one complete play (faces, pushes,
gear d6s) with its exact probability. Plays from equal dice states are shared.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from fractions import Fraction
from itertools import combinations, product
from typing import TypeVar

import pytest

from rulebound.rulesets.empty_reach.advisor import evaluate, push_options, recommend
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    GearInUse,
    Options,
    PreparedCheck,
    prepare,
)
from rulebound.rulesets.empty_reach.odds import (
    PushPolicy,
    cost_distribution,
    outcome_distribution,
    p_bane_charged,
)
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push, roll_check

from .conftest import Scripted

K = TypeVar("K", bound=Hashable)


class _Need(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Branch:
    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.used = 0

    def draw(self, sides: int) -> int:
        if self.used == len(self.prefix):
            raise _Need(sides)
        self.used += 1
        return self.prefix[self.used - 1]

    def describe(self) -> dict[str, object]:
        return {"kind": "branch"}


def branches(
    step: Callable[[_Branch], EmptyReachResult],
) -> list[tuple[EmptyReachResult, Fraction]]:
    """Every outcome of one roll or push, each with its probability."""
    found: list[tuple[EmptyReachResult, Fraction]] = []
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            found.append((step(_Branch(prefix)), p))
        except _Need as need:
            stack.extend(((*prefix, f), p / need.sides) for f in range(1, need.sides + 1))
    return found


Leaf = tuple[int, int, int, int, bool]
"""(successes, banes, points of damage or stress, gear points lost, pushed at all)."""


def play_policy(check: PreparedCheck, policy: PushPolicy) -> dict[Leaf, Fraction]:
    """Roll, then push with the default choice while the policy says so, down every branch."""
    memo: dict[tuple[object, ...], dict[Leaf, Fraction]] = {}

    def after(result: EmptyReachResult) -> dict[Leaf, Fraction]:
        lost = 0
        node: EmptyReachResult | None = result
        while node is not None:
            lost += node.costs.gear_loss if node.costs else 0
            node = node.parent
        key = (tuple(d.face for d in result.dice), result.push_number, lost)
        if key in memo:
            return memo[key]
        stop = (
            policy == "never"
            or not result.pushes_left
            or not result.default_reroll()
            or (policy == "if-failed" and result.succeeded)
        )
        out: dict[Leaf, Fraction] = defaultdict(Fraction)
        if stop:
            out[(result.successes, result.banes, 0, 0, result.push_number > 0)] = Fraction(1)
        else:
            for pushed, p in branches(lambda source: push(result, source)):
                assert pushed.costs is not None
                for (s, b, points, gear, _), q in after(pushed).items():
                    leaf = (s, b, points + pushed.costs.points, gear + pushed.costs.gear_loss, True)
                    out[leaf] += p * q
        memo[key] = dict(out)
        return memo[key]

    leaves: dict[Leaf, Fraction] = defaultdict(Fraction)
    for result, p in branches(lambda source: roll_check(check, source)):
        for leaf, q in after(result).items():
            leaves[leaf] += p * q
    return dict(leaves)


CASES = [
    CheckRequest(attribute_die="D6", skill="Force"),
    CheckRequest(attribute_die="D8", skill_die="D6", skill="Insight", specialties=("Compassion",)),
    CheckRequest(
        attribute_die="D6",
        skill="Stealth",
        specialties=("Reckless",),
        gear=GearInUse(name="cloak", bonus=2),
    ),
    CheckRequest(
        attribute_die="D6",
        skill="Force",
        gear=GearInUse(name="drill", bonus=1, dice=("D6",)),
        options=Options(gear_banes="gear-dice"),
    ),
]


@pytest.mark.parametrize("policy", ["never", "always", "if-failed"])
@pytest.mark.parametrize("request_", CASES)
def test_the_roller_down_every_branch_equals_the_odds(
    request_: CheckRequest, policy: PushPolicy
) -> None:
    check = prepare(request_)
    leaves = play_policy(check, policy)
    assert sum(leaves.values()) == 1

    def total(pick: Callable[[Leaf], K]) -> dict[K, Fraction]:
        out: dict[K, Fraction] = defaultdict(Fraction)
        for leaf, p in leaves.items():
            out[pick(leaf)] += p
        return dict(out)

    assert outcome_distribution(check, policy).probabilities() == total(lambda f: (f[0], f[1]))
    if policy != "never":
        assert cost_distribution(check, policy).probabilities() == total(lambda f: (f[2], f[3]))
        charged = sum(p for f, p in leaves.items() if f[4] and f[1])
        assert p_bane_charged(check, policy) == charged


def brute_option(result: EmptyReachResult, selection: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Reroll every face of the selection, charge banes like the roller, roll every gear d6."""
    check = result.check
    gear = check.request.gear
    lost_before = 0
    node: EmptyReachResult | None = result
    while node is not None:
        lost_before += node.costs.gear_loss if node.costs else 0
        node = node.parent
    stats = [Fraction(0)] * 5  # p_success, E[successes], p_cost, E[points], p_gear_loss
    options = list(product(*(range(1, result.dice[i].sides + 1) for i in selection)))
    for new in options:
        faces = [d.face for d in result.dice]
        for i, face in zip(selection, new, strict=True):
            faces[i] = face
        succ = sum(2 if f >= 10 else 1 if f >= 6 else 0 for f in faces)
        bane_at = [i for i, f in enumerate(faces) if f == 1 and result.dice[i].role != "gear"]
        charged = bane_at if result.push_number == 0 else [i for i in bane_at if i in selection]
        d6_rolls = list(product(range(1, 7), repeat=len(charged) if gear else 0))
        for d6s in d6_rolls:
            left = (gear.bonus - lost_before) if gear else 0
            loss = points = 0
            for face in d6s or [7] * len(charged):
                if left > 0 and face <= 2:
                    loss, left = loss + 1, left - 1
                else:
                    points += 1
            p = Fraction(1, len(options) * len(d6_rolls))
            stats[0] += p * (succ >= 1)
            stats[1] += p * succ
            stats[2] += p * (points + loss > 0)
            stats[3] += p * points
            stats[4] += p * (loss > 0)
    return tuple(stats)


def option_stats(result: EmptyReachResult, selection: tuple[int, ...]) -> tuple[Fraction, ...]:
    o = evaluate(result, selection)
    return (o.p_success, o.expected_successes, o.p_bane, o.expected_points, o.p_gear_loss)


@pytest.mark.parametrize(
    ("request_", "faces"),
    [
        (CheckRequest(attribute_die="D8", skill_die="D10", skill="Force"), (3, 7)),
        (CheckRequest(attribute_die="D8", skill_die="D10", skill="Force"), (1, 4)),
        (
            CheckRequest(attribute_die="D6", skill="Force", gear=GearInUse(name="bar", bonus=1)),
            (1, 2),
        ),
        (
            CheckRequest(
                attribute_die="D6",
                skill="Force",
                gear=GearInUse(name="bar", bonus=2, dice=("D6",)),
            ),
            (4, 5, 1),
        ),
    ],
)
def test_advisor_numbers_equal_brute_force(
    scripted: type[Scripted], request_: CheckRequest, faces: tuple[int, ...]
) -> None:
    result = roll_check(prepare(request_), scripted(*faces))
    allowed = result.rerollable()
    for size in range(1, len(allowed) + 1):
        for selection in combinations(allowed, size):
            assert option_stats(result, selection) == brute_option(result, selection)
    assert option_stats(result, ()) == (
        Fraction(int(result.succeeded)),
        Fraction(result.successes),
        Fraction(0),
        Fraction(0),
        Fraction(0),
    )


def test_advisor_on_a_second_push_charges_only_new_banes(scripted: type[Scripted]) -> None:
    request = CheckRequest(
        attribute_die="D6",
        skill_die="D6",
        skill="Force",
        specialties=("True Grit",),
        gear=GearInUse(name="bar", bonus=1),
    )
    first = push(roll_check(prepare(request), scripted(1, 3)), scripted(4, 1))
    assert first.costs is not None
    assert first.costs.gear_loss == 1
    for selection in ((1,),):
        assert option_stats(first, selection) == brute_option(first, selection)


def test_push_options_and_recommendation(scripted: type[Scripted]) -> None:
    result = roll_check(
        prepare(CheckRequest(attribute_die="D8", skill_die="D10", skill="Force")), scripted(6, 3)
    )
    options = push_options(result)
    assert [o.selection for o in options] == [(), (0,), (1,), (0, 1)]
    best = recommend(result)
    assert best is not None
    assert best.selection == (1,)
    assert best.p_success == 1
    assert recommend(result, "successes") == best
    pushed = push(result, scripted(4))
    assert push_options(pushed) == []
    assert recommend(pushed) is None
