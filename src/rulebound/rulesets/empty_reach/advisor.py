"""The push advisor: exact odds for every choice of dice to reroll, from the dice showing, and
the push as a card offers it (each choice's odds in words)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from typing import Literal

from rulebound.core.distribution import Distribution
from rulebound.core.errors import InvalidInput
from rulebound.core.trace import DieRecord
from rulebound.rulesets.contract import ActionView, Field
from rulebound.rulesets.empty_reach.odds import (
    Tally,
    gear_eligible,
    gear_loss_distribution,
    selection_distribution,
    tally,
)
from rulebound.rulesets.empty_reach.roll import EmptyReachResult
from rulebound.rulesets.empty_reach.rules import PUSH, bane_counts, is_bane

Goal = Literal["succeed", "successes"]
REROLL = Field("reroll", "Dice to reroll", "dice", help="Click the dice to reroll; 1s are locked.")


@dataclass(frozen=True, slots=True)
class PushOption:
    """One choice, with its exact consequences. An empty selection means "don't push".

    ``p_success`` is the chance of more than ``beat`` successes: one or more for a check,
    more than the defender rolled for an opposed roll.
    """

    selection: tuple[int, ...]
    p_success: Fraction
    expected_successes: Fraction
    p_bane: Fraction
    expected_points: Fraction
    p_gear_loss: Fraction


def _current_banes(result: EmptyReachResult) -> tuple[int, int]:
    rule = result.check.request.options.gear_banes
    banes = [d.role == "gear" for d in result.dice if is_bane(d.face) and bane_counts(d.role, rule)]
    return banes.count(False), banes.count(True)


def _costs(result: EmptyReachResult, tally: Tally) -> Distribution[tuple[int, int]]:
    """(points, gear loss) charged by pushing into ``tally``."""
    base_now, gear_now = (0, 0) if result.push_number == 0 else _current_banes(result)
    new_base, new_gear = tally[1] - base_now, tally[2] - gear_now
    gear = result.check.request.gear
    if gear is None:
        return Distribution.single((new_base + new_gear, 0))
    lost_before = sum(node.costs.gear_loss for node in _chain(result) if node.costs is not None)
    eligible = gear_eligible(new_base, new_gear, result.check.request.options.gear_banes)
    losses = gear_loss_distribution(eligible, max(0, gear.bonus - lost_before))
    return losses.map(lambda lost: (new_base + new_gear - lost, lost))


def _chain(result: EmptyReachResult) -> list[EmptyReachResult]:
    nodes = []
    node: EmptyReachResult | None = result
    while node is not None:
        nodes.append(node)
        node = node.parent
    return nodes


def evaluate(result: EmptyReachResult, selection: tuple[int, ...], beat: int = 0) -> PushOption:
    if not selection:
        return PushOption(
            (),
            Fraction(int(result.successes > beat)),
            Fraction(result.successes),
            Fraction(0),
            Fraction(0),
            Fraction(0),
        )
    allowed = set(result.rerollable())
    for index in selection:
        if index not in allowed:
            raise InvalidInput(
                "selection", index, f"indices of dice not showing 1, from {sorted(allowed)}"
            )
    tallies = selection_distribution(result, selection)
    costs = tallies.flat_map(lambda t: _costs(result, t))
    return PushOption(
        selection,
        tallies.probability_where(lambda t: t[0] > beat),
        tallies.mean(lambda t: t[0]),
        costs.probability_where(lambda c: c[0] + c[1] > 0),
        costs.mean(lambda c: c[0]),
        costs.probability_where(lambda c: c[1] > 0),
    )


def push_options(result: EmptyReachResult, beat: int = 0) -> list[PushOption]:
    """Not pushing, then every non-empty selection of rerollable dice.

    Two selections whose rerolled dice are alike (the same sizes, in the same roles) and
    whose kept dice tally the same have the same consequences: each such class is worked
    out once, so a pool of like dice costs its distinct choices, not its subsets."""
    if result.pushes_left <= 0:
        return []
    allowed = result.rerollable()
    options = [evaluate(result, (), beat)]
    worked: dict[Hashable, PushOption] = {}
    for size in range(1, len(allowed) + 1):
        for combo in combinations(allowed, size):
            key = _alike(result, combo)
            found = worked.get(key)
            if found is None:
                found = worked[key] = evaluate(result, combo, beat)
            options.append(replace(found, selection=combo))
    return options


def _alike(result: EmptyReachResult, selection: tuple[int, ...]) -> Hashable:
    """What a selection's consequences depend on: the rerolled dice's sizes and roles, and
    the kept dice's tally."""
    check = result.check
    rerolled = sorted((result.dice[i].sides, result.dice[i].role) for i in selection)
    kept = tuple(
        map(
            sum,
            zip(
                *(
                    tally(d.face, d.role, check)
                    for i, d in enumerate(result.dice)
                    if i not in selection
                ),
                strict=True,
            ),
        )
    )
    return tuple(rerolled), kept


