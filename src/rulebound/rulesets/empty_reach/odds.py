"""Exact odds for The Empty Reach, read from the same tables as the roller.

Each die contributes a small vector (successes, base banes, gear banes,
rerolled); a pool's distribution is the convolution of its dice, which keeps
every question polynomial in the number of dice instead of enumerating faces.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Literal, TypeVar

from rulebound.core.distribution import Distribution, sum_all
from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.rulesets import contract
from rulebound.rulesets.contract import Chances, Extra
from rulebound.rulesets.empty_reach.rules import (
    BASE_PUSHES,
    GEAR_CHECK_SIDES,
    GEAR_LOSS_FACES,
    LADDER,
    StepDie,
    bane_counts,
    is_bane,
    rerolled_by_default,
    risks_gear,
    successes_on,
)

if TYPE_CHECKING:  # the odds read a prepared check; a pool needs neither module
    from rulebound.rulesets.empty_reach.check import PreparedCheck
    from rulebound.rulesets.empty_reach.roll import EmptyReachResult

K = TypeVar("K", bound=Hashable)

PushPolicy = Literal["never", "always", "if-failed"]
PUSH_POLICIES: tuple[PushPolicy, ...] = ("never", "always", "if-failed")

Tally = tuple[int, int, int, int]
"""(successes, banes on base dice, banes on gear dice, dice rerolled by the first push)."""

Outcome = tuple[int, int]
"""(successes, banes) as the player sees them."""

Verdict = Literal["win", "tie", "loss"]
"""An opposed roll for the active side: more successes win, a tie fails."""


PoolDie = tuple[int, str]
"""One die of a pool: (sides, role), the role being "attribute", "skill" or "gear"."""


def _planned(check: PreparedCheck) -> list[PoolDie]:
    dice = [(check.pool.attribute.value, "attribute")]
    if check.pool.skill is not None:
        dice.append((check.pool.skill.value, "skill"))
    return dice + [(die.value, "gear") for die in check.gear_dice]


def tally(face: int, role: str, check: PreparedCheck, rerolled: int = 0) -> Tally:
    """What one die adds to a roll's tally (successes, base banes, gear banes, rerolls)."""
    return _tally_for(face, role, check.request.options.gear_banes, rerolled)


def _tally_for(face: int, role: str, gear_banes: str, rerolled: int = 0) -> Tally:
    bane = 1 if is_bane(face) and bane_counts(role, gear_banes) else 0
    if role == "gear":
        return (successes_on(face), 0, bane, rerolled)
    return (successes_on(face), bane, 0, rerolled)


@cache
def _settled_weights(sides: int, pushes: int) -> dict[tuple[int, int], int]:
    """Weights over (face, rerolled) after up to ``pushes`` default rerolls, on a common total.

    Each push keeps a settled face (a success or a 1) at ``sides`` times its weight and
    spreads the weight of every unsettled face evenly over the die's faces.
    """
    weights = {(face, 0): 1 for face in range(1, sides + 1)}
    for _ in range(pushes):
        moving = sum(w for (face, _), w in weights.items() if rerolled_by_default(face))
        following = {
            state: w * sides for state, w in weights.items() if not rerolled_by_default(state[0])
        }
        for face in range(1, sides + 1):
            following[(face, 1)] = following.get((face, 1), 0) + moving
        weights = following
    return weights


@cache
def _settled_die(sides: int, role: str, gear_banes: str, pushes: int) -> Distribution[Tally]:
    """One die under "always push": each push rerolls it while it shows neither success nor 1."""
    tallies: dict[Tally, int] = {}
    for (face, rerolled), w in _settled_weights(sides, pushes).items():
        tally = _tally_for(face, role, gear_banes, rerolled)
        tallies[tally] = tallies.get(tally, 0) + w
    return Distribution(tallies)


@cache
def _face_kinds() -> tuple[tuple[int, bool, bool], ...]:
    """(successes, whether it is a bane face, whether the default push rerolls it) of
    faces 1 to the largest die's sides: the rules read once for every die size, since a
    die of ``n`` sides shows the first ``n`` of them."""
    kinds = []
    for face in range(1, LADDER[-1].value + 1):  # plain loops: they run once, cold
        kinds.append((successes_on(face), is_bane(face), rerolled_by_default(face)))
    return tuple(kinds)


