"""Rolling a check and reallocating its bonus points; results are immutable records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

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
            f"{self.degree.label}: {self.successes} successes vs DR {self.request.dr}, "
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
_LABELS = tuple(f"d{number}" for number in range(1, 1 + DEFAULT_LIMITS.max_dice_per_roll))
_WON, _LOST = ("success",), ("failure",)


def evaluate(
    request: RainwallRequest,
    faces: Sequence[int],
    allocation: Sequence[int],
    provenance: Provenance,
    kind: AllocationKind = AllocationKind.OPTIMAL,
    parent: RainwallResult | None = None,
) -> RainwallResult:
    """Score given faces and a given (already checked) allocation; no randomness here.

    The records are built once each from values checked here (``trusted_builder``):
    the same immutable result as the classes' constructors make, without their
    per-field cost.
    """
    options, skill = request.options, request.skill
    top = rules.highest_success_face(skill, options)  # a face succeeds when at most ``top``
    raw = sum(face <= top for face in faces)
    dice: list[DieRecord] = []
    steps: list[StepChange] = []
    successes = 0
    labels = _LABELS if len(faces) <= len(_LABELS) else [f"d{n + 1}" for n in range(len(faces))]
    for label, face, spent in zip(labels, faces, allocation, strict=False):
        final = face - spent
        won = final <= top
        successes += won
        if spent:
            verdict = "success" if won else "failure"
            steps.append(_step(-spent, f"{label}: {face} -> {final} (bonus {spent})", True))
            marks: tuple[str, ...] = (f"bonus {spent}", verdict)
        else:
            marks = _WON if won else _LOST
        dice.append(_die(label, rules.DIE_SIDES, face, "pool", DieState.ROLLED, (), marks))
    if len(dice) != len(faces) or len(allocation) != len(faces):
        raise ValueError("evaluate: one allocation entry per face")
    tens = sum(face == rules.FLUB_FACE for face in faces)
    flubbed = rules.is_flub(request.dice, skill, tens)
    label = request.skill_name or "skill"
    modifiers = (Modifier(f"{label} bonus", request.bonus, "bonus"),) if request.bonus else ()
    return _result(
        request,
        tuple(dice),
        tuple(allocation),
        kind,
        modifiers,
        tuple(steps),
        raw,
        successes,
        request.bonus - sum(allocation),
        rules.ios(successes, request.dr, options),
        rules.degree(raw, successes, request.dr, flubbed, options, dice=request.dice),
        provenance,
        parent,
    )


def roll_check(request: RainwallRequest, source: RandomSource) -> RainwallResult:
    """Roll the trait's dice from ``source`` and spend the bonus optimally."""
    recorder = RecordingSource(source)
    faces = recorder.draw_many(rules.DIE_SIDES, request.dice)
    provenance = Provenance.of(source.describe(), recorder.draws)
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
