"""Shared helpers for The Empty Reach tests: scripted dice and small check builders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rulebound.rulesets.empty_reach.check import CheckRequest, PreparedCheck, prepare


class Scripted:
    """A random source that answers with the given faces, in order, and checks each fits."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[int] = []

    def draw(self, sides: int) -> int:
        if not self.faces:
            raise AssertionError(f"the script ran out of faces when a d{sides} was asked for")
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise AssertionError(f"scripted face {face} does not fit a d{sides}")
        self.asked.append(sides)
        return face

    def describe(self) -> dict[str, object]:
        return {"kind": "scripted"}

    @property
    def used_up(self) -> bool:
        return not self.faces


@pytest.fixture(scope="session")
def scripted() -> type[Scripted]:
    return Scripted


def _check(attribute_die: str, skill_die: str | None = None, **fields: Any) -> PreparedCheck:
    return prepare(CheckRequest(attribute_die=attribute_die, skill_die=skill_die, **fields))


@pytest.fixture(scope="session")
def check() -> Callable[..., PreparedCheck]:
    """``check("D8", "D10", skill="Force", helpers=1)``: a prepared check from request fields."""
    return _check