@cache
def _settled_outcomes(sides: int, banes: bool, pushes: int) -> dict[Outcome, int]:
    """One die's (successes, banes) weights after up to ``pushes`` default rerolls (what a
    pool's outcome adds up), on the common total ``sides ** (pushes + 1)``; ``banes`` says
    whether a 1 on it counts. As ``_settled_weights``, less the rerolled flag.

    Each push keeps a face that stays at ``sides`` times its weight and spreads the weight
    of the rerolled faces evenly over all the faces, so every face that stays has one
    weight and every face that moves another: two numbers carry the die, not one per face.
    """
    kinds = _face_kinds()[:sides]
    moving_faces = 0
    for _, _, move in kinds:
        moving_faces += move
    stays = moves = 1  # the weight of one face that stays, and of one the push rerolls
    for _ in range(pushes):
        spread = moving_faces * moves
        stays, moves = stays * sides + spread, spread
    outcomes: dict[Outcome, int] = {}
    for successes, bane, move in kinds:
        key = (successes, 1 if banes and bane else 0)
        outcomes[key] = outcomes.get(key, 0) + (moves if move else stays)
    return outcomes


State = tuple[int, int]
"""One die as it stands: (face, 1 if a push has rerolled it)."""


def _if_failed(dice: Sequence[PoolDie], gear_banes: str, pushes: int) -> Distribution[Tally]:
    """Push with the default choice while the whole roll has no success, up to ``pushes`` times.

    A failure is a per-die event (every die shows no success), so given a failure the
    dice stay independent: each one is conditioned on its own non-success and pushed
    on its own (a 1 stays, anything else is rerolled).
    """

    def tallied(state: Distribution[State], role: str) -> Distribution[Tally]:
        return state.map(lambda s: _tally_for(s[0], role, gear_banes, s[1]))

    def pushed(state: Distribution[State], sides: int) -> Distribution[State]:
        def reroll(s: State) -> Distribution[State]:
            if not rerolled_by_default(s[0]):
                return Distribution.single(s)
            return Distribution.die(sides).map(lambda new: (new, 1))

        return _given(state, lambda s: not successes_on(s[0])).flat_map(reroll)

    def settle(states: list[Distribution[State]], left: int) -> Distribution[Tally]:
        whole = sum_all(tallied(state, role) for state, (_, role) in zip(states, dice, strict=True))
        failed = Fraction(1)
        for state in states:
            failed *= state.probability_where(lambda s: not successes_on(s[0]))
        if left == 0 or failed == 0:
            return whole
        after = [pushed(state, sides) for state, (sides, _) in zip(states, dice, strict=True)]
        parts = [(failed, settle(after, left - 1))]
        if failed < 1:
            parts.insert(0, (1 - failed, _given(whole, lambda t: t[0] > 0)))
        return _mix(parts)

    return settle([Distribution.die(sides).map(lambda f: (f, 0)) for sides, _ in dice], pushes)


def pool_tallies(
    dice: Sequence[PoolDie], policy: PushPolicy, pushes: int, gear_banes: str
) -> Distribution[Tally]:
    """The joint tally of a pool under a push policy with ``pushes`` pushes allowed."""
    if policy == "never" or not pushes:
        return sum_all(_settled_die(sides, role, gear_banes, 0) for sides, role in dice)
    if policy == "if-failed":
        return _if_failed(dice, gear_banes, pushes)
    return sum_all(_settled_die(sides, role, gear_banes, pushes) for sides, role in dice)


def tally_distribution(check: PreparedCheck, policy: PushPolicy = "never") -> Distribution[Tally]:
    """Joint distribution of the final tally under a push policy (pushes up to the roll's limit)."""
    return pool_tallies(_planned(check), policy, check.max_pushes, check.request.options.gear_banes)


GEAR_BANES = ("base-dice", "gear-dice")
MAX_GEAR_DICE = 6
"""An item grants at most six extra dice (``GearInUse.dice``)."""


def _step_sides(field: str, die: object) -> int:
    if type(die) is int and die in _STEP_SIDES:  # sides as a number: the common case
        return die
    if isinstance(die, StepDie):
        return die.value
    return StepDie.parse(field, die).value


_STEP_SIDES = frozenset(die.value for die in LADDER)


