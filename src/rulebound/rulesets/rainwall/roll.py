"""Rolling a check and reallocating its bonus points; results are immutable records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any

from rulebound.core import wording
from rulebound.core.errors import InvalidInput
from rulebound.core.keys import check_known
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.core.random_source import RandomSource, RecordingSource, trusted_builder
from rulebound.core.trace import DieRecord, DieState, Modifier, Provenance, StepChange
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.bonus import checked_allocation, optimal_allocation
from rulebound.rulesets.rainwall.request import RainwallRequest


class AllocationKind(StrEnum):
    OPTIMAL = "optimal"
    MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class RainwallResult:
    """A whole check: the dice as rolled, the points spent on each, and the verdict.

    ``dice`` keeps the rolled faces (what replay reproduces); ``steps`` records
    each bonus move as "6 -> 5 (bonus 1)". A reallocation is a new result whose
    ``parent`` is the one it revises.
    """

    request: RainwallRequest
    dice: tuple[DieRecord, ...]
    allocation: tuple[int, ...]
    allocation_kind: AllocationKind
    modifiers: tuple[Modifier, ...]
    steps: tuple[StepChange, ...]
    raw_successes: int
    successes: int
    unspent: int
    ios: int
    degree: rules.Degree
    provenance: Provenance
    parent: RainwallResult | None = None

    @property
    def succeeded(self) -> bool:
        return self.degree.succeeded

    @property
    def headline(self) -> str:
        return (
            f"{self.degree.label}: {wording.successes(self.successes)} vs DR {self.request.dr}, "
            f"IoS {self.ios}"
        )

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(die.face for die in self.dice)

    @property
    def final_faces(self) -> tuple[int, ...]:
        return tuple(f - p for f, p in zip(self.faces, self.allocation, strict=True))


_die = trusted_builder(DieRecord)
_step = trusted_builder(StepChange)
_result = trusted_builder(RainwallResult)
_modifier = trusted_builder(Modifier)
_LABELS = tuple(f"d{number}" for number in range(1, 1 + DEFAULT_LIMITS.max_dice_per_roll))
_WON, _LOST = ("success",), ("failure",)
_SIDES = rules.DIE_SIDES


@cache
def _plain_dice() -> tuple[tuple[tuple[DieRecord, ...], ...], ...]:
    """Each die with no points spent on it, by position and face (face 0 unused): (the
    failure, the success). These records are immutable values, so every roll shares
    them (made once, on the first roll) instead of building seven new ones per check."""
    return tuple(
        tuple(
            tuple(
                _die(label, _SIDES, face, "pool", DieState.ROLLED, (), marks)
                for marks in (_LOST, _WON)
            )
            for face in range(_SIDES + 1)
        )
        for label in _LABELS
    )


def evaluate(
    request: RainwallRequest,
    faces: Sequence[int],
    allocation: Sequence[int],
    provenance: Provenance,
    kind: AllocationKind = AllocationKind.OPTIMAL,
    parent: RainwallResult | None = None,
) -> RainwallResult:
    """Score given faces and a given (already checked) allocation; no randomness here.

    The records are built once each from values checked here (``trusted_builder``), or
    are the shared record of a die as rolled (``_plain_dice``): the same immutable
    result as the classes' constructors make, without their per-field cost.
    """
    if len(allocation) != len(faces):
        raise ValueError("evaluate: one allocation entry per face")
    options, skill = request.options, request.skill
    top = rules.highest_success_face(skill, options)  # a face succeeds when at most ``top``
    raw = 0
    dice: list[DieRecord] = []
    steps: list[StepChange] = []
    successes = 0
    shared = _plain_dice() if len(faces) <= len(_LABELS) else ()
    for index, face in enumerate(faces):
        raw += face <= top
        spent = allocation[index]
        if not spent and index < len(shared) and type(face) is int and 0 < face <= _SIDES:
            won = face <= top
            successes += won
            dice.append(shared[index][face][won])
            continue
        label = _LABELS[index] if index < len(_LABELS) else f"d{index + 1}"
        final = face - spent
        won = final <= top
        successes += won
        if spent:
            verdict = "success" if won else "failure"
            steps.append(_step(-spent, f"{label}: {face} -> {final} (bonus {spent})", True))
            marks: tuple[str, ...] = (f"bonus {spent}", verdict)
        else:
            marks = _WON if won else _LOST
        dice.append(_die(label, _SIDES, face, "pool", DieState.ROLLED, (), marks))
    flubbed = request.dice == rules.FLUB_TRAIT and rules.is_flub(
        request.dice, skill, faces.count(rules.FLUB_FACE)
    )
    bonus, dr = request.bonus, request.dr
    modifiers = _bonus_modifiers(request.skill_name, bonus) if bonus else ()
    increment, reached = rules.outcome_of(raw, successes, dr, flubbed, options, request.dice)
    return _result(
        request,
        tuple(dice),
        tuple(allocation),
        kind,
        modifiers,
        tuple(steps),
        raw,
        successes,
        bonus - sum(allocation),
        increment,
        reached,
        provenance,
        parent,
    )


@lru_cache(maxsize=1024, typed=True)
def _bonus_modifiers(skill_name: str, bonus: int) -> tuple[Modifier, ...]:
    """The skill bonus as the result lists it (an immutable value, made once per skill)."""
    return (_modifier(f"{skill_name or 'skill'} bonus", bonus, "bonus"),)


def roll_check(request: RainwallRequest, source: RandomSource) -> RainwallResult:
    """Roll the trait's dice from ``source`` and spend the bonus optimally."""
    recorder = RecordingSource(source)
    faces = recorder.draw_many(rules.DIE_SIDES, request.dice)
    provenance = Provenance.of_source(source, recorder.draws)
    allocation = optimal_allocation(faces, request.skill, request.bonus, request.options)
    return evaluate(request, faces, allocation, provenance)


