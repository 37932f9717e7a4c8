"""One root error with precise subclasses.

Every error says which field was wrong, what value it held, and what would have
been accepted, so a CLI user or an API client can correct the input without
reading the source.
"""

from __future__ import annotations

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


class LimitExceeded(InvalidInput):
    """A request larger than the configured safety limits allow."""

    def __init__(self, field: str, value: Any, limit: int) -> None:
        self.limit = limit
        super().__init__(field, value, f"at most {limit}")


class RuleViolation(RuleboundError):
    """An action the rules forbid in the current state (push a passive roll, burn fate at LCK 5)."""

    def __init__(self, rule: str, detail: str) -> None:
        self.rule = rule
        self.detail = detail
        super().__init__(f"{rule}: {detail}")


class ContentError(RuleboundError):
    """A data file (races, specialties, tricks...) that fails validation on load."""

    def __init__(self, source: str, detail: str) -> None:
        self.source = source
        self.detail = detail
        super().__init__(f"{source}: {detail}")


class ReplayMismatch(RuleboundError):
    """A replayed roll asked for a die the recording does not hold."""

    def __init__(self, index: int, expected: str, got: str) -> None:
        self.index = index
        super().__init__(f"draw #{index}: recording holds {expected}, the roll asked for {got}")


class UnknownRuleset(InvalidInput):
    """A ruleset key that no registered ruleset answers to."""