def pool_outcomes(
    attribute: int | str | StepDie,
    skill: int | str | StepDie | None = None,
    gear: Sequence[int | str | StepDie] = (),
    policy: PushPolicy = "never",
    pushes: int = BASE_PUSHES,
    gear_banes: str = "base-dice",
    limits: Limits = DEFAULT_LIMITS,
) -> Distribution[Outcome]:
    """(successes, banes) of a pool of dice as they are rolled, after a push policy.

    The pool-level entry point: no request, no content, no modifiers to step the dice;
    each die is its number of sides (6, 8, 10, 12) or its label ("D8"). Equal to
    ``outcome_distribution(prepare(request), policy)`` for the pool a request prepares.
    """
    dice = [(_step_sides("attribute", attribute), "attribute")]
    if skill is not None:
        dice.append((_step_sides("skill", skill), "skill"))
    if gear:
        dice += [(_step_sides(f"gear[{i}]", die), "gear") for i, die in enumerate(gear)]
    if len(gear) > MAX_GEAR_DICE:
        raise InvalidInput("gear", len(gear), f"at most {MAX_GEAR_DICE} extra dice")
    if policy not in PUSH_POLICIES:
        raise InvalidInput("policy", policy, "one of " + ", ".join(PUSH_POLICIES))
    if type(pushes) is not int or not 0 <= pushes <= limits.max_pushes:
        raise InvalidInput("pushes", pushes, f"0 to {limits.max_pushes} pushes")
    if gear_banes not in GEAR_BANES:
        raise InvalidInput("gear_banes", gear_banes, "one of " + ", ".join(GEAR_BANES))
    if policy == "if-failed" and pushes:
        tallies = _if_failed(dice, gear_banes, pushes)
        return tallies.map(lambda t: (t[0], t[1] + t[2]))
    allowed = pushes if policy == "always" else 0
    weights: dict[Outcome, int] | None = None
    for sides, role in dice:
        part = _settled_outcomes(sides, bane_counts(role, gear_banes), allowed)
        weights = part if weights is None else _add_outcomes(weights, part)
    assert weights is not None  # the attribute die at least
    return Distribution._trusted(weights)  # read, not kept: a cached part may be passed


def _add_outcomes(a: dict[Outcome, int], b: dict[Outcome, int]) -> dict[Outcome, int]:
    """The outcome weights of two independent parts of a pool, added up."""
    out: dict[Outcome, int] = {}
    get = out.get
    for (s1, b1), w1 in a.items():
        for (s2, b2), w2 in b.items():
            key = (s1 + s2, b1 + b2)
            out[key] = get(key, 0) + w1 * w2
    return out


def _given(dist: Distribution[K], keep: Callable[[K], bool]) -> Distribution[K]:
    return Distribution({k: w for k, w in dist.items() if keep(k)})


def _mix(parts: Sequence[tuple[Fraction, Distribution[Tally]]]) -> Distribution[Tally]:
    live = [(p, d) for p, d in parts if p]
    chooser = Distribution.from_probabilities({i: p for i, (p, _) in enumerate(live)})
    return chooser.flat_map(lambda i: live[i][1])


def outcome_distribution(
    check: PreparedCheck, policy: PushPolicy = "never"
) -> Distribution[Outcome]:
    """(successes, banes) after the policy; banes count only the dice the variant says."""
    return tally_distribution(check, policy).map(lambda t: (t[0], t[1] + t[2]))


def success_distribution(check: PreparedCheck, policy: PushPolicy = "never") -> Distribution[int]:
    return tally_distribution(check, policy).map(lambda t: t[0])


def p_success(check: PreparedCheck, policy: PushPolicy = "never") -> Fraction:
    return tally_distribution(check, policy).probability_where(lambda t: t[0] >= 1)


def p_bane_charged(check: PreparedCheck, policy: PushPolicy) -> Fraction:
    """Chance that a push happens and at least one bane shows after it (so it costs something)."""
    return tally_distribution(check, policy).probability_where(
        lambda t: t[3] > 0 and t[1] + t[2] > 0
    )


def gear_loss_distribution(eligible: int, bonus: int) -> Distribution[int]:
    """Gear points lost to ``eligible`` banes: a 2-in-6 check each while the gear has points."""
    hit = Distribution.die(GEAR_CHECK_SIDES).map(lambda f: 1 if f in GEAR_LOSS_FACES else 0)
    lost: Distribution[int] = Distribution.single(0)
    for _ in range(eligible):
        lost = lost.flat_map(
            lambda so_far: (
                Distribution.single(so_far) if so_far >= bonus else hit.map(lambda h: so_far + h)
            )
        )
    return lost


def gear_eligible(on_base: int, on_gear: int, gear_banes: str) -> int:
    """How many of the charged banes (``on_base`` base dice, ``on_gear`` gear dice) get the
    gear check: the roller's rule (``rules.risks_gear``), counted."""
    return on_base * risks_gear("base", gear_banes) + on_gear * risks_gear("gear", gear_banes)


