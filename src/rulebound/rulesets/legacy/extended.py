"""Extended checks: a saveable, resumable tally of success and failure margins.

Each roll adds its margin to the success or the failure tally (criticals count
double; a partial success counts as the failure it is, since the text offers
partial success only for the whole extended check). The check ends when a tally
reaches its threshold or the rolls run out; at the end, more success than
failure may be taken as a partial success.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    LegacyResult,
    request_from_json,
    roll_check,
)

MAX_ROLLS = 50


class ExtendedStatus(StrEnum):
    IN_PROGRESS = "in progress"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    PARTIAL = "partial success available"
    RAN_OUT = "ran out of rolls"


def tally(result: LegacyResult) -> tuple[int, int]:
    """(success, failure) one roll adds."""
    weight = 2 if result.outcome.critical else 1
    if result.outcome.passed:
        return (result.margin * weight, 0)
    return (0, -result.margin * weight)


def status_of(success: int, failure: int, rolls: int, spec: ExtendedSpec) -> ExtendedStatus:
    """Shared by the tracker and the odds engine."""
    if success >= spec.success_threshold:
        return ExtendedStatus.SUCCEEDED
    if failure >= spec.failure_threshold:
        return ExtendedStatus.FAILED
    if rolls < spec.max_rolls:
        return ExtendedStatus.IN_PROGRESS
    return ExtendedStatus.PARTIAL if success > failure else ExtendedStatus.RAN_OUT


class ExtendedSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    success_threshold: int = Field(ge=1, le=10_000)
    failure_threshold: int = Field(ge=1, le=10_000)
    max_rolls: int = Field(ge=1, le=MAX_ROLLS)


@dataclass(frozen=True, slots=True)
class ExtendedStep:
    """One roll of an extended check as the save file keeps it."""

    face: int
    outcome: str
    success: int
    failure: int


@dataclass(frozen=True, slots=True)
class ExtendedCheck:
    """The state of an extended check; ``roll`` returns the next state and the roll's result.

    ``history`` holds this session's results; a resumed check starts a new history
    but keeps its tallies, ``rolls_made`` and ``log`` (every roll so far, in order).
    ``first`` is the first roll's own check when it differs from the rest: a curse's
    disadvantage or favour's advantage touches one roll, the first (ruling 92).
    """

    spec: ExtendedSpec
    request: CheckRequest
    success: int = 0
    failure: int = 0
    rolls_made: int = 0
    history: tuple[LegacyResult, ...] = ()
    log: tuple[ExtendedStep, ...] = ()
    first: CheckRequest | None = None

    @property
    def status(self) -> ExtendedStatus:
        return status_of(self.success, self.failure, self.rolls_made, self.spec)

    @property
    def next_request(self) -> CheckRequest:
        """The check the next roll makes: ``first`` until the first roll is made."""
        return self.first if self.first is not None and not self.rolls_made else self.request

    def roll(self, source: RandomSource) -> tuple[ExtendedCheck, LegacyResult]:
        if self.status is not ExtendedStatus.IN_PROGRESS:
            raise RuleViolation("extended check", f"already finished: {self.status.value}")
        result = roll_check(self.next_request, source)
        s, f = tally(result)
        nxt = replace(
            self,
            success=self.success + s,
            failure=self.failure + f,
            rolls_made=self.rolls_made + 1,
            history=(*self.history, result),
            log=(*self.log, ExtendedStep(result.face, result.outcome.value, s, f)),
        )
        return nxt, result

    def to_save(self) -> dict[str, Any]:
        """A JSON-ready snapshot: the spec, the request and the tallies so far (and the first
        roll's own check while that roll is still to come)."""
        pending = {"first": to_jsonable(self.first)} if self.next_request is self.first else {}
        return pending | {
            "spec": self.spec.model_dump(),
            "request": to_jsonable(self.request),
            "success": self.success,
            "failure": self.failure,
            "rolls_made": self.rolls_made,
            "status": self.status.value,
            "log": to_jsonable(self.log),
        }

    @staticmethod
    def resume(data: dict[str, Any]) -> ExtendedCheck:
        """Rebuild from ``to_save`` output; the tallies must agree with the log when one is kept."""
        try:
            spec = ExtendedSpec.model_validate(data["spec"])
            request = request_from_json(data["request"])
            success, failure = int(data["success"]), int(data["failure"])
            made = int(data["rolls_made"])
            log = tuple(ExtendedStep(**step) for step in data.get("log", ()))
            first = request_from_json(data["first"]) if data.get("first") else None
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput("extended check", str(exc), "a saved extended check") from None
        if min(success, failure, made) < 0 or made > spec.max_rolls:
            raise InvalidInput("rolls_made", made, f"0 to {spec.max_rolls} with tallies >= 0")
        if log and (
            len(log) != made
            or sum(s.success for s in log) != success
            or sum(s.failure for s in log) != failure
        ):
            raise InvalidInput(
                "log", len(log), f"{made} logged rolls adding up to {success}/{failure}"
            )
        return ExtendedCheck(spec, request, success, failure, made, log=log, first=first)
