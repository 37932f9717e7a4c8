"""One root error with precise subclasses.

Every error says which field was wrong, what value it held, and what would have
been accepted, so a CLI user or an API client can correct the input without
reading the source.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class RuleboundError(Exception):
    """Root of every error rulebound raises on purpose."""


class InvalidInput(RuleboundError, ValueError):
    """A value that the rules or the content schema do not accept."""

    def __init__(self, field: str, value: Any, expected: str, *, tip: str | None = None) -> None:
        self.field = field
        self.value = value
        self.expected = expected
        self.tip = tip
        message = f"{field}: got {value!r}; expected {expected}"
        if tip:
            message += f". Tip: {tip}"
        super().__init__(message)


class InvalidForm(InvalidInput):
    """Several bad fields of one form or file, reported together so all can be fixed at once.

    It is an ``InvalidInput`` for the first problem, so code that names one field still can.
    """

    def __init__(self, problems: tuple[InvalidInput, ...] | list[InvalidInput]) -> None:
        flat: list[InvalidInput] = []
        for problem in problems:
            flat += problem.problems if isinstance(problem, InvalidForm) else [problem]
        if not flat:
            raise ValueError("InvalidForm needs at least one problem")
        self.problems: tuple[InvalidInput, ...] = tuple(flat)
        first = flat[0]
        super().__init__(first.field, first.value, first.expected, tip=first.tip)
        self.args = ("; ".join(str(p) for p in flat),)

    def __str__(self) -> str:
        return str(self.args[0])


class SheetFileError(InvalidForm):
    """A character file that does not load as a sheet of the game ``title``: said whole as
    another game's file where it fails on nearly every field (``render.words``)."""

    def __init__(self, problems: tuple[InvalidInput, ...] | list[InvalidInput], title: str) -> None:
        super().__init__(problems)
        self.title = title


def problems_of(exc: InvalidInput) -> tuple[InvalidInput, ...]:
    """Each problem ``exc`` reports: a form's several, or the one."""
    return exc.problems if isinstance(exc, InvalidForm) else (exc,)


def within(prefix: str, exc: InvalidInput) -> InvalidInput:
    """``exc`` about a value nested under the field ``prefix`` (a sheet a form field
    carries): each problem named under it, "race" as "helper.race"; the whole value
    ("sheet") as the field itself."""
    moved = [
        InvalidInput(
            prefix if p.field == "sheet" else f"{prefix}.{p.field}", p.value, p.expected, tip=p.tip
        )
        for p in problems_of(exc)
    ]
    return moved[0] if len(moved) == 1 else InvalidForm(moved)


def raise_all(problems: list[InvalidInput]) -> None:
    """Raise the problems found, one as itself, several as an ``InvalidForm``."""
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise InvalidForm(problems)


class LimitExceeded(InvalidInput):
    """A request larger than the configured safety limits allow (or, given ``low``, outside
    them at either end)."""

    def __init__(
        self, field: str, value: Any, limit: int, unit: str = "", *, low: int | None = None
    ) -> None:
        self.limit = limit
        bounds = f"at most {limit}" if low is None else f"a number from {low} to {limit}"
        super().__init__(field, value, f"{bounds} {unit}".rstrip())


class RuleViolation(RuleboundError):
    """An action the rules forbid in the current state (push a passive roll, burn fate at LCK 5)."""

    def __init__(self, rule: str, detail: str) -> None:
        self.rule = rule
        self.detail = detail
        super().__init__(f"{rule}: {detail}")


class ContentError(RuleboundError):
    """A data file (races, specialties, tricks...) that fails validation on load."""

    def __init__(self, source: str, detail: str, problems: tuple[InvalidInput, ...] = ()) -> None:
        self.source = source
        self.detail = detail
        self.problems = problems
        """The same problems one by one, for a front end that words them itself."""
        super().__init__(f"{source}: {detail}")

    @classmethod
    def of(cls, source: str, problem: InvalidInput) -> ContentError:
        """One bad value of a data file, kept whole so a front end can word it."""
        return cls(source, str(problem), (problem,))

    @classmethod
    def unknown(cls, source: str, field: str, value: Any, known: Iterable[str]) -> ContentError:
        """A name that refers to nothing the content defines."""
        return cls.of(source, InvalidInput(field, value, f"one of {', '.join(sorted(known))}"))


class ReplayMismatch(RuleboundError):
    """A replayed roll asked for a die the recording does not hold."""

    def __init__(self, index: int, expected: str, got: str) -> None:
        self.index = index
        super().__init__(f"draw #{index}: recording holds {expected}, the roll asked for {got}")


class UnknownRuleset(InvalidInput):
    """A ruleset key that no registered ruleset answers to."""