Cost = tuple[int, int]
"""(damage or stress points, gear points lost)."""


def cost_distribution(check: PreparedCheck, policy: PushPolicy) -> Distribution[Cost]:
    """Exact costs of playing a policy: nothing unless a push happened."""
    gear = check.request.gear
    gear_banes = check.request.options.gear_banes

    def cost_of(t: Tally) -> Distribution[Cost]:
        if not t[3]:
            return Distribution.single((0, 0))
        charged = t[1] + t[2]
        eligible = 0 if gear is None else gear_eligible(t[1], t[2], gear_banes)
        losses = gear_loss_distribution(eligible, gear.bonus if gear else 0)
        return losses.map(lambda lost: (charged - lost, lost))

    return tally_distribution(check, policy).flat_map(cost_of)


def selection_distribution(
    result: EmptyReachResult, selection: Sequence[int]
) -> Distribution[Tally]:
    """The tally if the player pushes now, rerolling exactly ``selection`` (the advisor's view)."""
    chosen = set(selection)
    parts = []
    for index, die in enumerate(result.dice):
        if index in chosen:
            parts.append(_rerolled_die(die.sides, die.role, result.check))
        else:
            parts.append(Distribution.single(tally(die.face, die.role, result.check)))
    return sum_all(parts)


def _rerolled_die(sides: int, role: str, check: PreparedCheck) -> Distribution[Tally]:
    return Distribution.die(sides).map(lambda face: tally(face, role, check, 1))


def opposed_odds(
    active: PreparedCheck, defender: PreparedCheck, policy: PushPolicy = "never"
) -> dict[Verdict, Fraction]:
    """Win, tie and loss for the active side; the defender never pushes."""
    margin: Distribution[int] = success_distribution(active, policy).combine(
        success_distribution(defender), lambda a, d: a - d
    )
    return {
        "win": margin.probability_where(lambda m: m > 0),
        "tie": margin.probability(0),
        "loss": margin.probability_where(lambda m: m < 0),
    }


def tie_settled(
    verdicts: dict[Verdict, Fraction], check: PreparedCheck
) -> tuple[dict[Verdict, Fraction], list[Extra]]:
    """The verdicts under the table's ``tie_break``: ``reroll`` rolls a tie again until it
    breaks, so win and loss come in proportion and the first tie is an extra (ruling E21)."""
    decided = verdicts["win"] + verdicts["loss"]
    if check.request.options.tie_break != "reroll" or not decided:
        return verdicts, []
    settled: dict[Verdict, Fraction] = {
        "win": verdicts["win"] / decided,
        "loss": verdicts["loss"] / decided,
    }
    return settled, [Extra("p_tie_first", "tie on the first roll", verdicts["tie"])]


def summary(
    check: PreparedCheck,
    policy: PushPolicy = "never",
    defender: PreparedCheck | None = None,
    if_pushed: bool = False,
) -> Chances:
    """Every figure the odds questions ask, exactly: the number of successes under ``policy``
    (success is one or more) and E[successes]; with pushes P(a bane is charged), E[damage or
    stress] and, with gear, P(it loses a point); against a ``defender`` the verdicts; and,
    ``if_pushed``, P(success) when a failed roll is pushed."""
    counts = success_distribution(check, policy)
    extras: list[Extra] = []
    if if_pushed and check.max_pushes:
        label = "success if pushed when failing"
        extras.append(Extra("p_success_if_pushed", label, p_success(check, "if-failed")))
    extras.append(Extra("expected_successes", "expected successes", counts.mean(), "expectation"))
    if policy != "never":
        costs = cost_distribution(check, policy)
        cost = costs.mean(lambda c: c[0])
        extras.append(Extra("p_bane", "bane after push", p_bane_charged(check, policy)))
        extras.append(Extra("expected_cost", "expected damage or stress", cost, "expectation"))
        if check.gear_in_use:
            lost = costs.probability_where(lambda c: c[1] > 0)
            extras.append(Extra("p_gear_loss", "gear loses a point", lost))
    if defender is not None:
        verdicts, first_tie = tie_settled(opposed_odds(check, defender, policy), check)
        extras += [Extra(f"p_{v}", f"opposed: {v}", p) for v, p in verdicts.items()]
        extras += first_tie
    outcomes = tuple(
        contract.Outcome(str(n), f"{n} success" + ("" if n == 1 else "es"), p, n >= 1)
        for n, p in counts.probabilities().items()
    )
    return Chances(outcomes, tuple(extras), outcome_name="successes")