def recommend(result: EmptyReachResult, goal: Goal = "succeed", beat: int = 0) -> PushOption | None:
    """The best choice for the goal; ties go to the cheaper choice, then to fewer dice."""
    return best_of(push_options(result, beat), goal)


def best_of(options: list[PushOption], goal: Goal = "succeed") -> PushOption | None:
    """``recommend`` among options already worked out."""
    if not options:
        return None
    if goal == "succeed":
        return max(
            options,
            key=lambda o: (
                o.p_success,
                o.expected_successes,
                -o.expected_points,
                -len(o.selection),
            ),
        )
    return max(
        options,
        key=lambda o: (o.expected_successes, o.p_success, -o.expected_points, -len(o.selection)),
    )


def _pct(p: Fraction) -> str:
    return f"{float(p):.1%}"


def push_action(
    result: EmptyReachResult, beat: int = 0, goal: str = "success", *, advised: bool = True
) -> ActionView:
    """The push (``advised``: with exact odds for every choice of dice, as its card shows
    it; ``goal``: more than ``beat`` successes, which for an opposed roll means winning)."""
    dice = replace(REROLL, default=tuple(map(str, result.default_reroll())))
    gear = " and gear" if result.check.gear_in_use else ""
    risked = (result.check.cost or "damage or stress") + gear
    advice = _advice(result, beat, goal) if advised else ()
    return ActionView(PUSH, "Push the roll", (dice,), advice, spends=risked)


def _advice(result: EmptyReachResult, beat: int, goal: str) -> tuple[str, ...]:
    """Each choice of dice in words, the recommended one marked."""
    options = push_options(result, beat)
    best = best_of(options)
    keep = next((o for o in options if not o.selection), None)
    if keep is not None and best is not None and best.p_success <= keep.p_success:
        best = keep  # a push that cannot raise the chance of the goal is never advised
    cost = result.check.cost or "damage or stress"
    advice: dict[str, bool] = {}  # each choice in words, once: like dice are one choice
    if keep is not None:
        advice[f"keep: {goal} {_pct(keep.p_success)}, {_successes(keep)}, no cost"] = best == keep
    pushes = [o for o in options if o.selection]
    said = {o: _consequences(o, goal, cost, result.check.gear_in_use) for o in pushes}
    alike: dict[str, set[str]] = {}
    for option in pushes:
        alike.setdefault(_dice(result, option.selection), set()).add(said[option])
    for option in pushes:
        words = _dice(result, option.selection)
        if len(alike[words]) > 1:  # dice alike to the eye but not in their roles' costs
            words = _dice(result, option.selection, by_role=True)
        line = f"reroll {words}: {said[option]}"
        advice[line] = advice.get(line, False) or option == best
    return tuple(line + (" (recommended)" if marked else "") for line, marked in advice.items())


def _consequences(option: PushOption, goal: str, cost: str, gear: bool) -> str:
    return (
        f"{goal} {_pct(option.p_success)}, {_successes(option)}, bane {_pct(option.p_bane)}"
        + (f", gear loss {_pct(option.p_gear_loss)}" if gear else "")
        + f", {float(option.expected_points):.2f} {cost} on average"
    )


def _successes(option: PushOption) -> str:
    return f"{float(option.expected_successes):.2f} successes on average"


def _dice(result: EmptyReachResult, selection: tuple[int, ...], by_role: bool = False) -> str:
    """The dice as every front end shows them, by size and face, whatever it counts them
    from: "the D8 showing 6 and the D10 showing 3", "a D8 showing 3", "both D8s showing 3";
    ``by_role`` where dice alike to the eye differ in what they cost: "the gear D8"."""

    def kind(die: DieRecord) -> tuple[str, int]:
        return (f"{die.role} {die.label}" if by_role else die.label), die.face

    kinds = Counter(kind(d) for d in result.dice)  # in the pool's order, which words keep
    chosen = Counter(kind(result.dice[i]) for i in selection)
    return " and ".join(_some(chosen[k], n, *k) for k, n in kinds.items() if k in chosen)


def _some(chosen: int, alike: int, label: str, face: int) -> str:
    """``chosen`` of the ``alike`` dice of one size showing one face, in words."""
    showing = f"showing {face}"
    if chosen == alike == 1:
        return f"the {label} {showing}"
    if chosen == alike:
        return f"{'both' if alike == 2 else f'all {alike}'} {label}s {showing}"
    return f"a {label} {showing}" if chosen == 1 else f"{chosen} of the {alike} {label}s {showing}"