def reallocate(result: RainwallResult, points: Sequence[int]) -> RainwallResult:
    """The player's override: a new result on the same dice, linked to ``result``."""
    allocation = checked_allocation(result.faces, result.request.bonus, points)
    return evaluate(
        result.request, result.faces, allocation, result.provenance, AllocationKind.MANUAL, result
    )


def allocation_from_labels(result: RainwallResult, points: Mapping[str, int]) -> tuple[int, ...]:
    """Turn ``{"d5": 2}`` into a full allocation tuple, naming any unknown die."""
    labels = [die.label for die in result.dice]
    check_known("allocation", points, labels, "a die label from")
    return tuple(points.get(label, 0) for label in labels)


def allocation_from_params(result: RainwallResult, params: Mapping[str, Any]) -> tuple[int, ...]:
    """A reallocation's points per die from a list, ``{"d5": 2}``, ``["d5=2"]`` or
    ``allocation.dN`` keys (a form's), naming any bad value or unknown die."""
    raw = params.get("allocation")
    if isinstance(raw, str):
        raw = [raw]
    if isinstance(raw, list | tuple) and raw and all(isinstance(v, str) and "=" in v for v in raw):
        raw = dict(v.split("=", 1) for v in raw)
    if isinstance(raw, Mapping):
        points = {str(label).strip(): _point(f"allocation.{label}", v) for label, v in raw.items()}
        return allocation_from_labels(result, points)
    if isinstance(raw, list | tuple):
        return tuple(_point(f"allocation.d{n}", v) for n, v in enumerate(raw, start=1))
    if raw not in (None, ""):
        raise InvalidInput("allocation", raw, "one whole number of points per die")
    labels = [die.label for die in result.dice]
    dotted = {
        key.removeprefix("allocation."): value
        for key, value in params.items()
        if key.startswith("allocation.")
    }
    check_known("allocation", dotted, labels, "a die label from")
    return tuple(_point(f"allocation.{label}", dotted.get(label)) for label in labels)


def _point(field: str, value: Any) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value)
    raise InvalidInput(field, value, "a whole number of points")
