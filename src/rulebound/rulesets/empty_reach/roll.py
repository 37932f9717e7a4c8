"""Rolling a prepared check, and pushing it.

A push never edits a result: it returns a new result whose ``parent`` is the
roll it pushed, whose locked and kept dice carry over, and whose ``costs`` say
what the new banes cost. Each result records only its own draws, so replaying a
push means replaying its parent first and then the push with its own draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource, trusted_builder
from rulebound.core.trace import DieRecord, DieState, Provenance
from rulebound.rulesets.empty_reach.check import PreparedCheck
from rulebound.rulesets.empty_reach.rules import (
    BANE_FACE,
    GEAR_CHECK_SIDES,
    GEAR_LOSS_FACES,
    CostKind,
    StepDie,
    bane_counts,
    marks_for,
    may_reroll,
    rerolled_by_default,
    risks_gear,
    successes_on,
)


@dataclass(frozen=True, slots=True)
class PushCosts:
    """What a push's new banes cost: gear points lost, and damage or stress taken."""

    kind: CostKind | None
    new_banes: int
    gear_checks: tuple[DieRecord, ...]
    gear_loss: int
    points: int

    def describe(self) -> str:
        return f"{self.new_banes} new bane(s): {self.toll()}"

    def toll(self) -> str:
        """What the character pays, in a few words ("1 damage, gear -1")."""
        kind = self.kind or "damage or stress"
        parts = [f"{self.points} {kind}"]
        if self.gear_checks:
            parts.append(f"gear -{self.gear_loss}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class EmptyReachResult:
    check: PreparedCheck
    dice: tuple[DieRecord, ...]
    successes: int
    banes: int
    push_number: int
    costs: PushCosts | None
    provenance: Provenance
    parent: EmptyReachResult | None = None

    @property
    def succeeded(self) -> bool:
        return self.successes >= 1

    @property
    def headline(self) -> str:
        if not self.successes:
            text = "Failure: no success"
        else:
            text = f"{self.successes} success" + ("" if self.successes == 1 else "es")
        return text + (f" (pushed {self.push_number}x)" if self.push_number else "")

    @property
    def pushes_left(self) -> int:
        return self.check.max_pushes - self.push_number

    def rerollable(self) -> tuple[int, ...]:
        """Indices of dice a push may reroll: every die not showing a 1."""
        return tuple([i for i, die in enumerate(self.dice) if _MAY_REROLL[die.face]])

    def default_reroll(self) -> tuple[int, ...]:
        """The default choice: dice showing neither a success nor a 1."""
        return tuple([i for i, die in enumerate(self.dice) if _BY_DEFAULT[die.face]])


def _bane_counts(role: str, check: PreparedCheck) -> bool:
    return bane_counts(role, check.request.options.gear_banes)


def _tally(dice: Sequence[DieRecord], check: PreparedCheck) -> tuple[int, int]:
    gear_banes = check.request.options.gear_banes
    successes = banes = 0
    for die in dice:
        face = die.face
        successes += _SUCCESSES[face]
        if face == BANE_FACE and bane_counts(die.role, gear_banes):
            banes += 1
    return successes, banes


T = TypeVar("T")


class _ByFace(dict[int, T]):
    """A rule of a face, worked out once for every face of the step dice (a D12 at most)
    and looked up; any other face asks the rule itself."""

    def __init__(self, rule: Callable[[int], T]) -> None:
        super().__init__((face, rule(face)) for face in range(1, 13))
        self.rule = rule

    def __missing__(self, face: int) -> T:
        return self.rule(face)


_SUCCESSES = _ByFace(successes_on)
_MAY_REROLL = _ByFace(may_reroll)
_BY_DEFAULT = _ByFace(rerolled_by_default)


_die = trusted_builder(DieRecord)
_result = trusted_builder(EmptyReachResult)
_costs_of = trusted_builder(PushCosts)
_SHOWN = {die: (die.label, int(die)) for die in StepDie}
"""Each die's label and sides, looked up once (an enum's ``label`` and ``value`` are
properties)."""


@cache
def _marks(face: int, counts: bool) -> tuple[str, ...]:
    """``marks_for``, remembered: a handful of faces and two readings."""
    return marks_for(face, bane_counts=counts)


@cache
def _rolled(die: StepDie, role: str, face: int, counts: bool) -> DieRecord:
    """A die as first rolled (``face`` drawn and checked by the recording source): an
    immutable record, so every roll shares one per die, role, face and bane reading."""
    label, sides = _SHOWN[die]
    return _die(label, sides, face, role, DieState.ROLLED, (), _marks(face, counts))


Plan = tuple[tuple[int, tuple[DieRecord | None, ...]], ...]
_PLANS: dict[tuple[object, ...], Plan] = {}
_CHECK_PLANS: dict[int, tuple[PreparedCheck, Plan]] = {}
_REROLLS: dict[tuple[int, int, bool], tuple[DieRecord, DieRecord]] = {}
_CARRIED: dict[int, tuple[DieRecord, DieRecord]] = {}
MAX_REMEMBERED = 1024
"""Entries each memo of records keeps at most; a full memo starts over."""


def _planned(check: PreparedCheck) -> Plan:
    """The dice ``check`` rolls, in order: each one's sides and its record as first rolled
    for every face (index = face, 0 unused), as ``_rolled`` makes it; remembered per pool,
    extra dice and bane reading (a few hundred at most, however many forms come)."""
    mine = _CHECK_PLANS.get(id(check))  # first per check object, which is kept alive
    if mine is not None and mine[0] is check:
        return mine[1]
    pool, gear_dice = check.pool, check.gear_dice
    gear_banes = check.request.options.gear_banes
    key = (pool.attribute, pool.skill, gear_dice, gear_banes)
    found = _PLANS.get(key)
    if found is None:
        found = _plan(pool.dice, gear_dice, gear_banes)
        if len(_PLANS) >= MAX_REMEMBERED:
            _PLANS.clear()
        _PLANS[key] = found
    if len(_CHECK_PLANS) >= MAX_REMEMBERED:
        _CHECK_PLANS.clear()
    _CHECK_PLANS[id(check)] = (check, found)
    return found


def _plan(dice: tuple[StepDie, ...], gear_dice: tuple[StepDie, ...], gear_banes: str) -> Plan:
    """The plan of a pool's dice and an item's extra dice under one bane reading."""
    planned = [(die, "attribute") for die in dice[:1]]
    planned += [(die, "skill") for die in dice[1:]]
    planned += [(die, "gear") for die in gear_dice]
    return tuple(
        (
            sides,
            (None, *(_rolled(die, role, face, counts) for face in range(1, sides + 1))),
        )
        for die, role in planned
        for sides, counts in ((int(die), bane_counts(role, gear_banes)),)
    )


def roll_check(check: PreparedCheck, source: RandomSource) -> EmptyReachResult:
    recorder = RecordingSource(source)
    draw = recorder.draw  # a face it returns is an int from 1 to sides (it checks each)
    dice: tuple[DieRecord, ...] = tuple(
        [faces[draw(sides)] for sides, faces in _planned(check)]  # type: ignore[misc]
    )
    successes, banes = _tally(dice, check)
    provenance = Provenance.of_source(source, recorder.draws)
    return _result(check, dice, successes, banes, 0, None, provenance, None)


def _rerolled(die: DieRecord, face: int, counts: bool) -> DieRecord:
    """``die`` rerolled to ``face`` (drawn and checked by the recording source), shared
    per record object and face: every record is an immutable value."""
    key = (id(die), face, counts)
    found = _REROLLS.get(key)
    if found is not None and found[0] is die:
        return found[1]
    made = die.rerolled(face, _marks(face, counts))
    if len(_REROLLS) >= MAX_REMEMBERED:
        _REROLLS.clear()
    _REROLLS[key] = (die, made)
    return made


def _carried(die: DieRecord) -> DieRecord:
    """``die`` carried over by a push: kept, or locked on a 1; shared per record object."""
    found = _CARRIED.get(id(die))
    if found is not None and found[0] is die:
        return found[1]
    made = die.with_state(DieState.KEPT if _MAY_REROLL[die.face] else DieState.LOCKED)
    if len(_CARRIED) >= MAX_REMEMBERED:
        _CARRIED.clear()
    _CARRIED[id(die)] = (die, made)
    return made


def validate_selection(
    result: EmptyReachResult, reroll: Sequence[int] | None, *, none_left: bool = False
) -> tuple[int, ...]:
    """The dice a push rerolls: ``reroll`` checked against the rules, or the default;
    ``none_left``: an unseen push, which may reroll none (ruling E1)."""
    allowed = result.rerollable()
    chosen = result.default_reroll() if reroll is None else tuple(reroll)
    if len(set(chosen)) != len(chosen):
        raise InvalidInput("reroll", list(chosen), _expected(allowed) + ", each once")
    for index in chosen:
        if index not in allowed:
            raise InvalidInput("reroll", index, _expected(allowed))
    if not chosen and not none_left:
        raise InvalidInput(
            "reroll", list(chosen), "at least one die to reroll, from " + str(list(allowed))
        )
    return chosen


def _expected(allowed: tuple[int, ...]) -> str:
    return f"indices of dice not showing 1, from {list(allowed)}"


def check_may_push(result: EmptyReachResult) -> None:
    """Refuse a push the rules forbid: an unpushable roll, or no push left."""
    check = result.check
    if check.max_pushes == 0:
        reason = check.request.unpushable or "this roll"
        raise RuleViolation("no push", f"{reason} cannot be pushed")
    if result.push_number >= check.max_pushes:
        times = "once" if check.max_pushes == 1 else f"{check.max_pushes} times"
        raise RuleViolation("push limit", f"this roll may be pushed {times} only")


def _gear_lost_so_far(result: EmptyReachResult) -> int:
    lost = 0
    node: EmptyReachResult | None = result
    while node is not None:
        lost += node.costs.gear_loss if node.costs else 0
        node = node.parent
    return lost


@cache
def _no_costs(kind: CostKind | None) -> PushCosts:
    """A push that added no bane: nothing to pay (an immutable record, shared per kind)."""
    return _costs_of(kind, 0, (), 0, 0)


def _costs(
    pushed: EmptyReachResult, after: Sequence[DieRecord], recorder: RecordingSource
) -> PushCosts:
    """Charge the banes this push adds; the first push charges every bane showing."""
    check = pushed.check
    first_push = pushed.push_number == 0
    new_banes = [
        new
        for old, new in zip(pushed.dice, after, strict=True)
        if new.face == BANE_FACE
        and _bane_counts(new.role, check)
        and (first_push or old.face != BANE_FACE)
    ]
    if not new_banes:
        return _no_costs(check.cost)
    gear = check.request.gear
    gear_left = (gear.bonus - _gear_lost_so_far(pushed)) if gear else 0
    checks: list[DieRecord] = []
    gear_loss = points = 0
    for bane in new_banes:
        eligible = gear is not None and risks_gear(bane.role, check.request.options.gear_banes)
        if eligible and gear_left > 0:
            face = recorder.draw(GEAR_CHECK_SIDES)
            hit = face in GEAR_LOSS_FACES
            marks = ("gear loses 1",) if hit else ("no gear loss",)
            checks.append(DieRecord("d6", GEAR_CHECK_SIDES, face, "gear check", marks=marks))
            if hit:
                gear_loss += 1
                gear_left -= 1
                continue
        points += 1
    return _costs_of(check.cost, len(new_banes), tuple(checks), gear_loss, points)


def push(
    result: EmptyReachResult,
    source: RandomSource,
    reroll: Sequence[int] | None = None,
    *,
    none_left: bool = False,
) -> EmptyReachResult:
    """Reroll the chosen dice (default: those with neither success nor 1) as a new result;
    ``none_left``: an unseen push, which counts even when it rerolls none (ruling E1)."""
    check_may_push(result)
    chosen = set(validate_selection(result, reroll, none_left=none_left))
    recorder = RecordingSource(source)
    after: list[DieRecord] = []
    gear_banes = result.check.request.options.gear_banes
    draw = recorder.draw
    for index, die in enumerate(result.dice):
        if index in chosen:
            face = draw(die.sides)
            after.append(_rerolled(die, face, bane_counts(die.role, gear_banes)))
        else:
            after.append(_carried(die))
    costs = _costs(result, after, recorder)
    successes, banes = _tally(after, result.check)
    provenance = Provenance.of_source(source, recorder.draws)
    return _result(
        result.check,
        tuple(after),
        successes,
        banes,
        result.push_number + 1,
        costs,
        provenance,
        result,
    )
