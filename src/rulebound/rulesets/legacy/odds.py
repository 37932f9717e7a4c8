"""Exact odds for Legacy checks, built on the same rule functions the roller uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate
from math import comb
from operator import mul
from typing import Any

from rulebound.core.distribution import Distribution
from rulebound.core.errors import InvalidInput
from rulebound.rulesets.contract import Chances, Extra
from rulebound.rulesets.legacy.checks import CheckRequest, luck_request, resolve
from rulebound.rulesets.legacy.extended import (
    ExtendedCheck,
    ExtendedSpec,
    ExtendedStatus,
    status_of,
)
from rulebound.rulesets.legacy.opposed import OpposedOutcome, compare, standing
from rulebound.rulesets.legacy.request import LegacyRoll
from rulebound.rulesets.legacy.rules import (
    DEATH_SAVE_DIE,
    DEATH_SAVE_LIMIT,
    OUTCOMES,
    Edge,
    Outcome,
    Thresholds,
    classify,
    death_save_points,
    weighted_margin,
)


@cache
def kept_face(die: int, edge: Edge) -> Distribution[int]:
    """The face that counts: one die, or the lower (advantage) or higher (disadvantage) of two."""
    one = Distribution.die(die)
    if edge is Edge.ADVANTAGE:
        return one.combine(one, min)
    if edge is Edge.DISADVANTAGE:
        return one.combine(one, max)
    return one


def outcome_distribution(t: Thresholds, edge: Edge) -> Distribution[Outcome]:
    return kept_face(t.die, edge).map(lambda face: classify(face, t))


def full_chances(t: Thresholds, edge: Edge) -> dict[Outcome, Fraction]:
    """Every outcome, including the impossible ones at 0, in best-to-worst order."""
    dist = outcome_distribution(t, edge)
    return {o: dist.probability(o) for o in OUTCOMES}


def check_chances(req: CheckRequest) -> dict[Outcome, Fraction]:
    res = resolve(req)
    return full_chances(res.thresholds, res.edge)


def p_success(req: CheckRequest) -> Fraction:
    chances = check_chances(req)
    return chances[Outcome.CRITICAL_SUCCESS] + chances[Outcome.SUCCESS]


_RANK = {o: len(OUTCOMES) - i for i, o in enumerate(OUTCOMES)}


def p_reroll_improves(req: CheckRequest, current: Outcome) -> Fraction:
    """The chance a fresh roll of the same check lands on a strictly better outcome."""
    return sum((p for o, p in check_chances(req).items() if _RANK[o] > _RANK[current]), Fraction(0))


def _side(req: CheckRequest) -> Distribution[tuple[bool, int]]:
    res = resolve(req)
    return kept_face(res.thresholds.die, res.edge).map(lambda f: standing(f, res.thresholds))


def opposed_chances(actor: CheckRequest, opponent: CheckRequest) -> dict[OpposedOutcome, Fraction]:
    a, b = actor.ability_bonus, opponent.ability_bonus
    dist = _side(actor).combine(_side(opponent), lambda x, y: compare(x, y, a, b))
    return {o: dist.probability(o) for o in OpposedOutcome}


@dataclass(frozen=True, slots=True)
class DeathSaveOdds:
    p_stable: Fraction
    p_dead: Fraction
    expected_rolls: Fraction


@cache
def _save_counts(cancel_chance: Fraction) -> tuple[int, list[tuple[tuple[int, int], int]]]:
    """One save's (successes, failures) added, each with its count out of the scale: the
    die's faces, with ``cancel_chance`` of a critical failure's count moved to one failure."""
    faces = Counter(death_save_points(face) for face in range(1, DEATH_SAVE_DIE + 1))
    whole, cancelled = cancel_chance.denominator, cancel_chance.numerator
    counts = {move: n * whole for move, n in faces.items()}
    critical = faces[(0, 2)]
    counts[(0, 2)] = critical * (whole - cancelled)
    counts[(0, 1)] = counts.get((0, 1), 0) + critical * cancelled
    return DEATH_SAVE_DIE * whole, [(move, n) for move, n in counts.items() if n]


def death_save_odds(
    successes: int = 0, failures: int = 0, cancel_chance: Fraction = Fraction(0)
) -> DeathSaveOdds:
    """Solve the death-save chain exactly from a starting tally.

    Every save adds at least one success or failure, so the chain is acyclic and
    a memoised recursion over (successes, failures) is the exact solution. It works in
    integers: each save's chances as counts out of a common ``scale``, and each state's
    answers as numerators over ``scale ** depth`` (a Fraction would reduce at every step).
    ``cancel_chance`` is the chance a critical failure is cancelled to a single
    failure (a Halfling soul's LCK save: ``p_success(luck_request(lck))``).
    """
    if not 0 <= cancel_chance <= 1:
        raise InvalidInput("cancel_chance", cancel_chance, "a probability from 0 to 1")
    scale, counts = _save_counts(Fraction(cancel_chance))

    @cache
    def solve(s: int, f: int) -> tuple[int, int, int, int]:
        """(stable, dead, rolls) from here as numerators over ``scale ** depth``, and depth."""
        if s >= DEATH_SAVE_LIMIT:
            return (1, 0, 0, 0)
        if f >= DEATH_SAVE_LIMIT:
            return (0, 1, 0, 0)
        after = [(count, solve(s + ds, f + df)) for (ds, df), count in counts]
        depth = max(answer[3] for _, answer in after)
        stable = dead = rolls = 0
        for count, (ps, pd, pr, d) in after:
            lift = count * scale ** (depth - d)
            stable, dead, rolls = stable + lift * ps, dead + lift * pd, rolls + lift * pr
        return (stable, dead, scale ** (depth + 1) + rolls, depth + 1)

    stable, dead, rolls, depth = solve(successes, failures)
    whole = scale**depth
    return DeathSaveOdds(Fraction(stable, whole), Fraction(dead, whole), Fraction(rolls, whole))


ENDS: tuple[ExtendedStatus, ...] = tuple(
    s for s in ExtendedStatus if s is not ExtendedStatus.IN_PROGRESS
)
"""The ways an extended check ends, in ``extended_chances``' order."""


def extended_chances(
    req: CheckRequest,
    spec: ExtendedSpec,
    success: int = 0,
    failure: int = 0,
    rolls_made: int = 0,
    *,
    first: CheckRequest | None = None,
) -> dict[ExtendedStatus, Fraction]:
    """The chance of each way an extended check ends, exactly, over integer weights.

    ``first``: the first roll's own check (a curse's disadvantage, favour's advantage),
    while that roll is still to come: the odds are mixed over its tallies, each followed
    by the plain rolls from there (``_first_mixed``).

    Each roll adds to one tally only (``_tally_of``): a success-side roll (its margin,
    0 included) or a failure-side one. So the check is two independent sums, one per
    side, interleaved: the chance that the success sum reaches its threshold at its
    ``j``-th roll while the failure sum of the other ``k - j`` rolls has not is a
    product of one-dimensional counts (``_ExtendedCounts``), summed over the
    ``comb(k - 1, j - 1)`` orders. A saved check's tallies and rolls give the odds
    from where it stands.
    """
    ended = dict.fromkeys(ENDS, Fraction(0))
    start = (min(success, spec.success_threshold), min(failure, spec.failure_threshold))
    now = status_of(start[0], start[1], rolls_made, spec)
    if now is not ExtendedStatus.IN_PROGRESS:
        ended[now] = Fraction(1)
        return ended
    if first is not None and first != req and not rolls_made:
        return _first_mixed(req, spec, first, success, failure)
    return _plain_ends(req, spec, start, rolls_made, _short_sums)


SumsOf = Callable[[dict[int, int], int, int], list[list[int]]]
"""``_short_sums``, or a stand-in that gives the same lists (``_SharedSums``)."""


def _plain_ends(
    req: CheckRequest, spec: ExtendedSpec, start: tuple[int, int], rolls_made: int, sums: SumsOf
) -> dict[ExtendedStatus, Fraction]:
    """``extended_chances`` of a check still in progress from the (capped) tally ``start``,
    every roll left being ``req``."""
    res, ended = resolve(req), dict[ExtendedStatus, Fraction]()
    tally = _tally_of(res.thresholds)
    gains: dict[int, int] = {}
    losses: dict[int, int] = {}
    for face, weight in kept_face(res.thresholds.die, res.edge).items():
        up, down = tally(face)
        side, amount = (losses, down) if down else (gains, up)
        side[amount] = side.get(amount, 0) + weight
    rolls = spec.max_rolls - rolls_made
    counts = _ExtendedCounts(
        gains,
        losses,
        spec.success_threshold - start[0],
        spec.failure_threshold - start[1],
        rolls,
        start[1] - start[0],
        sums,
    )
    total = (sum(gains.values()) + sum(losses.values())) ** rolls
    ended[ExtendedStatus.SUCCEEDED] = Fraction(counts.succeeded, total)
    ended[ExtendedStatus.FAILED] = Fraction(counts.failed, total)
    ended[ExtendedStatus.PARTIAL] = Fraction(counts.partial, total)
    ended[ExtendedStatus.RAN_OUT] = Fraction(counts.ran_out, total)
    return ended


def _first_mixed(
    req: CheckRequest, spec: ExtendedSpec, first: CheckRequest, success: int, failure: int
) -> dict[ExtendedStatus, Fraction]:
    """``extended_chances`` when the first roll is ``first`` and the rest ``req``: for each
    (success, failure) the first roll adds, with its weight, the ends from that tally. The
    rest's sums are worked out once for all those tallies (``_SharedSums``)."""
    res = resolve(first)
    tally, weights = _tally_of(res.thresholds), Counter[tuple[int, int]]()
    for face, weight in kept_face(res.thresholds.die, res.edge).items():
        weights[tally(face)] += weight
    whole, shared = sum(weights.values()), _SharedSums(spec)
    mixed = dict.fromkeys(ENDS, Fraction(0))
    for (up, down), weight in weights.items():
        s = min(success + up, spec.success_threshold)
        f = min(failure + down, spec.failure_threshold)
        now = status_of(s, f, 1, spec)
        after = {now: Fraction(1)} if now is not ExtendedStatus.IN_PROGRESS else None
        for status, p in (after or _plain_ends(req, spec, (s, f), 1, shared)).items():
            mixed[status] += Fraction(weight, whole) * p
    return mixed


class _SharedSums:
    """``_short_sums`` of one side's steps over the rolls left, worked out once below the
    larger threshold and cut for each smaller ``need``: no step is negative, so the ways
    that stay below a smaller need are the first slots of those below a larger one."""

    def __init__(self, spec: ExtendedSpec) -> None:
        self.top = max(spec.success_threshold, spec.failure_threshold)
        self.found: dict[tuple[tuple[tuple[int, int], ...], int], list[list[int]]] = {}

    def __call__(self, steps: dict[int, int], need: int, rolls: int) -> list[list[int]]:
        key = (tuple(sorted(steps.items())), rolls)
        if key not in self.found:
            self.found[key] = _short_sums(steps, self.top, rolls)
        return [row[:need] for row in self.found[key]]


class _ExtendedCounts:
    """How many of the ``W ** rolls`` roll sequences end each way (``W`` the weight of one
    roll), from the weights of the success-side gains and of the failure-side losses.

    ``need_s``/``need_f`` are what each tally still needs; a partial success needs the
    success sum to beat the failure sum by more than ``lead``. The sums of ``j`` rolls of
    one side are a polynomial packed into one integer, a coefficient per ``bits``-bit slot
    (``bits`` holds ``W ** rolls``, so no slot overflows and the slots add up to the value
    modulo ``2 ** bits - 1``): the next roll is one big-integer multiplication, and "the
    ways that stay below the threshold" one mask.
    """

    def __init__(
        self,
        gains: dict[int, int],
        losses: dict[int, int],
        need_s: int,
        need_f: int,
        rolls: int,
        lead: int,
        sums: SumsOf,
    ) -> None:
        a, b = sum(gains.values()), sum(losses.values())
        if rolls * max(gains, default=0) < need_s and rolls * max(losses, default=0) < need_f:
            # neither threshold can be reached: only the final difference matters
            self.succeeded = self.failed = 0
            self.partial = _ahead(gains, losses, rolls, lead)
            self.ran_out = (a + b) ** rolls - self.partial
            return
        sums_s = sums(gains, need_s, rolls)
        sums_f = sums(losses, need_f, rolls)
        short_s = [sum(v) for v in sums_s]  # sequences of j rolls still short
        short_f = [sum(v) for v in sums_f]
        reached_s = [a**j - n for j, n in enumerate(short_s)]
        reached_f = [b**i - n for i, n in enumerate(short_f)]
        first_s = [0] + [reached_s[j] - a * reached_s[j - 1] for j in range(1, rolls + 1)]
        first_f = [0] + [reached_f[i] - b * reached_f[i - 1] for i in range(1, rolls + 1)]
        succeeded = failed = 0
        for k in range(1, rolls + 1):  # the check ends at roll k
            later = (a + b) ** (rolls - k)
            succeeded += later * sum(
                comb(k - 1, j - 1) * first_s[j] * short_f[k - j] for j in range(1, k + 1)
            )
            failed += later * sum(
                comb(k - 1, i - 1) * first_f[i] * short_s[k - i] for i in range(1, k + 1)
            )
        partial = neither = 0
        for j in range(rolls + 1):  # every roll made: j on the success side
            i = rolls - j
            neither += comb(rolls, j) * short_s[j] * short_f[i]
            if short_s[j] and short_f[i]:
                partial += comb(rolls, j) * _beats(sums_s[j], sums_f[i], short_f[i], lead)
        self.succeeded, self.failed = succeeded, failed
        self.partial, self.ran_out = partial, neither - partial


def _slot_bits(most: int) -> int:
    """Whole bytes holding ``most``, and a spare one."""
    return -(-most.bit_length() // 8) * 8 + 8


STAGE = 8
"""Rolls per stage of ``_short_sums``: each stage packs its slots only as wide as it needs."""


def _short_sums(steps: dict[int, int], need: int, rolls: int) -> list[list[int]]:
    """For j = 0..rolls, the ways j rolls of one side sum to each total below ``need``.

    Each roll is one multiplication of packed polynomials and one mask; the slots are
    only as wide as the counts of the stage's last roll need, so early rolls stay cheap.
    """
    weight = sum(steps.values())
    found = [[1]]
    for first in range(1, rolls + 1, STAGE):
        last = min(first + STAGE - 1, rolls)
        bits = _slot_bits(weight**last)
        step = sum(w << (bits * m) for m, w in steps.items())
        below = (1 << (bits * need)) - 1
        value = _packed(found[-1], bits)
        for _ in range(first, last + 1):
            value = (value * step) & below
            found.append(_unpacked(value, bits))
    return found


def _packed(slots: list[int], bits: int) -> int:
    """The slots as one integer, lowest first (``bits`` a multiple of 8)."""
    size = bits // 8
    return int.from_bytes(b"".join(v.to_bytes(size, "little") for v in slots), "little")


def _beats(gains: list[int], losses: list[int], every: int, lead: int) -> int:
    """Pairs of a gain sum and a loss sum (ways by sum, lowest first) where the gain beats
    the loss by more than ``lead``: the gains against the running total of the losses
    (``every``, their whole count, once the gain beats them all)."""
    below = list(accumulate(losses))  # below[y]: losses summing to y or less
    low = max(lead + 1, 0)  # a gain of x beats the losses up to x - lead - 1
    high = max(lead + 1 + len(below), low)
    found: int = sum(map(mul, gains[low:high], below[low - lead - 1 :]))
    return found + every * sum(gains[high:])


def _ahead(gains: dict[int, int], losses: dict[int, int], rolls: int, lead: int) -> int:
    """Sequences whose gains beat their losses by more than ``lead``, thresholds aside.

    One roll is ``z ** (top_loss + gain)`` or ``z ** (top_loss - loss)``; a power's slots
    count sequences by ``top_loss * n + gains - losses``. Meet in the middle: the two
    halves of the rolls are powers half as long (and half as wide), and the count is one
    pass over the first half's slots against suffix sums of the second's.
    """
    top_loss = max(losses, default=0)
    first, tails = _halves(tuple(gains.items()), tuple(losses.items()), rolls)
    cut = top_loss * rolls + lead + 1  # the two slots must add up to this
    found = 0
    for e, count in enumerate(first):
        if count:
            found += count * tails[min(max(cut - e, 0), len(tails) - 1)]
    return found


@lru_cache(maxsize=8)
def _halves(
    gains: tuple[tuple[int, int], ...], losses: tuple[tuple[int, int], ...], rolls: int
) -> tuple[list[int], list[int]]:
    """``_ahead``'s first half's slots and the second's suffix sums, which do not depend on
    ``lead``: kept for the next call (an extended check's first roll mixes many leads)."""
    top_loss = max((m for m, _ in losses), default=0)
    half = rolls // 2
    bits = _slot_bits((sum(w for _, w in gains) + sum(w for _, w in losses)) ** (rolls - half))
    one = sum(w << (bits * (top_loss + m)) for m, w in gains)
    one += sum(w << (bits * (top_loss - m)) for m, w in losses)
    second_power = one ** (rolls - half)
    first_power = second_power if half == rolls - half else one**half
    first, second = _unpacked(first_power, bits), _unpacked(second_power, bits)
    tails = [*list(accumulate(reversed(second)))[::-1], 0]  # tails[e]: slots e and up
    return first, tails


def _unpacked(value: int, bits: int) -> list[int]:
    """The slots of a packed polynomial, lowest first (``bits`` a multiple of 8)."""
    size = bits // 8
    raw = value.to_bytes(-(-value.bit_length() // 8) or 1, "little")
    return [int.from_bytes(raw[i : i + size], "little") for i in range(0, len(raw), size)]


def _tally_of(t: Thresholds) -> Callable[[int], tuple[int, int]]:
    def tally(face: int) -> tuple[int, int]:
        outcome = classify(face, t)
        m = weighted_margin(face, t, outcome)
        return (m, 0) if outcome.passed else (0, -m)

    return tally


# --- the contract's chances ------------------------------------------------------------

SUCCESS_KEY = "success (critical included)"
"""The first key of ``roll_chances().as_mapping()``; the others are the five outcomes."""
PASSED = frozenset(o for o in OUTCOMES if o.passed)
CRITICAL = frozenset(o for o in OUTCOMES if o.critical)


def roll_chances(roll: LegacyRoll) -> Chances:
    """An extended check's ends, an opposed check's verdicts, or one check's degrees (a check
    that cannot be rolled fails)."""
    if roll.extended is not None:
        return ends_chances(roll.request, roll.extended, first=roll.first_roll())
    if roll.opposed is not None:
        duel = opposed_chances(roll.first_roll(), roll.opposed)
        won = {OpposedOutcome.WIN}
        return Chances.over(duel, won, _each(duel), success_label="win", outcome_name="opposed")
    check = roll.as_rolled()
    fails = {o: Fraction(int(o is Outcome.FAILURE)) for o in OUTCOMES}
    outcomes = fails if check is None else check_chances(check)
    return Chances.over(
        outcomes, PASSED, success_label=SUCCESS_KEY, outcome_name="degrees", critical=CRITICAL
    )


def ends_chances(
    req: CheckRequest, spec: ExtendedSpec, *tally: int, first: CheckRequest | None = None
) -> Chances:
    """How an extended check ends, from its tally so far (success, failure, rolls made);
    ``first``: its first roll's own check (``extended_chances``)."""
    ends = extended_chances(req, spec, *tally, first=first)
    done = {ExtendedStatus.SUCCEEDED}
    return Chances.over(ends, done, success_label="succeeded", outcome_name="ends")


def check_ends(check: ExtendedCheck) -> Chances:
    """How an extended check ends from where it stands (its first roll's own check while
    that roll is still to come)."""
    tally = check.success, check.failure, check.rolls_made
    return ends_chances(check.request, check.spec, *tally, first=check.first)


def death_save_chances(lck: int | None, scale: str) -> Chances:
    """Stable or dead from a fresh tally; ``lck``: a soul's LCK save cancelling criticals."""
    cancel = Fraction(0) if lck is None else p_success(luck_request(lck, scale))
    saves = death_save_odds(cancel_chance=cancel)
    ends = {"stable": saves.p_stable, "dead": saves.p_dead}
    rolls = Extra("expected_rolls", "expected saves", saves.expected_rolls, "expectation")
    extras = (*_each(ends), rolls)
    return Chances.over(
        ends, {"stable"}, extras, success_label="stable", outcome_name="death_saves"
    )


def _each(chances: Mapping[Any, Fraction]) -> tuple[Extra, ...]:
    """Each outcome's chance again as an extra, ``p_<outcome>`` (the odds JSON's old keys)."""
    return tuple(Extra(f"p_{key}", f"P({key})", p) for key, p in chances.items())
